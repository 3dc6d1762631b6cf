/* layout.c: the writer's quick look at a profile file of appended streams (pp_layout): where
   its records and streams end and which units it holds, from the record headers, with the
   checksums of the streams an append goes after. */
#include "profile_int.h"
#include <stdlib.h>
#include <string.h>

/* ---- The writer's quick look: record headers only, no checksum (pp_layout) ---- */

/* Whether the stream magic occurs in the n bytes at b. */
static int memmem_magic(const unsigned char *b, size_t n)
{
  size_t i;
  for (i = 0; i + 8 <= n; i++)
    if (b[i] == 'P' && !memcmp(b + i, "PATHPROF", 8))
      return 1;
  return 0;
}

#define WALK_CUT ((size_t)-1) /* the record runs past the end of the bytes: cut short */
#define WALK_BAD ((size_t)-2) /* a record the walk cannot size (unknown tag, OSPH) */

/* bytes a record's body of n items of sz bytes, after a fixed part at `at`, ends at; WALK_CUT
   when past len. */
static size_t body_end(size_t len, size_t at, unsigned long long n, size_t sz)
{
  if (at > len || n > (len - at) / sz)
    return WALK_CUT;
  return at + (size_t)n * sz;
}

/* Where the record at `at` ends, from its header; a unit record's (checksum, ncounters) is
   appended to out's list. */
static size_t walk_record(const unsigned char *b, size_t len, size_t at, struct pp_layout *out)
{
  unsigned long tag = ppf_get_u32(b + at);
  size_t fixed = tag == SPRS_TAG ? SPRS_FIXED : tag == UNIT_TAG || tag == KSLB_TAG ? 40 : tag == TEST_TAG ? TEST_FIXED
                 : tag == PART_TAG ? PART_FIXED : 0, q;
  unsigned long long nc;
  size_t lo, hi, mid;
  void *v;

  if (!fixed)
    return WALK_BAD;
  if (len - at < fixed)
    return WALK_CUT;
  if (tag == KSLB_TAG)
    return body_end(len, at + KSLB_FIXED, ppf_get_u64(b + at + 24), 24);
  if (tag == PART_TAG)
    return body_end(len, at + PART_FIXED, ppf_get_u64(b + at + 8), PART_ENTRY);
  if (tag == TEST_TAG) /* its name; its unit records follow as records of their own */
    return body_end(len, at + TEST_FIXED, (ppf_get_u32(b + at + 4) + 7) / 8, 8);
  nc = ppf_get_u64(b + at + 16);
  q = at + fixed + (ppf_get_u32(b + at + 4) + 7) / 8 * 8;
  q = body_end(len, q, tag == SPRS_TAG ? ppf_get_u64(b + at + 24) : nc, tag == SPRS_TAG ? 16 : 8);
  q = q == WALK_CUT ? q : body_end(len, q, ppf_get_u64(b + at + (tag == SPRS_TAG ? 32 : 24)), 24);
  if (q == WALK_CUT)
    return q;
  lo = 0; /* kept sorted and unique as they come: most streams repeat the same units */
  hi = out->nunits;
  while (lo < hi) {
    mid = (lo + hi) / 2;
    if (out->units[mid][0] < ppf_get_u64(b + at + 8) ||
        (out->units[mid][0] == ppf_get_u64(b + at + 8) && out->units[mid][1] < nc))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < out->nunits && out->units[lo][0] == ppf_get_u64(b + at + 8) && out->units[lo][1] == nc)
    return q;
  v = out->units;
  if ((out->nunits & (out->nunits - 1)) == 0 && !(v = realloc(out->units, 2 * (out->nunits + 1) * sizeof *out->units)))
    return WALK_BAD;
  out->units = v;
  memmove(out->units + lo + 1, out->units + lo, (out->nunits - lo) * sizeof *out->units);
  out->units[lo][0] = ppf_get_u64(b + at + 8);
  out->units[lo][1] = nc;
  out->nunits++;
  return q;
}

