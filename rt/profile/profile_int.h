/* profile_int.h: what the profile model's files (merge.c, read.c, layout.c, write.c, tests.c) share:
   the format's constants and numbers, and the helpers of the canonical form. Internal to
   rt/profile/. */
#ifndef PATHPROF_PROFILE_INT_H
#define PATHPROF_PROFILE_INT_H
#include "profile.h"

#define UNIT_TAG 0x54494E55UL /* "UNIT" */
#define SPRS_TAG 0x53525053UL /* "SPRS": a unit record listing only its nonzero counters */
#define SPRS_FIXED 48
#define SPRS_MAX_COUNTERS (1ULL << 24) /* bounds the dense copy a reader makes of one */
#define KSLB_TAG 0x424C534BUL /* "KSLB" */
#define KSLB_FIXED 40
#define KMAX 64
#define END_TAG 0x00444E45UL  /* "END\0" */
#define OSPH_TAG 0x4850534FUL /* "OSPH" */
#define TEST_TAG 0x54534554UL /* "TEST" */
#define TEST_FIXED 16         /* tag, name length, unit count */
#define TEST_NAME_MAX 255
#define PART_TAG 0x54524150UL /* "PART" */
#define PART_FIXED 24         /* tag, version, nentries, dropped */
#define PART_ENTRY 40
#define OSPH_FIXED 80         /* tag to resamples */
#define FNV_BASIS 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
#define HEADER_LEN 16
#define UNIT_FIXED 40
#define TRAILER_LEN 16
#define MAX_COUNT 0xffffffffffffffffULL
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* The format's little-endian numbers and checksum, for the readers (read.c, layout.c). */
/* FNV-1a 64 of n bytes, continuing from h. */
static inline unsigned long long fnv(unsigned long long h, const unsigned char *p, size_t n)
{
  while (n--)
    h = (h ^ *p++) * FNV_PRIME;
  return h;
}

/* Little-endian u64 at p. */
static inline unsigned long long get_u64(const unsigned char *p)
{
  return (unsigned long long)p[0] | (unsigned long long)p[1] << 8 | (unsigned long long)p[2] << 16 |
         (unsigned long long)p[3] << 24 | (unsigned long long)p[4] << 32 | (unsigned long long)p[5] << 40 |
         (unsigned long long)p[6] << 48 | (unsigned long long)p[7] << 56;
}

/* Little-endian u32 at p. */
static inline unsigned long get_u32(const unsigned char *p)
{
  return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
         (unsigned long)p[3] << 24;
}

/* Whether a unit of ncounters counters, k of them nonzero, is shorter sparse (k index-count
   pairs) than dense, on disk (SPRS against UNIT) as in memory. */
static inline int ppf_shorter_sparse(unsigned long long ncounters, unsigned long long k)
{
  return ncounters <= SPRS_MAX_COUNTERS && 2 * k + 1 < ncounters;
}

/* Adds src's array counters into dst's (same ncounters; either may be sparse: the sum is dense
   when either is, else sparse while shorter). 0, or -1 when out of memory, dst unchanged. */
int ppf_add_counters(struct pp_unitrec *dst, const struct pp_unitrec *src);

/* A growing list of forests. */
struct forests {
  struct pp_forest *v;
  size_t n, cap;
};

/* Formats an error message into err (if there is room for one); returns -1. */
int ppf_fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* malloc for n elements of size sz, failing cleanly on overflow; never returns 0 for n == 0. */
void *ppf_alloc_array(unsigned long long n, size_t sz);
/* Sorts the siblings of f's valid preorder by label. Returns 0, 1 when two siblings share a
   label (*dup gets the node's index), or -1 when out of memory. */
int ppf_canon_forest(struct pp_forest *f, size_t *dup);
/* Makes a unit's hash canonical in place: sorted, each (fn, id) once, no zero counts. */
void ppf_canon_hash(struct pp_unitrec *u);
/* Whether p is canonical as it is (a quick look: no forests, no OSPH record). */
int ppf_canonical(const struct pp_profile *p);
/* Partial paths read so far (PART records), each with its unit's checksum and byte offset. */
struct parts {
  struct pentry {
    unsigned long long checksum;
    struct pp_part p;
    size_t at;
  } *v;
  size_t n, cap;
  unsigned long long dropped;
};
/* Hands the partial paths to their units in canonical out (each must name one; fname names the
   input in messages) and frees l; 0 or -1 with err set. */
