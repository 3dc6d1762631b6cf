/* The per-unit tables (JSON, Jansson): what the rewriter did, in the form the reporter decodes. */
#ifndef PP_TABLES_H
#define PP_TABLES_H
#include "graph.h"
#include "ppp.h"

/* Where an activation may stop (a call site, or site 0: before any call): the block it runs
   in, and the last line of that block a stop there has run (0: the whole block); builtin_setjmp:
   the site is a __builtin_setjmp (its path is taken back before its block, doc/formats.md). */
typedef struct { int block, file; unsigned line; bool builtin_setjmp; } PPStop;

/* Edge mode without frames: a group of calls of one block that an activation may stop in,
   named by the stop site of its first call (its block: stops[site].block). The block's flow
   passes one sub-vertex per group, in order: a stop in the group leaves that sub-vertex for the
   exit (an edge no code counts; conservation solves it, as GCC's fake edges), and the group's
   return goes on to the next sub-vertex through the edge counted in slot (-1: a spanning-tree
   edge), or, for a group the block's out-edges follow at once (PP_SPLIT_LAST), none: they leave
   from the same sub-vertex. */
typedef struct { int site, slot; } PPSplit;
#define PP_SPLIT_LAST (-2)

/* A call of a derived function (counter "derived"): it runs in block `block` of function fn of
   the same unit, once each time a path of fn passes that block; a partial path of fn that
   stopped in that block at one of the stop sites after[] (calls that end after it) ran it too. */
typedef struct { int fn, block; VEC(int) after; } PPDerivedCall;
typedef struct {
  char *name;
  int file;
  unsigned line, end_line;
  unsigned name_line;   /* the line of the function's name (0: tables from before it was recorded) */
  uint64_t src_hash;    /* hash of the function's preprocessed text (0: not recorded) */
  PPGraph g;            /* numbered and placed DAG */
  bool hash;            /* counts in the hash table instead of an array */
  bool kpath;           /* ids go to the k-slab forest (KSLB record) instead of counters */
  uint64_t offset;      /* array mode: first counter slot */
  bool wide;            /* register type is unsigned long long */
  int probes;           /* sites that execute probe code */
  int cfg_edges;        /* live CFG edges (back and cut included) */
  int counters;         /* edge mode: counter slots from offset (chords, the entry one included) */
  int entry_slot;       /* edge mode: slot counting entries (virtual exit->entry chord), or -1 */
  bool ppp;             /* ppp mode: num holds the function's interesting set (maybe empty) */
  PPPNumbering num;     /* interesting Ball-Larus ids, their PPP ids, the edges' PPP weights */
  bool ppp_array;       /* interesting paths count in num.slots counters from offset */
  int ppp_bits;         /* the register's low field: Ball-Larus id; above it the PPP id */
  VEC(PPStop) stops;    /* by site: the frames' call sites (tables without them: none) */
  VEC(PPSplit) splits;  /* edge mode: the stop groups its counters solve, by block and order */
  bool derived;         /* path mode: one path, no counter; its count is its calls' (from) */
  VEC(PPDerivedCall) from;
} PPTabFunc;


/* A function pathcc left uninstrumented: where (its first and last line; end_line 0 in tables
   written before it was recorded) and why. */
typedef struct { char *name; int file; unsigned line; char *why; bool quiet; unsigned end_line; } PPTabSkip;

typedef struct {
  uint64_t checksum;
  char *source, *mode;
  char *cwd;            /* the compiler's working directory (relative file names start there), or NULL */
  unsigned k;           /* kpath mode: BL paths per k-iteration path; else 0 */
  bool conditions;      /* &&, || and ?: were decisions of their own */
  bool continuous;      /* built with --continuous (relocatable counters) */
  const char *update;   /* the counter update policy ("single", "atomic", "prefer-atomic"); NULL: single */
  uint64_t array_limit;
  unsigned long hash_cap;
  unsigned counter_bits; /* 64, or 32: array counts of 2^32-1 are lower bounds */
  uint64_t ncounters;
  VEC(char *) files;
  VEC(PPTabFunc) funcs;
  VEC(PPTabSkip) skipped;
} PPTables;

/* Edge-mode tables: counters on spanning-tree chords instead of path counts. */
bool pp_tables_edge_mode(const PPTables *t);
int pp_tables_write(const PPTables *t, const char *path, char **err);
/* Reads and checks a tables file: the graphs are renumbered with the rewriter's own code and
   must give the stored values, so a damaged or foreign file is refused. */
int pp_tables_read(const char *path, PPTables *t, char **err);
/* The same for tables text already in memory (len bytes at buf); name names it in messages. */
int pp_tables_parse(const char *buf, size_t len, const char *name, PPTables *t, char **err);
void pp_tables_free(PPTables *t);
#endif
