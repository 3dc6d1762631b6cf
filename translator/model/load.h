/* Profile + tables -> decoded path counts: the model pathprof's commands and pathcc's --interesting share. */
#ifndef PP_LOAD_H
#define PP_LOAD_H
#include "tables.h"
#include "profile/profile.h"
#include <sys/stat.h>

typedef struct { uint64_t id, count; } PPPathCount;

/* One unit of a profile with the tables it was built with. */
typedef struct {
  const struct pp_unitrec *rec;
  PPTables tab;
  char *tables_path;
  const struct pp_profile *prof;   /* the whole profile: kpath functions' forests */
  bool unrun;                      /* built but never run: found by pp_load_unrun, rec all zeros (owned) */
} PPLoadedUnit;

typedef struct {
  struct pp_profile prof;
  VEC(PPLoadedUnit) units;   /* units whose tables were found and match */
  int missing;               /* units reported as having no usable tables */
} PPLoaded;

/* Reads a profile and finds each unit's tables (its recorded path, then $PATHPROF_DB, then
   the working directory tree). Errors go to stderr, one line each; returns -1 if the profile
   itself is unusable. */
int pp_load(const char *profile, PPLoaded *l);
/* The same with only test's counts (a test name the profile has), when test is not NULL. */
int pp_load_test(const char *profile, const char *test, PPLoaded *l);
/* translator/model/unrun.c: adds the units built but never run, all counts 0: tables beside
   those of the units that ran, under $PATHPROF_DB and under root (NULL: the working directory
   tree), whose checksum is not in the profile and whose source file no unit of the profile was
   built from (the newest tables of each such source). Returns how many joined. */
int pp_load_unrun(PPLoaded *l, const char *root);
void pp_loaded_free(PPLoaded *l);

/* Called for each tables file a walk finds, with its checksum; true stops the walk. */
typedef bool (*PPTablesVisit)(const char *path, const struct stat *st, uint64_t checksum, void *arg);
/* Visits the *.pp.json under dir, depth directory levels down, hidden and build-system scratch
   directories left out; returns true when a visit stopped it. Units that ran and units that
   never did are both found through it. */
bool pp_tables_walk(const char *dir, int depth, PPTablesVisit visit, void *arg);
/* The file a unit's tables name, as one spelling: relative to the compiler's directory, the
   real path when the file is there, else with "." and ".." taken out. Files (and units'
   sources) are the same when their keys are. */
char *pp_file_key(const PPTables *t, const char *name);

/* The executed paths of function fn of a unit (count > 0), hottest first; *overflow gets the
   count of path ends with an out-of-range register. For a kpath function these are level 1 of
   its k-IPF: the sums of its k-slab forest's counters by id. */
PPPathCount *pp_function_paths(const PPLoadedUnit *u, int fn, size_t *n, uint64_t *overflow);

/* A partial path: an activation that stopped at one of the function's sites (a call, or site 0
   before any call) and never finished: the prefix of path id up to the site's block. A negative
   count takes back prefixes an earlier write counted (doc/formats.md section 2, "PART"). */
typedef struct {
  uint64_t site;
  uint64_t id;               /* the path that continues the prefix along 0-valued edges */
  int64_t count;
} PPPartial;

/* What a register means at each block of f's DAG (the sum of value less increment on any path
   to it), for pp_partial_prefix and pp_partial_decode: computed once per function, not once per
   partial path. NULL when f has no DAG to walk; the caller frees it. */
uint64_t *pp_partial_offsets(const PPTabFunc *f);
/* The prefix of a partial path (site, register r) of function f, with d its offsets: its DAG
   edges into edges[] (capacity cap; the first a dummy-entry edge when it starts at a loop
   header), their number, and *id. Returns -1 when the site or r names no prefix (tables without
   sites, a damaged profile). Edge mode has no register: use pp_partial_block. */
int pp_partial_prefix(const PPTabFunc *f, const uint64_t *d, uint64_t site, uint64_t r, int *edges, int cap, uint64_t *id);
/* Partial path p of unit u's record decoded for its function f (d: pp_partial_offsets(f)): in
   path modes its prefix's DAG edges into es (room for f's edges + 1) and *id, returning their
   number; edge mode has no register and returns the block it stopped in (*id 0). -1: p names
   no prefix. */
int pp_partial_decode(const PPLoadedUnit *u, const PPTabFunc *f, const uint64_t *d, const struct pp_part *p, int *es,
                      uint64_t *id);
/* The DAG edges of partial path p's prefix (p->id cut at its site's block) into edges[]; their
   number, or -1. */
int pp_partial_edges(const PPTabFunc *f, const PPPartial *p, int *edges, int cap);
/* "[loop] 4-5 7 9 | stopped at line 9" for a partial path (pp_path_lines' form for its prefix). */
char *pp_partial_lines(const PPTables *t, const PPTabFunc *f, const PPPartial *p);
/* The block site stops in, or -1. */
int pp_partial_block(const PPTabFunc *f, uint64_t site);

/* One function of the program: the same function compiled into several units (a static inline
   function of a header) is one view with the counts of all its copies added. */
typedef struct {
  const PPLoadedUnit *u;     /* the unit whose tables describe it */
  int fn;
  PPPathCount *paths;        /* executed paths, hottest first */
  size_t n;
  uint64_t total, overflow;  /* path executions; path ends with an out-of-range register */
  int copies;                /* units it was compiled into */
  uint64_t *edges;           /* edge mode: per edge of the tables' graph, then the calls (NULL in path mode) */
  bool unbalanced;           /* edge mode: the counters did not satisfy flow conservation */
  PPPartial *parts;          /* partial paths (path modes; edge mode: id 0), by site and id */
  size_t nparts;
  uint64_t bad_parts;        /* partial paths whose site or register named no prefix */
} PPFuncView;

PPFuncView *pp_program_functions(const PPLoaded *l, size_t *n);
void pp_program_free(PPFuncView *v, size_t n);

/* A path as the blocks it runs through; *from_loop: it starts at a loop header (after a back or
   cut edge), *to_loop: it ends by taking one. Returns the number of blocks or -1. */
int pp_path_blocks(const PPGraph *g, uint64_t id, int *blocks, int cap, bool *from_loop, bool *to_loop);
/* "a.c:4-5 7 9" for a path; lines of blocks in other files carry their file name. */
char *pp_path_lines(const PPTables *t, const PPTabFunc *f, uint64_t id);
/* Appends the source lines of blocks[0..nb) of f to s; a line of another file than *last_file
   carries the file's name, and *last_file follows. */
void pp_blocks_lines(PPStr *s, const PPTables *t, const PPTabFunc *f, const int *blocks, int nb, int *last_file);
#endif