int ppf_attach_parts(struct parts *l, struct pp_profile *out, const char *fname, char *err, size_t errlen);
/* The same for its partial paths: sorted by (fn, site, r), equal ones added, zeros dropped. */
void ppf_canon_part(struct pp_unitrec *u);
/* a + b for signed counts, stuck at the ends instead of wrapping. */
long long ppf_sadd(long long a, long long b);
/* Canonical *out holding the counts of a plus those of b (b may be 0); a and b are untouched. */
int ppf_copy_all(const struct pp_profile *a, const struct pp_profile *b, struct pp_profile *out,
                    char *err, size_t errlen);
/* Index of the unit with this checksum in canonical p, or where it would be inserted. */
size_t ppf_find_unit(const struct pp_profile *p, unsigned long long checksum, int *found);
/* Turns n owned records with canonical hashes into canonical *out: sorts them by checksum and
   adds up records with equal checksums (O(n log n)). Consumes recs, also on error. */
int ppf_fold(struct pp_unitrec *recs, size_t n, struct pp_profile *out, char *err,
                size_t errlen);
/* Sorts n owned canonical forests and joins those of one function; consumes v, also on error. */
int ppf_fold_forests(struct pp_forest *v, size_t n, struct pp_profile *out, char *err,
                        size_t errlen);
/* Frees n owned forests and their array. */
void ppf_free_forests(struct pp_forest *v, size_t n);
/* Frees an OSPH record. */
void ppf_free_osph(struct pp_osph *o);
/* Unit records a reader has parsed so far, in file order. The totals' list also has an index
   by checksum (idx: positions + 1 in a table of icap slots, nidx used), so that a sparse record
   of a unit already there is added into it, and the checksums of the current stream's records
   in order (sums, nsums of scap: what an OSPH record's unit numbers mean). */
struct ppf_recs {
  struct pp_unitrec *v;
  size_t n, cap;
  size_t *idx, icap, nidx;
  unsigned long long *sums;
  size_t nsums, scap;
};
/* Adds all of canonical src but its counters into canonical dst of the same checksum (sizes
   checked, hashes joined, dropped added, the smaller name kept); dst unchanged on error. */
int ppf_merge_rest(struct pp_unitrec *dst, const struct pp_unitrec *src, char *err, size_t errlen);
/* Adds count v into *c, saturating at 2^64-1. */
void ppf_add_count(unsigned long long *c, unsigned long long v);

/* Tests a reader has parsed so far (TEST records, version 2): each one's name and unit
   records. */
struct ppf_testrec {
  char *name;
  struct ppf_recs recs;
};
struct ppf_testlist {
  struct ppf_testrec *v;
  size_t n, cap;
};

/* Folds each test's records as a profile's, then the tests by name, into out's tests;
   consumes tl (tests.c). */
int ppf_fold_testlist(struct ppf_testlist *tl, struct pp_profile *out, char *msg, size_t msglen);

/* A copy of src (name, counters, hash); 0 or -1 (no memory, dst empty). */
int ppf_copy_unit(struct pp_unitrec *dst, const struct pp_unitrec *src);
/* Frees n owned tests and their array. */
void ppf_free_tests(struct pp_test *t, size_t n);
/* Copies the tests of a and b (b may be 0) into out, those of one name added up. */
int ppf_copy_tests(const struct pp_profile *a, const struct pp_profile *b, struct pp_profile *out,
                   char *err, size_t errlen);
/* Turns n owned tests, each with canonical units, into out's sorted list, those of one name added
   up; consumes v, also on error. */
int ppf_fold_tests(struct pp_test *v, size_t n, struct pp_profile *out, char *err, size_t errlen);
/* Checks that every test's units are units of p with the same number of counters. */
int ppf_check_tests(const struct pp_profile *p, char *err, size_t errlen);
/* Frees what one unit record owns. */
void ppf_free_unit(struct pp_unitrec *u);
/* Frees n owned records and their array. */
void ppf_free_units(struct pp_unitrec *recs, size_t n);
/* Appends an owned forest (consumed, also on error); 0 or -1 (no memory). */
int ppf_push_forest(struct forests *l, struct pp_forest *f);
/* Room for one more element of size sz in the array *v of *cap (n in use), doubling it;
   0 or -1 (no memory, *v unchanged). */
int ppf_reserve(void **v, size_t *cap, size_t n, size_t sz);

#endif
