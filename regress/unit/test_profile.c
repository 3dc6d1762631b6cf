/* test_profile.c: unit tests of the runtime (registry, hash, dump) and the profile model and file. */
#include "core/core.h"
#include "profile/profile.h"
#include "check.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#define MAXC 0xffffffffffffffffULL
#define GUARD 0xdeadbeefcafef00dULL
#define NTHREADS 8
#define NTUNITS 32
#define NCHILDREN 8

static char dir[64]; /* scratch directory, removed at the end */

/* A growable memory sink for dumps; also records the largest chunk seen. */
struct buf {
  unsigned char *p;
  size_t n, cap;
  unsigned long maxchunk;
  int calls, fail_at;
};

/* pathprof_write_fn that appends to a struct buf; fails on call number fail_at (if > 0). */
static int buf_write(void *ctx, const void *data, unsigned long len)
{
  struct buf *b = ctx;
  b->calls++;
  if (b->fail_at && b->calls >= b->fail_at)
    return -1;
  if (len > b->maxchunk)
    b->maxchunk = len;
  if (b->n + len > b->cap) {
    b->cap = (b->n + len) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p)
      abort();
  }
  memcpy(b->p + b->n, data, len);
  b->n += len;
  return 0;
}

/* A fresh empty sink. */
static struct buf newbuf(void)
{
  struct buf b;
  memset(&b, 0, sizeof b);
  return b;
}

/* The serialised bytes of p (for comparisons). */
static struct buf bytes_of(const struct pp_profile *p)
{
  struct buf b = newbuf();
  if (pp_profile_write(p, buf_write, &b) != 0)
    b.n = (size_t)-1;
  return b;
}

/* Whether two profiles serialise to the same bytes. */
static int same_bytes(const struct pp_profile *a, const struct pp_profile *b)
{
  struct buf x = bytes_of(a), y = bytes_of(b);
  int same = x.n == y.n && x.n != (size_t)-1 && memcmp(x.p, y.p, x.n) == 0;
  free(x.p);
  free(y.p);
  return same;
}

/* Whether err is a message about fname ("fname: ..."). */
static int names_file(const char *err, const char *fname)
{
  size_t n = strlen(fname);
  return strncmp(err, fname, n) == 0 && err[n] == ':';
}

/* The record with this checksum in p, or 0. */
static const struct pp_unitrec *find(const struct pp_profile *p, unsigned long long checksum)
{
  size_t i;
  for (i = 0; i < p->nunits; i++)
    if (p->units[i].checksum == checksum)
      return &p->units[i];
  return 0;
}

/* Count of hash entry (fn, id) in a record, 0 if absent. */
static unsigned long long hcount(const struct pp_unitrec *r, unsigned long long fn,
                                 unsigned long long id)
{
  unsigned long long i;
  for (i = 0; r && i < r->nhash; i++)
    if (r->hash[i].fn == fn && r->hash[i].id == id)
      return r->hash[i].count;
  return 0;
}

/* Reads a whole file into a struct buf (n = -1 if it can't be read). */
static struct buf slurp(const char *path)
{
  struct buf b = newbuf();
  char chunk[4096];
  size_t r;
  FILE *f = fopen(path, "rb");
  if (!f) {
    b.n = (size_t)-1;
    return b;
  }
  while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
    buf_write(&b, chunk, r);
  fclose(f);
  return b;
}

/* Writes len bytes to a new file at path. */
static void spit(const char *path, const void *data, size_t len)
{
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
    perror(path);
    exit(1);
  }
}

/* dir/name in a static rotating buffer. */
static const char *in_dir(const char *name)
{
  static char paths[8][256];
  static int k;
  char *p = paths[k++ % 8];
  snprintf(p, 256, "%s/%s", dir, name);
  return p;
}

/* Number of entries in dir whose name contains s. */
static int count_files(const char *d, const char *s)
{
  DIR *dp = opendir(d);
  struct dirent *e;
  int n = 0;
  if (!dp)
    return -1;
  while ((e = readdir(dp)))
    n += strstr(e->d_name, s) != 0;
  closedir(dp);
  return n;
}

/* Removes every file in d, then d itself. */
static void remove_dir(const char *d)
{
  DIR *dp = opendir(d);
  struct dirent *e;
  char p[512];
  if (!dp)
    return;
  while ((e = readdir(dp)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(p, sizeof p, "%s/%s", d, e->d_name);
      if (unlink(p) != 0)
        remove_dir(p);
    }
  closedir(dp);
  rmdir(d);
}

/* Runs fn in a forked child (which should end with exit or _exit); returns its wait status. */
static int in_child(void (*fn)(void *), void *arg)
{
  pid_t pid;
  int st;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(1);
  }
  if (pid == 0) {
    fn(arg);
    _exit(0);
  }
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  return st;
}

/* ---- registry ---- */

static unsigned long long c1[6], c2[3], h2[3 * 8], c3[1], cbad[1];
static struct __pathprof_unit u1 = {0, PATHPROF_UNIT_VERSION, 0x1111111111111111ULL,
                                    "/tmp/one.pp.json", 6, c1, 0, 0, 0};
static struct __pathprof_unit u2 = {0, PATHPROF_UNIT_VERSION, 0x2222222222222222ULL,
                                    "/tmp/two-with-a-longer-name.pp.json", 3, c2, 8, h2, 0};
static struct __pathprof_unit u3 = {0, PATHPROF_UNIT_VERSION, 0x3333333333333333ULL, "", 1, c3,
                                    0, 0, 0};
static struct __pathprof_unit ubad = {0, 99, 0x9999999999999999ULL, "/tmp/bad", 1, cbad, 0, 0, 0};

/* How many times u occurs in the registry. */
static int occurrences(const struct __pathprof_unit *u)
{
  struct __pathprof_unit *v;
  int n = 0;
  for (v = __pathprof_first(); v; v = __pathprof_next(v))
    n += v == u;
  return n;
}

/* Registering links each unit once, keeps next non-zero, and refuses unknown layouts. */
static void test_register(void)
{
  check("register_starts_unlinked", u1.next == 0 && __pathprof_first() == 0, "next already set");
  __pathprof_register(&u1);
  __pathprof_register(&u1);
  __pathprof_register(&u2);
  __pathprof_register(&u3);
  __pathprof_register(&u2);
  check("register_idempotent",
        occurrences(&u1) == 1 && occurrences(&u2) == 1 && occurrences(&u3) == 1,
        "counts %d %d %d", occurrences(&u1), occurrences(&u2), occurrences(&u3));
  check("register_next_nonzero", u1.next && u2.next && u3.next, "a registered next is 0");
  __pathprof_register(&ubad);
  check("register_refuses_unknown_version", ubad.next != 0 && occurrences(&ubad) == 0,
        "version-99 unit linked (%d) or next 0", occurrences(&ubad));
}

static struct __pathprof_unit tunits[NTUNITS];
static unsigned long long tcounters[NTUNITS];
static pthread_barrier_t barrier;

