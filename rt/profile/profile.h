/* profile.h: the in-memory profile model (hosted): parse, validate, merge, write and save profiles. */
#ifndef PATHPROF_PROFILE_H
#define PATHPROF_PROFILE_H
#include <stddef.h>
#include "pathprof.h"

/* Continuous profiles (doc/formats.md section 2, "Continuous mode"): a header page, then one
   page-aligned region per unit whose counters the program maps and counts in. */
#define PP_CONT_MAGIC "PATHCONT"
#define PP_CONT_HEADER 24          /* magic, u32 version 1, u32 page size, u32 BOM, u32 flags 0 */
#define PP_CONT_BOM 0x01020304UL
#define PP_CONT_TAG 0x47455243UL   /* "CREG" */
#define PP_CONT_REGION 56          /* fixed bytes of a region header, before the name */

/* One hash-mode path count: function index, Ball-Larus path id, count. */
struct pp_hent {
  unsigned long long fn, id, count;
};

/* One partial path (PART record): an activation of function fn that stopped at call site site
   (0: before any call) with path register r, count times; a negative count takes back prefixes
   counted in an earlier write or before a reset (doc/formats.md section 2, "PART"). */
struct pp_part {
  unsigned long long fn, site, r;
  long long count;
};

/* One unit record of a profile (doc/formats.md section 2), with its partial paths. Its array
   counters are dense (counters[i] for i < ncounters; idx is 0) or, where a caller asks for it
   (PP_READ_SPARSE, pp_profile_from_sparse), sparse while that is the shorter: counters[k] is
   counter idx[k] for k < nset, indices ascending, counts > 0. Sparse units keep a merge's and a
   rewrite's cost to the counters a run touched in a unit of millions of them; pp_unit_dense
   turns one dense, and every other function here takes either. */
struct pp_unitrec {
  unsigned long long checksum;
  char *name;                       /* tables path, NUL-terminated, never 0 */
  unsigned long long ncounters, *counters;
  unsigned long long nhash;
  struct pp_hent *hash;
  unsigned long long dropped;
  unsigned long long npart;         /* partial paths, sorted by (fn, site, r), none with count 0 */
  struct pp_part *part;
  unsigned long long nset, *idx;    /* the sparse form's indices, or idx 0 */
};

/* Makes u's counters dense; 0, or -1 when out of memory (u unchanged). */
int pp_unit_dense(struct pp_unitrec *u);

/* One block of a sampled subpath (OSPH record): its unit's checksum, function index, block. */
struct pp_ospblock {
  unsigned long long unit;
  unsigned long fn, block;
};

/* One hot-list entry: subpath id, count in the sample, its blocks (len of them). */
struct pp_ospent {
  unsigned long long id, count;
  unsigned long len;
  struct pp_ospblock *blocks;       /* points into pp_osph.blocks; 0 when not kept (sampled once) */
};

/* An online subpath profiling snapshot (doc/formats.md section 2, "OSPH"). */
struct pp_osph {
  unsigned long long rate, seed, memory, used, peak, started, dropped, resamples;
  unsigned long maxlog, lengths;
  unsigned long weight[17];         /* weight[n], n = 1..maxlog: P(length 2^n) * 65536 */
  unsigned long long nentries, nblocks;
  struct pp_ospent *entries;
  struct pp_ospblock *blocks;
};

/* One node of a k-slab forest in preorder: a Ball-Larus path id, its counter, its depth (0 for
   a root; a node's parent is the nearest node before it one level up). */
struct pp_knode {
  unsigned long long label, count, depth;
};

/* One KSLB record (doc/formats.md section 2): the k-slab forest of function fn of the unit with
   this checksum. The record with k == 0 (checksum 0, fn 0, no nodes) carries the ids dropped
   before any forest could be made. */
struct pp_forest {
  unsigned long long checksum, fn;
  unsigned long k;
  unsigned long long dropped, nnodes;
  struct pp_knode *nodes;
};

/* The counts one test made (a TEST record, doc/formats.md section 2): unit records like a
   profile's, each for a unit the profile has. */
struct pp_test {
  char *name;                       /* 1 to 255 printable ASCII characters */
  size_t nunits;
  struct pp_unitrec *units;         /* sorted by checksum, as a profile's */
};

/* A whole profile. Profiles made by pp_profile_parse, pp_profile_read, pp_profile_merge and
   pp_profile_add_unit are canonical: units sorted by checksum with no checksum twice, hash entries
   sorted by (fn, id) with no pair twice and every count > 0, partial paths likewise by
   (fn, site, r) with every count nonzero; forests sorted by (checksum, fn)
   with no pair twice, each in preorder with siblings sorted by label and no label twice among
   siblings; tests sorted by name with no name twice, their units canonical. The units are the
   totals: counts made under a test name are in them too. An all-zero struct is empty. */
