/* Coverage derived exactly from path counts: calls, block, edge, branch, line and path coverage
   per function, and line counts per source file that follow gcov's (GCC 12) rules. */
#ifndef PP_COVERAGE_H
#define PP_COVERAGE_H
#include "model/load.h"

/* One function of the program (a PPFuncView) with its derived counts. */
typedef struct {
  const PPFuncView *view;
  const PPTables *t;
  const PPTabFunc *f;
  int file;                 /* index into PPCoverage.files */
  unsigned name_line;       /* line of the function's name (gcov counts calls there) */
  uint64_t calls;           /* activations: executed paths that start at the entry */
  uint64_t *blocks;         /* per block of f->g: number of executions */
  uint64_t *edges;          /* per edge of f->g: traversals (normal, exit, back, cut); a dummy-entry
                               edge counts the paths starting at its header, a dummy-exit edge the
                               paths ending at its latch */
  uint64_t bad_ids;         /* path ends with an id that decodes to no path (damaged profile) */
  int64_t unfinished;       /* activations that never finished (partial paths, net of those taken back) */
  bool ambiguous;           /* back/cut edge counts that the dummy counts do not determine */
  uint64_t paths_executed;  /* distinct executed paths */
  uint64_t path_runs;       /* path executions */
  unsigned blocks_total, blocks_hit;     /* live blocks other than the exit */
  unsigned edges_total, edges_hit;       /* live CFG edges (normal, exit, back, cut) */
  unsigned branches_total, branches_hit; /* outcomes of decisions (blocks with 2+ out-edges) */
  unsigned lines_total, lines_hit;       /* source lines with code in this function */
  /* exclusion markers (LCOV_EXCL_*, GCOVR_EXCL_*; exclude.c): what they took out of the
     totals above, counted apart */
  bool excluded;                         /* the function's name line is excluded */
  unsigned lines_excl, branches_excl;
  uint64_t paths_excl, paths_excl_hit;   /* static paths through excluded code; of them executed */
} PPCovFunc;

typedef struct {
  uint64_t count;
  bool exists;              /* the line has code */
  bool unexecuted_block;    /* some block with code on this line never ran (gcov's '*') */
  bool excluded;            /* an exclusion marker takes it out of the totals (its branches too) */
  bool br_excluded;         /* a branch exclusion marker takes its branches out */
  bool uninstrumented;      /* code of a function pathcc could not instrument: no count, in no
                               total (lines_uninst counts it apart) */
} PPCovLine;

/* A function pathcc left uninstrumented (uninst.c), once however many units hold it. */
typedef struct {
  const char *name, *why;
  int file;                 /* index into PPCoverage.files */
  unsigned line, end_line;
  unsigned lines;           /* its lines marked uninstrumented */
} PPCovUninst;

/* One outcome of a decision: an out-edge of a block with two or more live out-edges. */
typedef struct {
  int func, block, edge, arm;   /* arm: position among the block's outcomes */
  unsigned line;
  uint64_t count;
  bool reached;                 /* the decision itself ran */
  bool excluded;                /* its line is excluded, or its branches are */
} PPCovBranch;

typedef struct {
  char *name;               /* as the tables name it */
  char *path;               /* the file found on disk (absolute), or NULL */
  char *text;               /* its contents, or NULL */
  char **src;               /* src[1..nsrc]: its lines, NUL-terminated (pointers into text) */
  unsigned nsrc;
  PPCovLine *lines;         /* lines[1..nlines] */
  unsigned nlines;
  VEC(int) funcs;           /* functions defined in this file, by first line */
  VEC(PPCovBranch) branches;/* by line */
} PPCovFile;

typedef struct {
  PPLoaded *loaded;
  PPFuncView *views;
  size_t nviews;
  VEC(PPCovFunc) funcs;
  VEC(PPCovFile) files;     /* sorted by name */
  bool gcov_nocode;         /* lines whose statements all compile to nothing have no count (gcov's way) */
  struct cov_memo *memo;    /* files already found, by the tables' name for them (source.c) */
  const struct PPMcdc *mcdc;/* MC/DC of the decisions (a --decisions=conditions build), set by the
                               coverage command; the formats with a place for it write it; or NULL */
  const struct PPPrimes *primes; /* --prime-paths: the HTML function pages show them; or NULL */
  VEC(PPCovUninst) uninst;  /* functions pathcc could not instrument, by file and line */
} PPCoverage;

/* Totals of a file or the program: hit / total of each kind (paths: path-mode functions only),
   excluded ones left out and counted apart. */
typedef struct {
  uint64_t lines, lines_hit, funcs, funcs_hit, blocks, blocks_hit, edges, edges_hit, br, br_hit, paths, paths_hit;
  uint64_t lines_excl, funcs_excl, br_excl, paths_excl;  /* funcs_excl: those whose name line is
                                                           excluded (still in funcs, as gcovr counts) */
  uint64_t lines_uninst, funcs_uninst;  /* in functions pathcc could not instrument: in no total */
} PPCovSum;

/* Adds file f's totals to s. */
void pp_coverage_sum_file(const PPCoverage *c, const PPCovFile *f, PPCovSum *s);
void pp_coverage_sum_add(PPCovSum *a, const PPCovSum *b);

/* Derives everything from a loaded profile; l must outlive c. A statement that compiles to nothing
   (an assert under NDEBUG, (void)x, a constant condition) counts on its line as clang counts it;
   with gcov_nocode its line has no count, as in gcov. */
void pp_coverage_build(PPLoaded *l, PPCoverage *c, bool gcov_nocode);
void pp_coverage_free(PPCoverage *c);

/* The index of the file with this name (as the tables give it, or its path), or -1. */
int pp_coverage_file_of(const PPCoverage *c, const char *name);

/* exclude.c: applies the exclusion markers of the sources (LCOV_EXCL_LINE, _START, _STOP,
   LCOV_EXCL_BR_LINE, _BR_START, _BR_STOP and the same with GCOVR_) to the coverage built. */
void pp_coverage_exclude(PPCoverage *c);

/* Does line ln of f count in the totals: it has code and no marker excludes it? One rule for
   the plain report and --diff, so the two agree. */
static inline bool pp_line_counted(const PPCovFile *f, unsigned ln) { return f->lines[ln].exists && !f->lines[ln].excluded; }

/* exclude.c: the blocks of fn the markers take out (every line with code excluded), a mask of
   g.blocks.n + 1 the caller frees; the paths through them leave the path totals. */
char *pp_coverage_excluded_blocks(const PPCoverage *c, const PPCovFunc *fn);
/* Per block of g, the paths from it to the exit that run no block marked in mark (counted on
   the DAG); a marked entry block is not run by the paths that start at a loop head. One count
   for the plain report's excluded paths and --diff's paths through a change. Caller frees. */
uint64_t *pp_paths_avoiding(const PPGraph *g, const char *mark);
/* Does path id run a block marked in mark (the entry by the same rule as pp_paths_avoiding)? */
bool pp_path_runs_marked(const PPGraph *g, uint64_t id, const char *mark);

/* The name a report gives file f: the file found on disk, else the tables' name. */
const char *pp_coverage_file_name(const PPCovFile *f);
#endif