/* One racing registrar: registers every unit, each thread in its own order. */
static void *registrar(void *arg)
{
  long t = (long)arg;
  int i;
  pthread_barrier_wait(&barrier);
  for (i = 0; i < NTUNITS; i++)
    __pathprof_register(&tunits[(i * 7 + t * 5) % NTUNITS]);
  return 0;
}

/* Eight threads registering the same 32 units at once: each unit ends up linked exactly once. */
static void test_register_threads(void)
{
  pthread_t th[NTHREADS];
  long t;
  int i, bad = 0;
  for (i = 0; i < NTUNITS; i++) {
    tunits[i].version = PATHPROF_UNIT_VERSION;
    tunits[i].checksum = 0x7000000000000000ULL + (unsigned long long)i;
    tunits[i].tables = "/tmp/thread.pp.json";
    tunits[i].ncounters = 1;
    tunits[i].counters = &tcounters[i];
  }
  pthread_barrier_init(&barrier, 0, NTHREADS);
  for (t = 0; t < NTHREADS; t++)
    pthread_create(&th[t], 0, registrar, (void *)t);
  for (t = 0; t < NTHREADS; t++)
    pthread_join(th[t], 0);
  pthread_barrier_destroy(&barrier);
  for (i = 0; i < NTUNITS; i++)
    bad += occurrences(&tunits[i]) != 1;
  check("register_threads", bad == 0 && occurrences(&u1) == 1, "%d units not linked once", bad);
}

/* ---- hash ---- */

/* Whether the guard words around a table are intact. */
static int guards_ok(const unsigned long long *g, size_t before, size_t total, size_t after)
{
  size_t i;
  for (i = 0; i < before; i++)
    if (g[i] != GUARD)
      return 0;
  for (i = total - after; i < total; i++)
    if (g[i] != GUARD)
      return 0;
  return 1;
}

/* Fills a whole array with guard words. */
static void fill_guard(unsigned long long *g, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    g[i] = GUARD;
}

/* Sum of the counts in a hash table of cap entries. */
static unsigned long long table_sum(const unsigned long long *h, unsigned long cap)
{
  unsigned long long s = 0;
  unsigned long i;
  for (i = 0; i < cap; i++)
    s += h[3 * i] ? h[3 * i + 2] : 0;
  return s;
}

/* hash_add: counts, repeats, a full table drops, bad inputs drop, never writes outside. */
static void test_hash(void)
{
  unsigned long long g[3 + 3 * 4 + 3], big[3 + 3 * 200 + 3];
  struct __pathprof_unit h;
  unsigned long i;

  fill_guard(g, sizeof g / sizeof *g);
  memset(g + 3, 0, 3 * 4 * sizeof *g);
  memset(&h, 0, sizeof h);
  h.hash_cap = 4;
  h.hash = g + 3;
  for (i = 0; i < 4; i++)
    __pathprof_hash_add(&h, i % 2, 100 + i);
  __pathprof_hash_add(&h, 1, 101);
  __pathprof_hash_add(&h, 1, 101);
  check("hash_counts", table_sum(h.hash, 4) == 6 && h.hash_dropped == 0,
        "sum %llu dropped %llu", table_sum(h.hash, 4), h.hash_dropped);
  for (i = 0; i < 10; i++)
    __pathprof_hash_add(&h, 5, 1000 + i);
  check("hash_full_drops", h.hash_dropped == 10 && table_sum(h.hash, 4) == 6,
        "dropped %llu", h.hash_dropped);
  check("hash_full_in_bounds", guards_ok(g, 3, sizeof g / sizeof *g, 3), "guard overwritten");
  __pathprof_hash_add(&h, ULONG_MAX, 1);
  h.hash_cap = 0;
  __pathprof_hash_add(&h, 0, 1);
  h.hash_cap = 4;
  h.hash = 0;
  __pathprof_hash_add(&h, 0, 1);
  check("hash_bad_input_drops", h.hash_dropped == 13, "dropped %llu", h.hash_dropped);

  fill_guard(big, sizeof big / sizeof *big);
  memset(big + 3, 0, 3 * 200 * sizeof *big);
  memset(&h, 0, sizeof h);
  h.hash_cap = 200;
  h.hash = big + 3;
  for (i = 0; i < 5000; i++)
    __pathprof_hash_add(&h, i % 3, i * 7919ULL);
  check("hash_probe_limit_accounts_all",
        table_sum(h.hash, 200) + h.hash_dropped == 5000 && table_sum(h.hash, 200) == 200,
        "stored %llu dropped %llu", table_sum(h.hash, 200), h.hash_dropped);
  check("hash_big_in_bounds", guards_ok(big, 3, sizeof big / sizeof *big, 3), "guard overwritten");
}

/* ---- dump and parse ---- */

/* Gives the registered units known counts, hash entries and dropped counts. */
static void fill_counts(void)
{
  int i;
  for (i = 0; i < 6; i++)
    c1[i] = (unsigned long long)i * 1000 + 1;
  c1[5] = MAXC;
  for (i = 0; i < 3; i++)
    c2[i] = 0x0102030405060708ULL << i;
  c3[0] = 42;
  for (i = 0; i < 5; i++)
    __pathprof_hash_add(&u2, (unsigned long)i, 1ULL << (10 * i));
  __pathprof_hash_add(&u2, 3, 1ULL << 30);
  u2.hash_dropped = 77;
  tcounters[5] = 5;
}

/* Whether rec carries exactly the counts of the live unit u. */
static int rec_matches(const struct pp_unitrec *r, const struct __pathprof_unit *u)
{
  unsigned long i, used = 0;
  if (!r || r->ncounters != u->ncounters || r->dropped != u->hash_dropped ||
      strcmp(r->name, u->tables) != 0)
    return 0;
  for (i = 0; i < u->ncounters; i++)
    if (r->counters[i] != u->counters[i])
      return 0;
  for (i = 0; u->hash && i < u->hash_cap; i++) {
    if (!u->hash[3 * i])
      continue;
    used++;
    if (hcount(r, u->hash[3 * i] - 1, u->hash[3 * i + 1]) != u->hash[3 * i + 2])
      return 0;
  }
  return used == r->nhash;
}

static unsigned long long cd1[3], cd2[3];
static struct __pathprof_unit ud1 = {0, PATHPROF_UNIT_VERSION, 0x6666666666666666ULL,
                                     "/tmp/dup.pp.json", 2, cd1, 0, 0, 0};
static struct __pathprof_unit ud2 = {0, PATHPROF_UNIT_VERSION, 0x6666666666666666ULL,
                                     "/tmp/dup.pp.json", 2, cd2, 0, 0, 0};

/* Two units with one checksum give two records that a reader adds up; if their sizes differ,
   the profile is refused. */