struct pp_profile {
  size_t nunits;
  struct pp_unitrec *units;
  unsigned long long part_dropped;  /* partial paths a program had no room to keep */
  struct pp_osph *osp;              /* the OSPH record, or 0 */
  size_t nforests;
  struct pp_forest *forests;
  size_t ntests;
  struct pp_test *tests;
};

/* pp_unit_dense of every unit of p, its tests' included; 0 or -1 (no memory). */
int pp_profile_dense(struct pp_profile *p);

/* Whether name can name a test: 1 to 255 printable ASCII characters (space included). */
int pp_test_name_ok(const char *name);

/* Files all of p's unit counts under test name as well, replacing the tests p had: what a run
   made with the test name set. Returns 0, or -1 (bad name, no memory) with p unchanged. */
int pp_profile_set_test(struct pp_profile *p, const char *name, char *err, size_t errlen);

/* Keeps only test name's counts in p's units (units the test did not run keep their place with
   zero counts), and drops the tests, forests and OSPH record, which are not per test. Returns
   0, or -1 when p has no such test (p unchanged). */
int pp_profile_only_test(struct pp_profile *p, const char *name, char *err, size_t errlen);

/* The k-slab forest of function fn of unit checksum in canonical p, or 0 if it has none. */
const struct pp_forest *pp_profile_forest(const struct pp_profile *p, unsigned long long checksum,
                                          unsigned long long fn);

/* Parses and strictly validates the profile in buf; fname only names the input in messages.
   Returns 0, or -1 with err like "pathprof.out: truncated unit record at byte 120" and *out empty.
   Records with the same checksum are merged; hash entries with count 0 are dropped. */
int pp_profile_parse(const unsigned char *buf, size_t len, const char *fname,
                     struct pp_profile *out, char *err, size_t errlen);

/* Reads fd from its offset to the end and parses it; fname names it in messages. */
int pp_profile_read_fd(int fd, const char *fname, struct pp_profile *out, char *err,
                       size_t errlen);

/* pp_profile_parse and pp_profile_read_fd with flags: PP_READ_SPARSE keeps the units of sparse
   records sparse (pp_unitrec), so that reading, merging and writing a profile back cost what it
   holds, not the size of its units: the runtime's rewrite of a file under its lock. */
#define PP_READ_SPARSE 1
int pp_profile_parse_flags(const unsigned char *buf, size_t len, const char *fname, int flags,
                           struct pp_profile *out, char *err, size_t errlen);
int pp_profile_read_fd_flags(int fd, const char *fname, int flags, struct pp_profile *out, char *err,
                             size_t errlen);

/* Reads and parses the file at path, adding the crash dumps beside it ("<path>.crash.<pid>",
   written by a crashing program's signal handler); a missing file with crash dumps reads as
   their sum. Returns 0, or -1 with err naming the file. */
int pp_profile_read(const char *path, struct pp_profile *out, char *err, size_t errlen);

/* The same for the file alone. */
int pp_profile_read_one(const char *path, struct pp_profile *out, char *err, size_t errlen);

/* Adds every crash dump beside path into p; the names of those added are appended to
   *names (*nnames of them, malloc'd; names may be 0). strict: a damaged or unmergeable one is
   an error (err names it); else it is left out and left in place. Returns 0 or -1. */
int pp_profile_add_crashes(const char *path, struct pp_profile *p, char ***names, size_t *nnames,
                           int strict, char *err, size_t errlen);

/* Adds the counts of from into into (units matched by checksum, counts saturate at 2^64-1;
   forests matched by checksum and function, joined as prefix forests with counters added);
   neither needs to be canonical, the result is. A unit with the same checksum but another
   ncounters is an error, and so are OSPH records on both sides (two random samples at their own
   rates do not add up); into is then unchanged. One side's OSPH record is kept. */
int pp_profile_merge(struct pp_profile *into, const struct pp_profile *from, char *err,
                     size_t errlen);

/* Adds a copy of one unit's counts to canonical p (empty, or made by the functions here), as a
   merge would; u's hash need not be sorted or unique. Returns 0, or -1 (ncounters mismatch, no
   memory) with p unchanged. For many units, pp_profile_merge of a whole profile is faster. */
int pp_profile_add_unit(struct pp_profile *p, const struct pp_unitrec *u, char *err,
                        size_t errlen);

/* Streams p in the profile format through fn, in one piece: units by checksum (each as a
   sparse record when that is shorter), hash entries by (fn, id). p need not be canonical.
   Returns 0, or -1 if fn failed or no memory. */
int pp_profile_write(const struct pp_profile *p, pathprof_write_fn fn, void *ctx);

/* The same into a malloc'd buffer *buf of *len bytes. Returns 0, or -1 (no memory). */
int pp_profile_encode(const struct pp_profile *p, unsigned char **buf, size_t *len);

