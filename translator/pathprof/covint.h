/* covint.h: what the coverage model's files share (coverage.c, source.c, gcovlines.c): line
   references, the function graphs shaped as GCC shapes them, and the helpers between them.
   Internal to pathprof's coverage model. */
#ifndef PP_COVINT_H
#define PP_COVINT_H
#include "coverage.h"

typedef struct { int file; unsigned line; } LRef;
typedef VEC(LRef) LRefs;

typedef struct { int src, dst; uint64_t count; bool from_cond, back; } VArc;

typedef struct {
  LRefs lines;
  uint64_t count;
  bool alive;
  bool user_label;   /* starts with a label of the user's (not case/default) */
  int label;         /* 0 none, 1 case/default, 2 user label */
  size_t label_lines;/* leading lines that are labels' */
  bool has_user;     /* a user label's line is among them */
  bool last_user;    /* the last of them is a user label (the next label starts a block) */
} VBlock;

typedef struct {
  VEC(VBlock) b;     /* index = CFG block; then the virtual entry, then split blocks */
  VEC(VArc) a;
  int ventry;
  int base;          /* global id of block 0 (gcov compares blocks by their order) */
} VGraph;

/* source.c */
/* Is s nothing but white space? */
bool cov_blank(const char *s);
/* Text of line ln with comments and string contents blanked (state carried across lines for
   block comments is approximated: a line inside a comment that started earlier is not seen). */
char *cov_code_of(const PPCovFile *f, unsigned ln);
/* The index of the file the tables call name (found beside tables_path), added on first use;
   remembered by the two pointers, which the tables keep while c lives. */
int cov_file_index(PPCoverage *c, const char *name, const char *tables_path);
void cov_memo_free(struct cov_memo *m);
/* Makes f's line table reach line. */
void cov_grow_lines(PPCovFile *f, unsigned line);
/* Does the line call a function (a name followed by '(' that is no keyword)? */
bool cov_has_call(const PPCovFile *f, unsigned ln);
/* Does line ln hold code: some statement starting on it that is not an inert declaration? */
bool cov_line_has_code(const PPCovFile *f, unsigned ln);
/* Appends (file, line) to v unless it is there already. */
void cov_push_line(LRefs *v, int file, unsigned line);
/* Does a statement start on line ln (inside a range that started earlier)? It does when the
   previous line with code ends a statement, a block or a label. */
bool cov_starts_statement(const PPCovFile *f, unsigned first, unsigned ln);
/* Is the word w[0..n) the keyword kw? */
bool cov_word_is(const char *w, size_t n, const char *kw);
/* Is e an edge of the CFG (normal, exit, back, cut), not a dummy of the DAG? */

/* coverage.c */
bool cov_cfg_edge(const PPEdge *e);
/* Does e leave a block that cannot run? */
bool cov_edge_dead(const PPGraph *g, const PPEdge *e);
/* The function's blocks as GCC -O0 shapes them, with their lines and exact arc counts. */

/* gcovlines.c */
void cov_build_vgraph(PPCoverage *cov, PPCovFunc *c, VGraph *v);
/* Blocks without code disappear into their neighbours (GCC removes forwarder blocks). */
void cov_contract(VGraph *v);
/* Every file's line counts by gcov's rules, from all functions' shaped graphs vgs. */
void cov_line_counts(PPCoverage *cov, VGraph *vgs);
/* The line of the function's name: as the tables record it, else found at or after its first line
   (the return type may come first). */
unsigned cov_name_line(const PPCovFile *src, const PPTabFunc *f);

#endif