static void test_duplicate_records(void)
{
  struct buf b = newbuf();
  struct pp_profile p;
  const struct pp_unitrec *r;
  char err[256] = "";

  __pathprof_register(&ud1);
  __pathprof_register(&ud2);
  cd1[0] = 1;
  cd1[1] = 2;
  cd2[0] = 10;
  cd2[1] = 20;
  pathprof_dump(buf_write, &b);
  if (pp_profile_parse(b.p, b.n, "dup.out", &p, err, sizeof err) != 0) {
    check("parse_adds_duplicate_records", 0, "%s", err);
  } else {
    r = find(&p, ud1.checksum);
    check("parse_adds_duplicate_records", r && r->counters[0] == 11 && r->counters[1] == 22,
          "records not added up");
    pp_profile_free(&p);
  }
  ud2.ncounters = 3;
  b.n = 0;
  pathprof_dump(buf_write, &b);
  check("parse_refuses_mismatched_duplicates",
        pp_profile_parse(b.p, b.n, "dup.out", &p, err, sizeof err) != 0 &&
            names_file(err, "dup.out") && strstr(err, "6666666666666666"),
        "accepted or message '%s'", err);
  ud2.ncounters = 2;
  free(b.p);
}

/* The dump parses back to exactly the live counters, in chunks of at most 256 bytes. */
static void test_roundtrip(struct buf *dump)
{
  struct pp_profile p;
  struct __pathprof_unit *u;
  char err[256];
  int bad = 0, n = 0;
  static const unsigned char head[] = {'P', 'A', 'T', 'H', 'P', 'R', 'O', 'F', 1, 0, 0, 0, 0, 0,
                                       0, 0, 'U', 'N', 'I', 'T'};

  fill_counts();
  *dump = newbuf();
  check("dump_ok", pathprof_dump(buf_write, dump) == 0, "dump failed");
  check("dump_chunks_small", dump->maxchunk <= 256 && dump->calls > 1, "chunk of %lu bytes",
        dump->maxchunk);
  check("dump_little_endian_header", dump->n > 20 && memcmp(dump->p, head, 20) == 0,
        "header bytes differ");
  if (pp_profile_parse(dump->p, dump->n, "dump", &p, err, sizeof err) != 0) {
    check("dump_parses", 0, "%s", err);
    return;
  }
  for (u = __pathprof_first(); u; u = __pathprof_next(u), n++)
    bad += u->checksum != ud1.checksum && !rec_matches(find(&p, u->checksum), u);
  check("dump_roundtrip", bad == 0 && (size_t)n == p.nunits + 1,
        "%d of %d units differ (%zu parsed)", bad, n, p.nunits);
  check("dump_hash_entries", hcount(find(&p, u2.checksum), 3, 1ULL << 30) == 2 &&
                                 find(&p, u2.checksum)->nhash == 5,
        "hash entry counts wrong");
  pp_profile_free(&p);
}

/* A sink failure makes the dump return -1 and the sink is not called again. */
static void test_dump_failure(void)
{
  struct buf b = newbuf();
  b.fail_at = 2;
  check("dump_sink_failure", pathprof_dump(buf_write, &b) == -1 && b.calls == 2,
        "returned 0 or kept calling (%d calls)", b.calls);
  free(b.p);
}

/* reset zeroes every count registered, inside the tables only; hash entries keep their key and
   id (inline caches point at them) and, with a zero count, are no longer dumped. */
static void test_reset(void)
{
  static unsigned long long g[3 + 5 + 3], hg[3 + 3 * 2 + 3];
  static struct __pathprof_unit ug = {0, PATHPROF_UNIT_VERSION, 0x4444444444444444ULL,
                                      "/tmp/g.pp.json", 5, 0, 2, 0, 3};
  size_t i;
  int nonzero = 0;

  fill_guard(g, sizeof g / sizeof *g);
  fill_guard(hg, sizeof hg / sizeof *hg);
  ug.counters = g + 3;
  ug.hash = hg + 3;
  __pathprof_register(&ug);
  pathprof_reset();
  for (i = 0; i < 6; i++)
    nonzero += c1[i] != 0;
  for (i = 0; i < 8; i++)
    nonzero += h2[3 * i + 2] != 0;
  for (i = 0; i < 5; i++)
    nonzero += g[3 + i] != 0;
  for (i = 0; i < 2; i++)
    nonzero += hg[3 + 3 * i + 2] != 0;
  nonzero += u2.hash_dropped != 0 || ug.hash_dropped != 0;
  check("reset_zeroes", nonzero == 0, "%d words left", nonzero);
  {
    unsigned long long nh = 1;
    __pathprof_record_size(&u2, &nh);
    check("reset_dumps_no_entries", nh == 0, "%llu hash entries still dumped", nh);
  }
  check("reset_in_bounds",
        guards_ok(g, 3, sizeof g / sizeof *g, 3) && guards_ok(hg, 3, sizeof hg / sizeof *hg, 3),
        "guard overwritten");
}

/* Every proper prefix of a valid profile is rejected with a message naming the file. */
static void test_truncations(const struct buf *good, const char *label)
{
  struct pp_profile p;
  char err[256], name[64];
  size_t len, bad = 0, first = (size_t)-1;

  snprintf(name, sizeof name, "parse_rejects_truncation_%s", label);
  for (len = 0; len < good->n; len++) {
    err[0] = 0;
    if (pp_profile_parse(good->p, len, "cut.out", &p, err, sizeof err) == 0 ||
        !names_file(err, "cut.out") || p.nunits != 0) {
      bad++;
      if (first == (size_t)-1)
        first = len;
    }
  }
  check(name, bad == 0, "%zu prefixes accepted or unnamed, first at length %zu", bad, first);
}

/* Every single-byte change of a valid profile is rejected with a message naming the file. */
static void test_corruptions(const struct buf *good, const char *label)
{
  static const unsigned char flips[] = {0x01, 0x80, 0xff};
  struct pp_profile p;
  unsigned char *copy = malloc(good->n);
  char err[256], name[64];
  size_t i, k, bad = 0, first = (size_t)-1;

  snprintf(name, sizeof name, "parse_rejects_corruption_%s", label);
  memcpy(copy, good->p, good->n);
  for (i = 0; i < good->n; i++)
    for (k = 0; k < sizeof flips; k++) {
      copy[i] ^= flips[k];
      err[0] = 0;
      if (pp_profile_parse(copy, good->n, "bad.out", &p, err, sizeof err) == 0 ||
          !names_file(err, "bad.out")) {
        bad++;
        if (first == (size_t)-1)
          first = i;
        pp_profile_free(&p);
      }
      copy[i] ^= flips[k];
    }
  check(name, bad == 0, "%zu corruptions accepted, first at byte %zu", bad, first);
  free(copy);
}

/* The writer's look before appending (pp_profile_layout_checked): every single-byte change of a
   small file sends it to the full read (other), and so does one in the last stream of a file
   larger than the budget; intact files walk clean. */