/* One unit's counts as (index, count) pairs of its nonzero counters: what a run changed. */
struct pp_sparse {
  unsigned long long checksum, ncounters, nset, nhash, dropped;
  const char *name;
  const unsigned long long *idx, *val;   /* nset ascending indices and their counts (> 0) */
  const struct pp_hent *hash;            /* nhash entries sorted by (fn, id), each once, > 0 */
  unsigned long long npart;              /* the unit's partial paths, in any order */
  const struct pp_part *part;
  unsigned long long part_dropped;       /* partial paths the program had no room for (any unit may
                                            carry them; the stream holds their sum) */
};

/* Encodes n sparse units (sorted by checksum, each once) as one stream into a malloc'd buffer,
   each unit as the shorter of its two records. Returns 0, or -1 (no memory). */
int pp_profile_encode_sparse(const struct pp_sparse *u, size_t n, unsigned char **buf, size_t *len);

/* The canonical profile of n sparse units in any order, its units sparse while that is the
   shorter. Returns 0, or -1 with err. */
int pp_profile_from_sparse(const struct pp_sparse *u, size_t n, struct pp_profile *out, char *err,
                           size_t errlen);

/* Writes p to path safely: to a new temporary beside it, fsync, rename over path, fsync of the
   directory. On error the temporary is removed, the old file stays, and err says "<path>:
   <problem>". Returns 0 or -1. A path naming a device or pipe is written straight through,
   never replaced. */
int pp_profile_save(const struct pp_profile *p, const char *path, char *err, size_t errlen);

/* pp_profile_save with flags: PP_SAVE_SYNC syncs file and directory; PP_SAVE_LOCKED says the
   caller holds path's lock, so the temporary is "<path>.tmp" (one name, which the next locked
   writer reuses when a writer died) instead of "<path>.tmp.<pid>"; PP_SAVE_NEW makes path only
   when there is none (linked, never renamed over: -1 with errno EEXIST when it is taken). */
#define PP_SAVE_SYNC 1
#define PP_SAVE_LOCKED 2
#define PP_SAVE_NEW 4
int pp_profile_save_flags(const struct pp_profile *p, const char *path, int flags, char *err,
                          size_t errlen);

/* Creates name for reading and writing with O_CREAT|O_EXCL|O_NOFOLLOW, removing (never following) whatever
   is there first. Returns the fd, or -1 with errno set. */
int pp_open_new(const char *name);

/* Writes all of buf to fd (short writes and EINTR retried); 0 or an errno value. */
int pp_write_all(int fd, const void *buf, size_t len);

/* fsync of the directory holding path (best effort). */
void pp_sync_dir(const char *path);

/* The structure of a profile file as a walk of its record headers finds it, with no checksum
   computed (a writer's quick look under the lock): the file is streams one after the other. */
struct pp_layout {
  size_t committed;   /* bytes up to the end of the last complete stream */
  size_t first;       /* length of the first stream */
  size_t nstreams;    /* complete streams */
  int torn;           /* the bytes after committed are the start of a stream, cut short: what
                         a writer killed while appending left */
  int other;          /* something a walk cannot judge (an OSPH record, damage, a continuous
                         file): only a full read can say more */
  size_t nunits;      /* (checksum, ncounters) of the unit records, sorted, each once */
  unsigned long long (*units)[2];
  size_t hint;        /* the walk's guess of where the next record's unit is in units */
  int partial;        /* pp_profile_layout_quick's: units are the first stream's only, and the
                         streams between the first and the last were not counted (nstreams 2) */
};

/* Walks the n bytes at b into *out (free out->units). Returns 0, or -1 when out of memory. */
int pp_profile_layout(const unsigned char *b, size_t n, struct pp_layout *out);

/* pp_profile_layout, and the checksums a writer appending after the streams relies on: of every
   stream when the n bytes are at most `verify`, else of the last complete stream when it is at
   most `verify` bytes long; a mismatch sets other (so a flipped byte sends the writer to the full
   read, which refuses the file, instead of appending counts after damage). */
int pp_profile_layout_checked(const unsigned char *b, size_t n, struct pp_layout *out, size_t verify);

/* The writer's quick look before appending: a walk of the first stream and of the last (found
   from the end: its header, its walk ending at the file's end, and its checksum when it is at
   most `verify` bytes; an only stream's likewise), without walking the streams between:
   partial is set, units are the first stream's. A writer appending units that are all there
   with their sizes needs no more (appenders keep to the first stream's sizes, or walk
   everything); otherwise, and whenever the quick look cannot decide, the full walk's layout
   (pp_profile_layout_checked) is returned. Damage in a stream between is left to the next
   full read. */
int pp_profile_layout_quick(const unsigned char *b, size_t n, struct pp_layout *out, size_t verify);

/* The byte count of a file's bytes that readers parse: all but a torn tail (pp_layout). */
size_t pp_profile_committed(const unsigned char *b, size_t n);

/* Frees everything p owns and leaves it empty. */
void pp_profile_free(struct pp_profile *p);

#endif
