/* profile.h: the in-memory profile model (hosted): parse, validate, merge, write and save profiles. */
#ifndef PATHPROF_PROFILE_H
#define PATHPROF_PROFILE_H
#include <stddef.h>
#include "pathprof.h"

/* One hash-mode path count: function index, Ball-Larus path id, count. */
struct pp_hent {
  unsigned long long fn, id, count;
};

/* One unit record of a profile (doc/formats.md section 2). */
struct pp_unitrec {
  unsigned long long checksum;
  char *name;                       /* tables path, NUL-terminated, never 0 */
  unsigned long long ncounters, *counters;
  unsigned long long nhash;
  struct pp_hent *hash;
  unsigned long long dropped;
};

/* A whole profile. Profiles made by pp_profile_parse, pp_profile_read, pp_profile_merge and
   pp_profile_add_unit are canonical: units sorted by checksum with no checksum twice, hash entries
   sorted by (fn, id) with no pair twice and every count > 0. An all-zero struct is empty. */
struct pp_profile {
  size_t nunits;
  struct pp_unitrec *units;
};

/* Parses and strictly validates the profile in buf; fname only names the input in messages.
   Returns 0, or -1 with err like "pathprof.out: truncated unit record at byte 120" and *out empty.
   Records with the same checksum are merged; hash entries with count 0 are dropped. */
int pp_profile_parse(const unsigned char *buf, size_t len, const char *fname,
                     struct pp_profile *out, char *err, size_t errlen);

/* Reads fd from its offset to the end and parses it; fname names it in messages. */
int pp_profile_read_fd(int fd, const char *fname, struct pp_profile *out, char *err,
                       size_t errlen);

/* Reads and parses the file at path. Returns 0, or -1 with err naming the file. */
int pp_profile_read(const char *path, struct pp_profile *out, char *err, size_t errlen);

/* Adds the counts of from into into (units matched by checksum, counts saturate at 2^64-1);
   neither needs to be canonical, the result is. A unit with the same checksum but another
   ncounters is an error; into is then unchanged. */
int pp_profile_merge(struct pp_profile *into, const struct pp_profile *from, char *err,
                     size_t errlen);

/* Adds a copy of one unit's counts to canonical p (empty, or made by the functions here), as a
   merge would; u's hash need not be sorted or unique. Returns 0, or -1 (ncounters mismatch, no
   memory) with p unchanged. For many units, pp_profile_merge of a whole profile is faster. */
int pp_profile_add_unit(struct pp_profile *p, const struct pp_unitrec *u, char *err,
                        size_t errlen);

/* Streams p in the profile format through fn (chunks of at most 256 bytes): units by checksum,
   hash entries by (fn, id). p need not be canonical. Returns 0, or -1 if fn failed or no memory. */
int pp_profile_write(const struct pp_profile *p, pathprof_write_fn fn, void *ctx);

/* Writes p to path safely: to "<path>.tmp.<pid>", fsync, rename over path. On error the
   temporary is removed, the old file stays, and err says "<path>: <problem>". Returns 0 or -1. */
int pp_profile_save(const struct pp_profile *p, const char *path, char *err, size_t errlen);

/* Frees everything p owns and leaves it empty. */
void pp_profile_free(struct pp_profile *p);

#endif