static void test_layout_checked(const struct buf *good)
{
  static const unsigned char flips[] = {0x01, 0x80, 0xff};
  struct pp_layout l;
  unsigned char *two = malloc(2 * good->n);
  size_t i, k, missed = 0, first = (size_t)-1, budget = good->n;
  int clean;

  memcpy(two, good->p, good->n);
  memcpy(two + good->n, good->p, good->n);
  pp_profile_layout_checked(two, 2 * good->n, &l, budget);
  clean = !l.other && !l.torn && l.nstreams == 2 && l.committed == 2 * good->n;
  free(l.units);
  pp_profile_layout_checked(two, good->n, &l, budget);
  clean = clean && !l.other && l.nstreams == 1;
  free(l.units);
  check("layout_checked_clean", clean, "an intact file of one or two streams is not walked clean");
  for (i = 0; i < good->n; i++)
    for (k = 0; k < sizeof flips; k++) {
      two[i] ^= flips[k];
      pp_profile_layout_checked(two, good->n, &l, budget); /* small: the whole file */
      missed += !l.other;
      first = !l.other && first == (size_t)-1 ? i : first;
      free(l.units);
      two[i] ^= flips[k];
      two[good->n + i] ^= flips[k];
      pp_profile_layout_checked(two, 2 * good->n, &l, budget); /* larger: its last stream (never a torn tail to cut) */
      missed += !l.other;
      first = !l.other && first == (size_t)-1 ? good->n + i : first;
      free(l.units);
      two[good->n + i] ^= flips[k];
    }
  check("layout_checked_flips", missed == 0, "%zu changes not caught, first at byte %zu", missed, first);
  free(two);
}

/* The writer's quick look (pp_profile_layout_quick): an intact file of two streams is described
   by its first stream's units and its end without the streams between (partial); every
   single-byte change of the stream it appends after, or of an only stream, sends it to the
   full read (other), as the full walk would. */
static void test_layout_quick(const struct buf *good)
{
  static const unsigned char flips[] = {0x01, 0x80, 0xff};
  struct pp_layout l, full;
  unsigned char *three = malloc(3 * good->n);
  size_t i, k, missed = 0, first = (size_t)-1, budget = good->n;
  int clean;

  for (i = 0; i < 3; i++)
    memcpy(three + i * good->n, good->p, good->n);
  pp_profile_layout_quick(three, 3 * good->n, &l, budget);
  pp_profile_layout_checked(three, good->n, &full, budget);
  clean = l.partial && !l.other && !l.torn && l.first == good->n && l.committed == 3 * good->n &&
          l.nunits == full.nunits && !memcmp(l.units, full.units, l.nunits * sizeof *l.units);
  free(l.units);
  free(full.units);
  pp_profile_layout_quick(three, good->n, &l, budget);
  clean = clean && l.partial && !l.other && l.committed == good->n;
  free(l.units);
  check("layout_quick_clean", clean, "an intact file of one or three streams is not described by its first and last");
  for (i = 0; i < good->n; i++)
    for (k = 0; k < sizeof flips; k++) {
      three[i] ^= flips[k];
      pp_profile_layout_quick(three, good->n, &l, budget); /* the only stream */
      missed += !l.other;
      first = !l.other && first == (size_t)-1 ? i : first;
      free(l.units);
      three[i] ^= flips[k];
      three[2 * good->n + i] ^= flips[k];
      pp_profile_layout_quick(three, 3 * good->n, &l, budget); /* the last stream */
      missed += !l.other;
      first = !l.other && first == (size_t)-1 ? 2 * good->n + i : first;
      free(l.units);
      three[2 * good->n + i] ^= flips[k];
    }
  check("layout_quick_flips", missed == 0, "%zu changes not caught, first at byte %zu", missed, first);
  free(three);
}

/* A few messages say exactly what is wrong and where. */
static void test_messages(const struct buf *good)
{
  struct pp_profile p;
  char err[256];
  unsigned char *c = malloc(good->n + 1);

  memcpy(c, good->p, good->n);
  c[0] = 'X';
  pp_profile_parse(c, good->n, "m.out", &p, err, sizeof err);
  check("msg_bad_magic", strstr(err, "m.out: bad magic at byte 0") != 0, "got '%s'", err);
  memcpy(c, good->p, good->n);
  c[8] = 3; /* 1 and 2 (with per-test records) are known */
  pp_profile_parse(c, good->n, "m.out", &p, err, sizeof err);
  check("msg_version", strstr(err, "unknown format version 3 at byte 8") != 0, "got '%s'", err);
  pp_profile_parse(good->p, 30, "m.out", &p, err, sizeof err);
  check("msg_truncated_unit", strstr(err, "m.out: truncated unit record at byte 16") != 0,
        "got '%s'", err);
  memcpy(c, good->p, good->n);
  c[16] = 'V';
  pp_profile_parse(c, good->n, "m.out", &p, err, sizeof err);
  check("msg_unknown_tag", strstr(err, "unknown tag") && strstr(err, "at byte 16"), "got '%s'",
        err);
  memcpy(c, good->p, good->n);
  c[good->n] = 0;
  pp_profile_parse(c, good->n + 1, "m.out", &p, err, sizeof err);
  check("msg_stray_bytes", strstr(err, "stray bytes after the trailer") != 0, "got '%s'", err);
  memcpy(c, good->p, good->n);
  c[good->n - 12] ^= 1;
  pp_profile_parse(c, good->n, "m.out", &p, err, sizeof err);
  check("msg_unit_count", strstr(err, "wrong unit count") != 0, "got '%s'", err);
  pp_profile_parse(good->p, 0, "m.out", &p, err, sizeof err);
  check("msg_empty", strstr(err, "m.out: empty file") != 0, "got '%s'", err);
  free(c);
}

/* ---- merge ---- */

/* Adds a hand-made unit to p. */
static void add(struct pp_profile *p, unsigned long long checksum, const char *name,
                unsigned long long n, const unsigned long long *counters, unsigned long long nh,
                const struct pp_hent *h, unsigned long long dropped)
{
  struct pp_unitrec r;
  char err[256];
  memset(&r, 0, sizeof r);
  r.checksum = checksum;
  r.name = (char *)name;
  r.ncounters = n;
  r.counters = (unsigned long long *)counters;
  r.nhash = nh;
  r.hash = (struct pp_hent *)h;
  r.dropped = dropped;
  if (pp_profile_add_unit(p, &r, err, sizeof err) != 0) {
    printf("not ok merge_setup: %s\n", err);
    exit(1);
  }
}

/* A deep copy of p, made by merging it into an empty profile. */
static struct pp_profile copy_of(const struct pp_profile *p)
{
  struct pp_profile c = {0};
  char err[256];
  if (pp_profile_merge(&c, p, err, sizeof err) != 0) {
    printf("not ok copy: %s\n", err);
    exit(1);
  }
  return c;
}

/* a + b as a new profile. */
static struct pp_profile sum_of(const struct pp_profile *a, const struct pp_profile *b)
{
  struct pp_profile s = copy_of(a);
  char err[256];
  if (pp_profile_merge(&s, b, err, sizeof err) != 0)
    printf("not ok sum: %s\n", err);
  return s;
}

