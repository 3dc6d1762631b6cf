/* layout.c: a writer's look at a profile file before it appends (pp_layout): the walk of its
   streams' record headers, the checksums it relies on, and the quick look at only the first and
   the last stream; the bytes readers parse (all but a torn tail). */
#include "profile_int.h"
#include <stdlib.h>
#include <string.h>

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
  unsigned long tag = get_u32(b + at);
  size_t fixed = tag == SPRS_TAG ? SPRS_FIXED : tag == UNIT_TAG || tag == KSLB_TAG ? 40 : tag == TEST_TAG ? TEST_FIXED
                 : tag == PART_TAG ? PART_FIXED : 0, q;
  unsigned long long nc, sum;
  size_t lo, hi, mid;
  void *v;

  if (!fixed)
    return WALK_BAD;
  if (len - at < fixed)
    return WALK_CUT;
  if (tag == KSLB_TAG)
    return body_end(len, at + KSLB_FIXED, get_u64(b + at + 24), 24);
  if (tag == PART_TAG)
    return body_end(len, at + PART_FIXED, get_u64(b + at + 8), PART_ENTRY);
  if (tag == TEST_TAG) /* its name; its unit records follow as records of their own */
    return body_end(len, at + TEST_FIXED, (get_u32(b + at + 4) + 7) / 8, 8);
  nc = get_u64(b + at + 16);
  q = at + fixed + (get_u32(b + at + 4) + 7) / 8 * 8;
  q = body_end(len, q, tag == SPRS_TAG ? get_u64(b + at + 24) : nc, tag == SPRS_TAG ? 16 : 8);
  q = q == WALK_CUT ? q : body_end(len, q, get_u64(b + at + (tag == SPRS_TAG ? 32 : 24)), 24);
  if (q == WALK_CUT)
    return q;
  sum = get_u64(b + at + 8);
  lo = out->hint; /* kept sorted and unique as they come: most streams repeat the same units, in
                     the same order, so the unit after the last one found is tried first */
  if (lo < out->nunits && out->units[lo][0] == sum && out->units[lo][1] == nc)
    return out->hint = lo + 1, q;
  lo = 0;
  hi = out->nunits;
  while (lo < hi) {
    mid = (lo + hi) / 2;
    if (out->units[mid][0] < sum || (out->units[mid][0] == sum && out->units[mid][1] < nc))
      lo = mid + 1;
    else
      hi = mid;
  }
  out->hint = lo + 1;
  if (lo < out->nunits && out->units[lo][0] == sum && out->units[lo][1] == nc)
    return q;
  v = out->units;
  if ((out->nunits & (out->nunits - 1)) == 0 && !(v = realloc(out->units, 2 * (out->nunits + 1) * sizeof *out->units)))
    return WALK_BAD;
  out->units = v;
  memmove(out->units + lo + 1, out->units + lo, (out->nunits - lo) * sizeof *out->units);
  out->units[lo][0] = sum;
  out->units[lo][1] = nc;
  out->nunits++;
  return q;
}

/* Where the stream at `at` ends (after its trailer), or WALK_CUT / WALK_BAD. */
static size_t walk_stream(const unsigned char *b, size_t len, size_t at, struct pp_layout *out)
{
  size_t q = at + HEADER_LEN;
  out->hint = 0;
  if (memcmp(b + at, "PATHPROF", len - at < 8 ? len - at : 8) != 0)
    return WALK_BAD;
  if (len - at < HEADER_LEN)
    return WALK_CUT;
  if ((get_u32(b + at + 8) != 1 && get_u32(b + at + 8) != 2) || get_u32(b + at + 12) != 0)
    return WALK_BAD;
  while (q != WALK_CUT && q != WALK_BAD) {
    if (len - q < 4)
      return WALK_CUT;
    if (get_u32(b + q) == END_TAG)
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
  return fnv(FNV_BASIS, b + at, t + 8 - at) == get_u64(b + t + 8);
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
    if (end == WALK_CUT && n - at >= HEADER_LEN + TRAILER_LEN && get_u32(b + n - TRAILER_LEN) == END_TAG)
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

/* The start of the last stream header ("PATHPROF", version 1 or 2, flags 0) in b[from..n), or
   n when there is none. */
static size_t last_header(const unsigned char *b, size_t from, size_t n)
{
  size_t at = n - HEADER_LEN + 1;
  while (n - from >= HEADER_LEN && at-- > from)
    if (b[at] == 'P' && !memcmp(b + at, "PATHPROF", 8) && (get_u32(b + at + 8) == 1 || get_u32(b + at + 8) == 2) &&
        get_u32(b + at + 12) == 0)
      return at;
  return n;
}

int pp_profile_layout_quick(const unsigned char *b, size_t n, struct pp_layout *out, size_t verify)
{
  size_t first, last;
  struct pp_layout tail;

  memset(out, 0, sizeof *out);
  if (n >= 8 && !memcmp(b, PP_CONT_MAGIC, 8))
    return layout(b, n, out, verify);
  first = walk_stream(b, n, 0, out);
  if (first == WALK_CUT || first == WALK_BAD || first > n || (first == n && n <= verify && !stream_sum_ok(b, 0, n)))
    return free(out->units), layout(b, n, out, verify);
  out->first = out->committed = first;
  out->nstreams = 1;
  out->partial = 1;
  if (first == n) /* one stream, checked when it is at most `verify` bytes */
    return 0;
  memset(&tail, 0, sizeof tail);
  last = last_header(b, n - first > verify ? n - verify : first, n);
  if (last < n && walk_stream(b, n, last, &tail) == n && (n - last > verify || stream_sum_ok(b, last, n))) {
    free(tail.units);
    out->committed = n;
    out->nstreams = 2;
    return 0;
  }
  free(tail.units);
  free(out->units);
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