/* Where the stream at `at` ends (after its trailer), or WALK_CUT / WALK_BAD. */
static size_t walk_stream(const unsigned char *b, size_t len, size_t at, struct pp_layout *out)
{
  size_t q = at + HEADER_LEN;
  if (memcmp(b + at, "PATHPROF", len - at < 8 ? len - at : 8) != 0)
    return WALK_BAD;
  if (len - at < HEADER_LEN)
    return WALK_CUT;
  if ((ppf_get_u32(b + at + 8) != 1 && ppf_get_u32(b + at + 8) != 2) || ppf_get_u32(b + at + 12) != 0)
    return WALK_BAD;
  while (q != WALK_CUT && q != WALK_BAD) {
    if (len - q < 4)
      return WALK_CUT;
    if (ppf_get_u32(b + q) == END_TAG)
      return len - q < TRAILER_LEN ? WALK_CUT : q + TRAILER_LEN;
    q = walk_record(b, len, q, out);
  }
  return q;
}

/* Whether the complete stream from `at` to `end` (after its trailer) has the checksum its
   trailer holds. */
static int stream_sum_ok(const unsigned char *b, size_t at, size_t end)
{
  size_t t = end - TRAILER_LEN;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  (void)b; (void)at; (void)t;
  return 1; /* as parse_trailer: fuzz builds reach what follows with any checksum */
#else
  return ppf_fnv(FNV_BASIS, b + at, t + 8 - at) == ppf_get_u64(b + t + 8);
#endif
}

/* Walks the streams of a profile file (see profile.h). A stream cut short counts as torn only
   when it is the last thing in the file (no stream magic after its start): damage elsewhere
   is left to a full read. Checksums are checked as pp_profile_layout_checked says. */
static int layout(const unsigned char *b, size_t n, struct pp_layout *out, size_t verify)
{
  size_t at = 0, end, last = 0;

  memset(out, 0, sizeof *out);
  if (n >= 8 && !memcmp(b, PP_CONT_MAGIC, 8))
    return out->other = 1, 0;
  while (at < n) {
    end = walk_stream(b, n, at, out);
    if (end == WALK_CUT && (!out->nstreams || (n - at > 8 && memmem_magic(b + at + 8, n - at - 8))))
      end = WALK_BAD; /* only an appended stream can be torn: a cut first one is damage */
    if (end == WALK_CUT && n - at >= HEADER_LEN + TRAILER_LEN && ppf_get_u32(b + n - TRAILER_LEN) == END_TAG)
      end = WALK_BAD; /* it ends in a trailer: a whole stream whose sizes were changed, not torn */
    if (end != WALK_CUT && end != WALK_BAD && n <= verify && !stream_sum_ok(b, at, end))
      end = WALK_BAD; /* a small file: every stream's checksum is checked */
    if (end == WALK_CUT || end == WALK_BAD) {
      out->torn = end == WALK_CUT;
      out->other = end == WALK_BAD;
      break;
    }
    if (!out->nstreams++)
      out->first = end;
    last = at;
    out->committed = at = end;
  }
  /* a larger file: the stream the next one is appended after */
  if (!out->other && out->nstreams && n > verify && out->committed - last <= verify &&
      !stream_sum_ok(b, last, out->committed))
    out->other = 1;
  return 0;
}

int pp_profile_layout(const unsigned char *b, size_t n, struct pp_layout *out)
{
  return layout(b, n, out, 0);
}

int pp_profile_layout_checked(const unsigned char *b, size_t n, struct pp_layout *out, size_t verify)
{
  return layout(b, n, out, verify);
}

/* The bytes readers parse: a torn tail (a writer killed while appending) is not data yet. */
size_t pp_profile_committed(const unsigned char *b, size_t n)
{
  struct pp_layout l;
  size_t c = n;
  if (pp_profile_layout(b, n, &l) == 0 && l.torn)
    c = l.committed;
  free(l.units);
  return c;
}