/* Merge adds counts (saturating), is commutative and associative, and refuses mismatches. */
static void test_merge(void)
{
  static const unsigned long long a10[] = {1, 2, 3}, a20[] = {9}, b10[] = {10, 20, 30},
                                  b30[] = {MAXC - 1, 5}, c30[] = {5, 6}, c10[] = {100, 0, MAXC},
                                  d10[] = {1, 1, 1, 1};
  static const struct pp_hent ah[] = {{1, 7, 2}, {0, 5, 1}}, bh[] = {{2, 1, 4}, {1, 7, 3}},
                              ch[] = {{1, 7, MAXC}, {0, 5, 0}};
  struct pp_profile A = {0}, B = {0}, C = {0}, D = {0}, E = {0}, ab, ba, abc1, abc2, bc, t;
  const struct pp_unitrec *r;
  struct buf before, after;
  char err[256];

  add(&A, 0x10, "/x/b.pp.json", 3, a10, 2, ah, 1);
  add(&A, 0x20, "/x/c.pp.json", 1, a20, 0, 0, 0);
  add(&B, 0x30, "/x/d.pp.json", 2, b30, 0, 0, 0);
  add(&B, 0x10, "/x/a.pp.json", 3, b10, 2, bh, 2);
  add(&C, 0x30, "/x/d.pp.json", 2, c30, 0, 0, 4);
  add(&C, 0x10, "/x/a.pp.json", 3, c10, 2, ch, MAXC);
  ab = sum_of(&A, &B);
  ba = sum_of(&B, &A);
  r = find(&ab, 0x10);
  check("merge_sums", r && ab.nunits == 3 && r->counters[0] == 11 && r->counters[2] == 33 &&
                          r->dropped == 3 && r->nhash == 3 && hcount(r, 1, 7) == 5 &&
                          hcount(r, 2, 1) == 4 && hcount(r, 0, 5) == 1 &&
                          find(&ab, 0x20)->counters[0] == 9,
        "wrong sums");
  check("merge_keeps_one_sided", find(&ab, 0x20) && find(&ab, 0x30), "a unit was lost");
  check("merge_commutative", same_bytes(&ab, &ba), "A+B and B+A differ");
  abc1 = sum_of(&ab, &C);
  bc = sum_of(&B, &C);
  abc2 = sum_of(&A, &bc);
  check("merge_associative", same_bytes(&abc1, &abc2), "(A+B)+C and A+(B+C) differ");
  r = find(&abc1, 0x30);
  check("merge_saturates", r && r->counters[0] == MAXC && r->counters[1] == 11 &&
                               find(&abc1, 0x10)->counters[2] == MAXC &&
                               hcount(find(&abc1, 0x10), 1, 7) == MAXC &&
                               find(&abc1, 0x10)->dropped == MAXC,
        "a count wrapped");
  add(&D, 0x10, "/x/a.pp.json", 4, d10, 0, 0, 0);
  t = copy_of(&ab);
  before = bytes_of(&t);
  err[0] = 0;
  check("merge_refuses_mismatch", pp_profile_merge(&t, &D, err, sizeof err) != 0 &&
                                      strstr(err, "0000000000000010") != 0,
        "accepted or message '%s'", err);
  after = bytes_of(&t);
  check("merge_mismatch_leaves_into", before.n == after.n && memcmp(before.p, after.p, before.n) == 0,
        "into changed");
  free(before.p);
  free(after.p);
  pp_profile_free(&t);
  /* a mismatch after a unit that merged and others that moved down over it: the records the
     fold moved are freed once (a double free here aborted the exit write's rewrite) */
  add(&E, 0x10, "/x/a.pp.json", 3, b10, 0, 0, 0);
  add(&E, 0x30, "/x/d.pp.json", 4, d10, 0, 0, 0);
  t = copy_of(&ab);
  err[0] = 0;
  check("merge_mismatch_after_moves", pp_profile_merge(&t, &E, err, sizeof err) != 0 &&
                                          strstr(err, "0000000000000030") != 0,
        "accepted or message '%s'", err);
  pp_profile_free(&t);
  pp_profile_free(&E);
  before = bytes_of(&abc1);
  test_truncations(&before, "merged");
  test_corruptions(&before, "merged");
  free(before.p);
  pp_profile_free(&A);
  pp_profile_free(&B);
  pp_profile_free(&C);
  pp_profile_free(&D);
  pp_profile_free(&ab);
  pp_profile_free(&ba);
  pp_profile_free(&abc1);
  pp_profile_free(&abc2);
  pp_profile_free(&bc);
}

/* ---- save ---- */

/* A profile with enough bytes to exceed small file-size limits. */
static struct pp_profile sample_profile(void)
{
  static unsigned long long big[512];
  struct pp_profile p = {0};
  int i;
  for (i = 0; i < 512; i++)
    big[i] = (unsigned long long)i * 3;
  add(&p, 0xabc, "/x/s.pp.json", 512, big, 0, 0, 0);
  return p;
}

struct save_job {
  const char *path;
  int drop_privileges, limit_size;
};

/* Child side of a failing save: maybe becomes nobody or limits file size, then saves; the exit
   status says 0 = failed cleanly with a named message, 1 = succeeded, 2 = bad message. */
static void save_child(void *arg)
{
  const struct save_job *j = arg;
  struct pp_profile p = sample_profile();
  struct rlimit rl;
  char err[512] = "";

  if (j->drop_privileges && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
    _exit(3);
  if (j->limit_size) {
    signal(SIGXFSZ, SIG_IGN);
    rl.rlim_cur = rl.rlim_max = 100;
    setrlimit(RLIMIT_FSIZE, &rl);
  }
  if (pp_profile_save(&p, j->path, err, sizeof err) == 0)
    _exit(1);
  _exit(names_file(err, j->path) ? 0 : 2);
}

/* Saving works, and a save that can't finish leaves the old file and no temporary behind. */
static void test_save(void)
{
  struct pp_profile p = sample_profile(), q;
  struct buf want = bytes_of(&p), got, old;
  struct save_job job;
  char err[512], ro[256];
  int st;

  check("save_ok", pp_profile_save(&p, in_dir("saved.out"), err, sizeof err) == 0, "%s", err);
  got = slurp(in_dir("saved.out"));
  check("save_content", got.n == want.n && memcmp(got.p, want.p, want.n) == 0, "bytes differ");
  check("save_reads_back", pp_profile_read(in_dir("saved.out"), &q, err, sizeof err) == 0 &&
                               same_bytes(&p, &q),
        "%s", err);
  pp_profile_free(&q);
  free(got.p);

  snprintf(ro, sizeof ro, "%s", in_dir("ro"));
  mkdir(ro, 0755);
  snprintf(ro + strlen(ro), sizeof ro - strlen(ro), "/old.out");
  spit(ro, "old content", 11);
  chmod(in_dir("ro"), 0555);
  chmod(dir, 0755);
  job.path = ro;
  job.drop_privileges = 1;
  job.limit_size = 0;
  st = in_child(save_child, &job);
  old = slurp(ro);
  check("save_readonly_dir_fails", WIFEXITED(st) && WEXITSTATUS(st) == 0,
        "child status %d (1 = saved, 2 = message, 3 = setuid)", WEXITSTATUS(st));
  check("save_readonly_keeps_old", old.n == 11 && memcmp(old.p, "old content", 11) == 0 &&
                                       count_files(in_dir("ro"), ".tmp.") == 0,
        "old file changed or temporary left");
  free(old.p);
  chmod(in_dir("ro"), 0755);

  spit(in_dir("full.out"), "old content", 11);
  job.path = in_dir("full.out");
  job.drop_privileges = 0;
  job.limit_size = 1;
  st = in_child(save_child, &job);
  old = slurp(in_dir("full.out"));
  check("save_write_error_fails", WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d",
        WEXITSTATUS(st));
  check("save_write_error_cleans_up", old.n == 11 && count_files(dir, "full.out.tmp") == 0,
        "old file changed or temporary left");
  free(old.p);
  check("save_missing_dir_fails",
        pp_profile_save(&p, in_dir("no/such/dir.out"), err, sizeof err) != 0 &&
            names_file(err, in_dir("no/such/dir.out")),
        "saved or message '%s'", err);
  pp_profile_free(&p);
  free(want.p);
}

/* ---- the at-exit procedure (forked children) ---- */

static unsigned long long xc[4], xh[3 * 16];
static struct __pathprof_unit ux = {0, PATHPROF_UNIT_VERSION, 0x5555555555555555ULL,
                                    "/tmp/exit.pp.json", 4, xc, 16, xh, 0};

/* What one child counts in ux: counters 1..4, (0,10) twice, (1,20) once, one dropped. */
static void count_in_child(void)
{
  int i;
  __pathprof_register(&ux);
  for (i = 0; i < 4; i++)
    xc[i] += (unsigned long long)i + 1;
  __pathprof_hash_add(&ux, 0, 10);
  __pathprof_hash_add(&ux, 0, 10);
  __pathprof_hash_add(&ux, 1, 20);
  __pathprof_hash_add(&ux, ULONG_MAX, 1);
}

/* Child: counts, then leaves through exit() so the back end writes the file. */
static void exit_child(void *arg)
{
  const char *errfile = arg;
  int fd;
  if (errfile && (fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0)
    dup2(fd, 2);
  count_in_child();
  exit(0);
}

/* Whether the file holds k times one child's counts for ux, and zeros for u1 (the parent's). */
static int holds_times(const char *path, unsigned long long k, char *why, size_t n)
{
  struct pp_profile p;
  const struct pp_unitrec *r;
  int good;
  if (pp_profile_read(path, &p, why, n) != 0)
    return 0;
  r = find(&p, ux.checksum);
  good = r && r->ncounters == 4 && r->counters[0] == k && r->counters[3] == 4 * k &&
         hcount(r, 0, 10) == 2 * k && hcount(r, 1, 20) == k && r->nhash == 2 && r->dropped == k &&
         find(&p, u1.checksum) && find(&p, u1.checksum)->counters[1] == 0;
  if (!good)
    snprintf(why, n, "counts are not %llu times one run", k);
  pp_profile_free(&p);
  return good;
}

/* A child's exit writes the file; a second run doubles it; parent counts are not inherited. */
static void test_exit_write(void)
{
  char why[512] = "";
  c1[1] = 12345; /* the parent's own count: a child must not write it again */
  setenv("PATHPROF_FILE", in_dir("exit.out"), 1);
  in_child(exit_child, 0);
  check("exit_writes_file", holds_times(in_dir("exit.out"), 1, why, sizeof why), "%s", why);
  in_child(exit_child, 0);
  check("exit_twice_doubles", holds_times(in_dir("exit.out"), 2, why, sizeof why), "%s", why);
  check("exit_no_temporaries", count_files(dir, ".tmp.") == 0, "temporary left");
  c1[1] = 0;
}

/* PATHPROF_FILE expands %p to the pid and %% to a percent sign. */
static void test_file_name(void)
{
  char want[256], why[512] = "";
  pid_t pid;
  int st;
  setenv("PATHPROF_FILE", in_dir("p-%p-%%.out"), 1);
  fflush(stdout);
  pid = fork();
  if (pid == 0)
    exit_child(0);
  waitpid(pid, &st, 0);
  snprintf(want, sizeof want, "%s/p-%ld-%%.out", dir, (long)pid);
  check("file_name_expansion", holds_times(want, 1, why, sizeof why), "%s: %s", want, why);
}

/* A corrupt existing file stays untouched; the counts go to <file>.<pid>.bad-merge. */
static void test_bad_merge(void)
{
  static const char junk[] = "this is not a profile at all";
  char bad[256], why[512] = "";
  struct buf after, msg;
  pid_t pid;
  int st, lines;
  size_t i;

  spit(in_dir("corrupt.out"), junk, sizeof junk);
  setenv("PATHPROF_FILE", in_dir("corrupt.out"), 1);
  fflush(stdout);
  pid = fork();
  if (pid == 0)
    exit_child((void *)in_dir("stderr.txt"));
  waitpid(pid, &st, 0);
  after = slurp(in_dir("corrupt.out"));
  check("bad_merge_leaves_file", after.n == sizeof junk && memcmp(after.p, junk, after.n) == 0,
        "corrupt file changed");
  snprintf(bad, sizeof bad, "%s.%ld.bad-merge", in_dir("corrupt.out"), (long)pid);
  check("bad_merge_saves_counts", holds_times(bad, 1, why, sizeof why), "%s", why);
  msg = slurp(in_dir("stderr.txt"));
  for (i = 0, lines = 0; msg.n != (size_t)-1 && i < msg.n; i++)
    lines += msg.p[i] == '\n';
  buf_write(&msg, "", 1);
  check("bad_merge_message", lines == 1 && strncmp((char *)msg.p, "pathprof: ", 10) == 0 &&
                                 strstr((char *)msg.p, in_dir("corrupt.out")) &&
                                 strstr((char *)msg.p, "bad magic") && strstr((char *)msg.p, bad),
        "stderr was '%s'", msg.p);
  free(after.p);
  free(msg.p);
}

/* Child: counts with file size limited to 1000 bytes (a stand-in for a full disk), exits. */
static void full_disk_child(void *arg)
{
  struct rlimit rl;
  signal(SIGXFSZ, SIG_IGN);
  rl.rlim_cur = rl.rlim_max = 1000;
  setrlimit(RLIMIT_FSIZE, &rl);
  exit_child(arg);
}

/* A write error at exit keeps the previous profile, leaves no temporary or empty file behind,
   and says so in one line. */
static void test_exit_write_error(void)
{
  struct buf before, after, msg;
  int lines;
  size_t i;

  setenv("PATHPROF_FILE", in_dir("full2.out"), 1);
  in_child(exit_child, 0);
  before = slurp(in_dir("full2.out"));
  in_child(full_disk_child, (void *)in_dir("stderr2.txt"));
  after = slurp(in_dir("full2.out"));
  check("exit_write_error_keeps_old", before.n != (size_t)-1 && before.n == after.n &&
                                          memcmp(before.p, after.p, before.n) == 0,
        "previous profile changed");
  check("exit_write_error_no_debris", count_files(dir, "full2.out") == 1, "%d full2.out* files",
        count_files(dir, "full2.out"));
  msg = slurp(in_dir("stderr2.txt"));
  for (i = 0, lines = 0; msg.n != (size_t)-1 && i < msg.n; i++)
    lines += msg.p[i] == '\n';
  buf_write(&msg, "", 1);
  check("exit_write_error_message", lines == 1 && strncmp((char *)msg.p, "pathprof: ", 10) == 0 &&
                                        strstr((char *)msg.p, in_dir("full2.out")),
        "stderr was '%s'", msg.p);
  free(before.p);
  free(after.p);
  free(msg.p);
  setenv("PATHPROF_FILE", in_dir("full3.out"), 1);
  in_child(full_disk_child, (void *)in_dir("stderr3.txt"));
  check("exit_write_error_no_empty_file", count_files(dir, "full3.out") == 0,
        "%d full3.out* files", count_files(dir, "full3.out"));
}

/* Child for the race: waits until the parent closes the pipe, then counts and exits. */
static void racing_child(void *arg)
{
  int *fds = arg;
  char c;
  close(fds[1]);
  while (read(fds[0], &c, 1) < 0 && errno == EINTR)
    ;
  exit_child(0);
}

/* One round: eight children wait on a pipe, are released together by closing it, and exit;
   says whether the file then holds k times one child's counts. */
static int race_round(unsigned long long k, char *why, size_t n)
{
  pid_t pids[NCHILDREN];
  int fds[2], i, st;

  if (pipe(fds) != 0) {
    perror("pipe");
    exit(1);
  }
  fflush(stdout);
  for (i = 0; i < NCHILDREN; i++) {
    pids[i] = fork();
    if (pids[i] == 0)
      racing_child(fds);
  }
  close(fds[0]);
  close(fds[1]);
  for (i = 0; i < NCHILDREN; i++)
    waitpid(pids[i], &st, 0);
  return holds_times(in_dir("race.out"), k, why, n);
}

/* Eight children released at the same moment, three rounds: exactly 8, 16, 24 times the counts. */
static void test_concurrent_exit(void)
{
  char why[512] = "";
  int round, good = 1;

  setenv("PATHPROF_FILE", in_dir("race.out"), 1);
  for (round = 1; round <= 3 && good; round++)
    good = race_round((unsigned long long)round * NCHILDREN, why, sizeof why);
  check("concurrent_exit_sums", good, "round %d: %s", round - 1, why);
  check("concurrent_exit_clean", count_files(dir, "race.out") == 1, "%d race.out* files",
        count_files(dir, "race.out"));
}

/* Child: writes mid-run with pathprof_write_file, counts again, exits. */
static void write_file_child(void *arg)
{
  (void)arg;
  count_in_child();
  if (pathprof_write_file(in_dir("mid.out")) != 0 || xc[0] != 0 ||
      table_sum(xh, 16) != 0 || ux.hash_dropped != 0)
    _exit(7); /* write failed or the written counts were left in memory */
  count_in_child();
  exit(0);
}

/* pathprof_write_file merges now and the exit write adds only what came after it. */
static void test_write_file(void)
{
  char why[512] = "";
  int st;
  setenv("PATHPROF_FILE", in_dir("mid.out"), 1);
  st = in_child(write_file_child, 0);
  check("write_file_no_double_count",
        WIFEXITED(st) && WEXITSTATUS(st) == 0 && holds_times(in_dir("mid.out"), 2, why, sizeof why),
        "status %d %s", WEXITSTATUS(st), why);
}

/* Child: traces two events, exits. */
static void trace_child(void *arg)
{
  if (arg)
    setenv("PATHPROF_TRACE", arg, 1);
  else
    unsetenv("PATHPROF_TRACE");
  __pathprof_register(&ux);
  __pathprof_trace_block(&ux, 2, 0);
  __pathprof_trace_block(&ux, 2, 5);
  __pathprof_trace_leave(&ux, 2);
  exit(0);
}

/* The trace log holds one line per event in the format of doc/formats.md section 3. */
static void test_trace(void)
{
  static const char want[] = "B 5555555555555555 2 0\nB 5555555555555555 2 5\n"
                             "X 5555555555555555 2\n";
  struct buf got;
  setenv("PATHPROF_FILE", in_dir("trace-prof.out"), 1);
  in_child(trace_child, (void *)in_dir("trace.txt"));
  got = slurp(in_dir("trace.txt"));
  check("trace_lines", got.n == sizeof want - 1 && memcmp(got.p, want, got.n) == 0,
        "trace differs (%zu bytes)", got.n);
  free(got.p);
  in_child(trace_child, 0);
  check("trace_off_when_unset", count_files(dir, "trace.txt") == 1, "unexpected trace file");
}

/* The thread's stack of frames (rt/core/partial.c), as instrumented host code declares it. */
extern __thread struct __pathprof_frame *__pathprof_sp;

/* Parses a dump of the registered units into p; 0 when it went. */
static int dump_parsed(struct pp_profile *p, char *err, size_t errlen)
{
  struct buf b = newbuf();
  int rc = pathprof_dump(buf_write, &b) == 0 ? pp_profile_parse(b.p, b.n, "dump", p, err, errlen) : -1;
  free(b.p);
  return rc;
}

/* The count of unit u's partial path (fn, site, r) in p, 0 when absent. */
static long long part_count(const struct pp_profile *p, unsigned long long checksum, unsigned long long fn,
                            unsigned long long site, unsigned long long r)
{
  const struct pp_unitrec *u = find(p, checksum);
  unsigned long long i;
  for (i = 0; u && i < u->npart; i++)
    if (u->part[i].fn == fn && u->part[i].site == site && u->part[i].r == r)
      return u->part[i].count;
  return 0;
}

/* A little-endian profile holding one unit record of u2 and a PART record with one entry for
   checksum (version v), built by hand; its length goes to *n. */
static unsigned char *part_profile(unsigned long long checksum, unsigned long v, size_t *n)
{
  struct pp_profile p;
  struct buf b = newbuf();
  unsigned char *x;
  size_t at, k;
  unsigned long long h = 0xcbf29ce484222325ULL;
  char err[256];

  memset(&p, 0, sizeof p);
  __pathprof_reset_if(0);
  if (dump_parsed(&p, err, sizeof err) != 0 || pp_profile_write(&p, buf_write, &b) != 0)
    abort();
  pp_profile_free(&p);
  at = b.n - 16; /* before the trailer */
  x = malloc(b.n + 64);
  memcpy(x, b.p, at);
  {
    unsigned long long f[8] = { 0x54524150ULL | ((unsigned long long)v << 32), 1, 0, checksum, 1, 2, 3, 1 };
    for (k = 0; k < 64; k++)
      x[at + k] = (unsigned char)(f[k / 8] >> (8 * (k % 8)));
  }
  memcpy(x + at + 64, b.p + at, 8);
  for (k = 0; k < at + 72; k++)
    h = (h ^ x[k]) * 0x100000001b3ULL;
  for (k = 0; k < 8; k++)
    x[at + 72 + k] = (unsigned char)(h >> (8 * k));
  *n = at + 80;
  free(b.p);
  return x;
}

/* Partial paths: the live frames of this thread are in every dump (count 1); the pool adds up;
   a reset takes the live frames' prefixes back; records merge, write and read back, and the
   reader refuses bad ones naming what is wrong. */
static void test_partials(void)
{
  struct __pathprof_frame f1, f2, *base;
  struct pp_profile p, q, sum;
  struct buf b;
  unsigned char *bad;
  size_t n;
  char err[256];
  int ok;

  memset(&p, 0, sizeof p);
  memset(&q, 0, sizeof q);
  memset(&sum, 0, sizeof sum);
  __pathprof_register(&u2);
  __pathprof_reset_if(0);
  f1.unit = &u2; f1.fs = (1UL << PATHPROF_SITE_BITS) | 3; f1.r = 5;
  f2.unit = &u2; f2.fs = 2UL << PATHPROF_SITE_BITS; f2.r = 0;
  base = ~__pathprof_sp->fs ? __pathprof_sp : __pathprof_grow(__pathprof_sp); /* as an activation's entry does */
  base[0] = f1;
  base[1] = f2;
  __pathprof_sp = base + 2;
  ok = dump_parsed(&p, err, sizeof err) == 0;
  check("partial_frames_dumped", ok && part_count(&p, u2.checksum, 1, 3, 5) == 1 && part_count(&p, u2.checksum, 2, 0, 0) == 1,
        "%s", ok ? "frames missing" : err);
  pp_profile_free(&p);
  __pathprof_partial_add(&u2, f1.fs, f1.r, 2);
  ok = dump_parsed(&p, err, sizeof err) == 0;
  check("partial_pool_adds", ok && part_count(&p, u2.checksum, 1, 3, 5) == 3, "count %lld", part_count(&p, u2.checksum, 1, 3, 5));
  pp_profile_free(&p);
  pathprof_reset(); /* the pool goes; the live frames' prefixes are taken back (-1) */
  ok = dump_parsed(&p, err, sizeof err) == 0;
  check("partial_reset_takes_back", ok && !find(&p, u2.checksum)->npart, "%llu partial paths left",
        ok ? find(&p, u2.checksum)->npart : 0ULL);
  pp_profile_free(&p);
  __pathprof_sp = base;
  ok = dump_parsed(&p, err, sizeof err) == 0;
  check("partial_taken_back_alone", ok && part_count(&p, u2.checksum, 1, 3, 5) == -1 && part_count(&p, u2.checksum, 2, 0, 0) == -1,
        "count %lld",
        part_count(&p, u2.checksum, 1, 3, 5));
  __pathprof_partial_add(&u2, f1.fs, f1.r, 1); /* both activations ended later: net 0 */
  __pathprof_partial_add(&u2, f2.fs, f2.r, 1);
  ok = ok && dump_parsed(&q, err, sizeof err) == 0;
  check("partial_nets_to_zero", ok && !find(&q, u2.checksum)->npart, "partial paths left");
  ok = ok && pp_profile_merge(&sum, &p, err, sizeof err) == 0 && pp_profile_merge(&sum, &p, err, sizeof err) == 0;
  check("partial_merge_adds", ok && part_count(&sum, u2.checksum, 1, 3, 5) == -2, "count %lld", part_count(&sum, u2.checksum, 1, 3, 5));
  b = newbuf();
  pp_profile_free(&q);
  ok = ok && pp_profile_write(&sum, buf_write, &b) == 0 && pp_profile_parse(b.p, b.n, "written", &q, err, sizeof err) == 0;
  check("partial_write_roundtrip", ok && part_count(&q, u2.checksum, 1, 3, 5) == -2, "%s", ok ? "count changed" : err);
  free(b.p);
  pp_profile_free(&p); pp_profile_free(&q); pp_profile_free(&sum);
  /* a deep stack: the frames run over several chunks, every one is in the dump */
  {
    struct __pathprof_frame *e, *bottom = 0;
    int i;
    for (i = 0; i < 2500; i++) {
      e = ~__pathprof_sp->fs ? __pathprof_sp : __pathprof_grow(__pathprof_sp);
      if (!bottom) bottom = e;
      __pathprof_sp = e + 1;
      e->unit = &u2; e->fs = 7UL << PATHPROF_SITE_BITS; e->r = 0;
    }
    ok = dump_parsed(&p, err, sizeof err) == 0;
    check("partial_deep_stack", ok && part_count(&p, u2.checksum, 7, 0, 0) == 2500, "count %lld",
          part_count(&p, u2.checksum, 7, 0, 0));
    pp_profile_free(&p);
    __pathprof_sp = bottom;
  }
  bad = part_profile(u2.checksum, 1, &n);
  ok = pp_profile_parse(bad, n, "made", &p, err, sizeof err) == 0;
  check("partial_record_reads", ok && part_count(&p, u2.checksum, 1, 2, 3) == 1, "%s", ok ? "entry missing" : err);
  pp_profile_free(&p);
  free(bad);
  bad = part_profile(0x123ULL, 1, &n);
  check("partial_unknown_unit_refused", pp_profile_parse(bad, n, "made", &p, err, sizeof err) != 0 &&
        strstr(err, "names unit 0000000000000123") != 0, "%s", err);
  free(bad);
  bad = part_profile(u2.checksum, 2, &n);
  check("partial_version_refused", pp_profile_parse(bad, n, "made", &p, err, sizeof err) != 0 &&
        strstr(err, "partial path record version 2") != 0, "%s", err);
  check("partial_truncated_refused", pp_profile_parse(bad, n - 40, "made", &p, err, sizeof err) != 0, "parsed");
  free(bad);
  __pathprof_reset_if(0);
}

/* Runs every check; the parent leaves with _exit so its own exit handler writes nothing. */
int main(void)
{
  struct buf dump;

  snprintf(dir, sizeof dir, "/tmp/pp-test-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  setenv("PATHPROF_FILE", in_dir("parent.out"), 1);
  unsetenv("PATHPROF_TRACE");
  test_register();
  test_register_threads();
  test_hash();
  test_duplicate_records();
  test_roundtrip(&dump);
  test_dump_failure();
  test_truncations(&dump, "dump");
  test_corruptions(&dump, "dump");
  test_messages(&dump);
  test_layout_checked(&dump);
  test_layout_quick(&dump);
  free(dump.p);
  test_reset();
  test_merge();
  test_save();
  test_exit_write();
  test_file_name();
  test_bad_merge();
  test_exit_write_error();
  test_concurrent_exit();
  test_write_file();
  test_trace();
  test_partials();
  remove_dir(dir);
  fflush(stdout);
  _exit(0);
}
