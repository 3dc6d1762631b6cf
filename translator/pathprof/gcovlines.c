/* gcovlines.c: line counts by gcov's (GCC 12) rules, from the exact block and arc counts.

   Lines. gcov (GCC 12) gives each basic block the lines of its statements in order, once each,
   and attaches the block to its last line. A line with blocks attached counts the arcs entering
   those blocks from other blocks, plus the executions of the cycles running entirely inside
   them (loops on one line); a line with none counts the executions of the blocks mentioning it.
   The same is done here on the function's CFG with exact arc counts, after shaping the blocks the
   way GCC -O0 shapes them: the function's name line opens the first block, blocks without code
   are merged into their neighbours, and the closing
   brace is the implicit return of a function that falls off its end when it has no return
   statement or returns a value. Statement lines come from the blocks' line ranges and the
   source text: a range's first line and every later line that starts a statement, except
   declarations that execute nothing.

   Where GCC's lowering gives a line a count that is not what ran there, the line keeps what
   ran (doc/coverage.md, "Line counts"): a user label counts every entry into it
   (GCC gives a conditional jump to a label a block of its own holding the label's line, so gcov
   counts only those jumps there), a loop head without a condition counts the loop's rounds (a
   for (;;) alone on its line its entries, the '{' below it the rounds, as clang), a case label in
   front of a do-while the times control reaches it (GCC's block holds the loop's top too; both
   as gcov with --no-code=gcov), and the function's line counts its calls (GCC's first block also holds the top of a loop or a label
   the body begins with, so gcov counts their rounds there). */
#include "covint.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- blocks as GCC shapes them ---- */


static bool is_case_label(const char *l) { return l && (!strncmp(l, "case", 4) || !strcmp(l, "default")); }

/* The line of the function's name: as the tables record it, else found at or after its first line
   (the return type may come first). */
unsigned cov_name_line(const PPCovFile *src, const PPTabFunc *f) {
  if (f->name_line >= f->line && f->name_line <= f->end_line) return f->name_line;  /* recorded by pathcc */
  size_t n = strlen(f->name);
  for (unsigned ln = f->line; src->src && ln <= f->end_line && ln <= src->nsrc && ln < f->line + 20; ln++) {
    char *t = cov_code_of(src, ln);
    for (char *p = t; p && (p = strstr(p, f->name)); p += n) {
      bool before = p == t || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
      char *q = p + n;
      while (isspace((unsigned char)*q)) q++;
      if (before && (*q == '(' || (!*q && !(isalnum((unsigned char)p[n]) || p[n] == '_')))) { free(t); return ln; }
    }
    free(t);
  }
  return f->line;
}

/* Does the function return a value (GCC then adds a return at '}' when it can fall off)? */
static bool returns_value(const PPCovFile *src, const PPTabFunc *f, unsigned nl) {
  PPStr s = {0};
  for (unsigned ln = f->line; src->src && ln <= nl && ln <= src->nsrc; ln++) {
    char *t = cov_code_of(src, ln);
    char *cut = ln == nl ? strstr(t, f->name) : NULL;
    if (cut) *cut = 0;
    pp_str_add(&s, t);
    pp_str_add(&s, " ");
    free(t);
  }
  bool value = true;
  if (s.s) {
    char *v = strstr(s.s, "void");
    if (v && (v == s.s || !(isalnum((unsigned char)v[-1]) || v[-1] == '_')) && !(isalnum((unsigned char)v[4]) || v[4] == '_') &&
        !strchr(v, '*'))
      value = false;
  }
  free(s.s);
  return value;
}

/* Is line ln of range r, a statement of block self, inside a part of it that another block holds
   (a ?: arm, an operand on a line of its own)? That block counts the line, not the statement's. */
static bool held_elsewhere(const PPGraph *g, int self, const PPLines *r, unsigned ln) {
  const PPBlock *own = &g->blocks.v[self];
  for (size_t k = 0; k < own->stmts.n; k++) {
    const PPStmt *t = &own->stmts.v[k];  /* a statement of this block that goes on over line ln */
    if (t->file != r->file || t->first >= ln || t->last < ln) continue;
    for (size_t b = 0; b < g->blocks.n; b++) {
      if ((int)b == self) continue;
      for (size_t i = 0; i < g->blocks.v[b].stmts.n; i++) {
        const PPStmt *s = &g->blocks.v[b].stmts.v[i];
        if (s->file == t->file && s->first <= ln && ln <= s->last && s->first >= t->first && s->last <= t->last &&
            (s->first > t->first || s->last < t->last))
          return true;
      }
    }
  }
  return false;
}

/* The code lines of block bi's line ranges. */
static void block_lines(PPCoverage *cov, const PPCovFunc *c, int bi, LRefs *out) {
  const PPBlock *b = &c->f->g.blocks.v[bi];
  for (size_t i = 0; i < b->lines.n; i++) {
    const PPLines *r = &b->lines.v[i];
    int fi = cov_file_index(cov, c->t->files.v[r->file], c->view->u->tables_path);
    const PPCovFile *f = &cov->files.v[fi];
    for (unsigned ln = r->first; ln <= r->last; ln++) {
      if (!f->src) { cov_push_line(out, fi, ln); continue; }
      if (ln != r->first && held_elsewhere(&c->f->g, bi, r, ln)) continue;
      if (ln != r->first && !cov_starts_statement(f, r->first, ln)) {
        if (cov_has_call(f, ln)) cov_push_line(out, fi, ln);  /* GCC places a call on its own line */
        continue;
      }
      if (cov_line_has_code(f, ln)) cov_push_line(out, fi, ln);
    }
  }
}

/* --no-code=gcov: the lines of f where statements start and every one of them compiles to
   nothing lose their count. */
static void drop_nocode_lines(PPCoverage *cov, const PPCovFunc *c, VGraph *v) {
  const PPGraph *g = &c->f->g;
  LRefs code = {0}, none = {0};
  for (size_t b = 0; b < g->blocks.n; b++)
    for (size_t i = 0; i < g->blocks.v[b].stmts.n; i++) {
      const PPStmt *s = &g->blocks.v[b].stmts.v[i];
      int fi = cov_file_index(cov, c->t->files.v[s->file], c->view->u->tables_path);
      cov_push_line(s->nocode ? &none : &code, fi, s->first);
    }
  for (size_t b = 0; b < v->b.n; b++) {
    LRefs *l = &v->b.v[b].lines;
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
      bool drop = false;
      for (size_t j = 0; j < none.n && !drop; j++) drop = none.v[j].file == l->v[i].file && none.v[j].line == l->v[i].line;
      for (size_t j = 0; j < code.n && drop; j++) drop = !(code.v[j].file == l->v[i].file && code.v[j].line == l->v[i].line);
      if (!drop) l->v[k++] = l->v[i];
    }
    l->n = k;
  }
  VEC_FREE(code);
  VEC_FREE(none);
}

/* Is the statement ending block b a return? (Its last code line starts with "return".) */
static bool ends_in_return(PPCoverage *cov, const PPCovFunc *c, const PPBlock *b) {
  if (!b->lines.n) return false;
  const PPLines *r = &b->lines.v[b->lines.n - 1];
  int fi = cov_file_index(cov, c->t->files.v[r->file], c->view->u->tables_path);
  for (unsigned ln = r->last; ln >= r->first && ln > 0; ln--) {
    char *t = cov_code_of(&cov->files.v[fi], ln);
    if (!t) return true;
    char *p = strstr(t, "return");
    bool yes = p && (p == t || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) && !(isalnum((unsigned char)p[6]) || p[6] == '_');
    bool empty = cov_blank(t);
    free(t);
    if (yes) return true;
    if (!empty && ln == r->first) break;
  }
  return false;
}

/* Does the block's last code line call a function that never returns (the ones pathcc knows)? */
static bool ends_in_noreturn(PPCoverage *cov, const PPCovFunc *c, const PPBlock *b) {
  static const char *const names[] = { "exit", "_exit", "_Exit", "abort", "quick_exit", "longjmp", "siglongjmp",
    "_longjmp", "__builtin_longjmp", "__builtin_unreachable", "__builtin_trap", "__builtin_abort", "__builtin_exit",
    "__assert_fail", "pthread_exit", "thrd_exit", 0 };
  if (!b->lines.n) return false;
  const PPLines *r = &b->lines.v[b->lines.n - 1];
  int fi = cov_file_index(cov, c->t->files.v[r->file], c->view->u->tables_path);
  unsigned ln = r->last;
  char *t = cov_code_of(&cov->files.v[fi], ln);
  while (t && cov_blank(t) && ln > r->first) { free(t); t = cov_code_of(&cov->files.v[fi], --ln); }
  bool yes = false;
  for (int i = 0; t && names[i] && !yes; i++) {
    size_t n = strlen(names[i]);
    for (char *p = t; (p = strstr(p, names[i])) && !yes; p += n) {
      char *q = p + n;
      while (isspace((unsigned char)*q)) q++;
      yes = (p == t || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) && *q == '(';
    }
  }
  free(t);
  return yes;
}

/* Does exit edge x end a return statement or (with noreturn) a call that never returns? The
   tables say so; older tables do not, and then the source text tells: a return whose value
   holds decisions leaves from a block without lines inside its expression, so the statement is
   in the nearest blocks with lines before it. */
static bool exit_of_return(PPCoverage *cov, const PPCovFunc *c, const PPEdge *x, bool noreturn) {
  const PPGraph *g = &c->f->g;
  if (x->exit != PP_EXIT_NONE) return x->exit == PP_EXIT_RETURN || (noreturn && x->exit == PP_EXIT_NORETURN);
  int b = x->src;
  size_t nb = g->blocks.n;
  char *seen = pp_xcalloc(nb, 1);
  int *stack = pp_xmalloc(sizeof(int) * nb), top = 0;
  bool yes = false;
  stack[top++] = b;
  seen[b] = 1;
  while (top && !yes) {
    int x = stack[--top];
    const PPBlock *bl = &g->blocks.v[x];
    if (bl->lines.n) { yes = ends_in_return(cov, c, bl) || (noreturn && ends_in_noreturn(cov, c, bl)); continue; }
    for (size_t i = 0; i < g->edges.n; i++) {
      const PPEdge *e = &g->edges.v[i];
      if (e->dst == x && cov_cfg_edge(e) && g->blocks.v[e->src].live && !seen[e->src]) { seen[e->src] = 1; stack[top++] = e->src; }
    }
  }
  free(seen);
  free(stack);
  return yes;
}

static void add_arc(VGraph *v, int src, int dst, uint64_t count, bool from_cond) {
  VArc a = { src, dst, count, from_cond, false };
  VEC_PUSH(v->a, a);
}

static int out_arcs(const VGraph *v, int b, int *only) {
  int n = 0;
  for (size_t i = 0; i < v->a.n; i++)
    if (v->a.v[i].src == b) { n++; *only = (int)i; }
  return n;
}

static void drop_line(LRefs *l, size_t at) {
  memmove(l->v + at, l->v + at + 1, sizeof *l->v * (l->n - at - 1));
  l->n--;
}

/* Labels as GCC keeps them. Consecutive labels are one block, and of a run of labels only the
   user's labels and the first one (the "main" label) keep their lines; a case label right after
   an if, a loop or the start of a branch follows a label the compiler made, which is the main
   label then, so the case label's line goes. */
static bool do_body(const VGraph *v, int b) {
  int o;
  for (size_t i = 0; i < v->a.n; i++)
    if (v->a.v[i].dst == b && v->a.v[i].back && v->a.v[i].src >= 0 && out_arcs(v, v->a.v[i].src, &o) >= 2) return true;
  return false;
}

/* Does block p hold only labels whose run the next label joins? */
static bool label_run(const VBlock *p) { return p->label && p->label_lines == p->lines.n && !p->last_user; }

/* The arc into block b from a predecessor with no other way out, one that is a run of labels
   when there is one ('default: name:' is one run even when a goto to name comes first); -1 if none. */
static int run_pred(const VGraph *v, int b) {
  int any = -1;
  for (size_t i = 0; i < v->a.n; i++) {
    int only, p = v->a.v[i].src;
    if (v->a.v[i].dst != b || p < 0 || p == v->ventry || !v->b.v[p].alive || out_arcs(v, p, &only) != 1) continue;
    if (label_run(&v->b.v[p])) return (int)i;
    if (any < 0) any = (int)i;
  }
  return any;
}

/* With follow_gcov (--no-code=gcov) the top of a do-while joins the run of labels before it, as
   in GCC, where it is a label of the compiler's: the labels' line then counts the loop's rounds.
   Otherwise the run keeps a block of its own, and its line counts the times control reaches it,
   as clang counts it. */
static void label_runs(VGraph *v, bool follow_gcov) {
  for (size_t b = 0; b < v->b.n; b++) {
    VBlock *x = &v->b.v[b];
    if (!x->alive) continue;
    if (!x->label) {  /* the top of a do-while is a label of the compiler's: it joins a run before it */
      if (!follow_gcov || !do_body(v, (int)b)) continue;
      for (size_t i = 0; i < v->a.n; i++) {
        int only, p = v->a.v[i].src;
        if (v->a.v[i].dst != (int)b || p < 0 || p == v->ventry || !v->b.v[p].alive || out_arcs(v, p, &only) != 1) continue;
        VBlock *pb = &v->b.v[p];
        if (!label_run(pb)) continue;
        LRefs merged = {0};
        for (size_t k = 0; k < pb->lines.n; k++) VEC_PUSH(merged, pb->lines.v[k]);
        for (size_t k = 0; k < x->lines.n; k++) cov_push_line(&merged, x->lines.v[k].file, x->lines.v[k].line);
        VEC_FREE(x->lines);
        x->lines = merged;
        for (size_t k = 0; k < v->a.n; k++)
          if (v->a.v[k].dst == p) v->a.v[k].dst = (int)b;
        v->a.v[i].src = v->a.v[i].dst = -1;
        pb->alive = false;
        VEC_FREE(pb->lines);
        break;
      }
      continue;
    }
    int parc = run_pred(v, (int)b);
    if (parc < 0) continue;
    int pred = v->a.v[parc].src;
    VBlock *p = &v->b.v[pred];
    bool run = label_run(p);
    if (!run && p->lines.n == 0 && pred != PP_ENTRY) {
      if (x->label == 1 && x->label_lines) { drop_line(&x->lines, 0); x->label_lines = 0; }
      continue;
    }
    if (!run) continue;
    /* one block: the predecessor's label lines, then this label's line if it keeps it */
    LRefs merged = {0};
    bool keep_prev = !(x->label == 2 && !p->has_user);
    if (keep_prev)
      for (size_t i = 0; i < p->lines.n; i++) VEC_PUSH(merged, p->lines.v[i]);
    size_t nl = keep_prev ? p->lines.n : 0;
    for (size_t i = 0; i < x->lines.n; i++) {
      if (i == 0 && x->label_lines && x->label == 1) continue;  /* not the main label */
      if (i == 0 && x->label_lines) nl++;
      bool dup = false;
      for (size_t k = 0; k < merged.n; k++) dup |= merged.v[k].file == x->lines.v[i].file && merged.v[k].line == x->lines.v[i].line;
      if (!dup) VEC_PUSH(merged, x->lines.v[i]);
    }
    VEC_FREE(x->lines);
    x->lines = merged;
    x->label_lines = nl;
    x->has_user |= p->has_user;
    x->last_user = x->label == 2;
    for (size_t i = 0; i < v->a.n; i++)
      if (v->a.v[i].dst == pred) v->a.v[i].dst = (int)b;
    v->a.v[parc].src = v->a.v[parc].dst = -1;
    p->alive = false;
    VEC_FREE(p->lines);
  }
}

/* Does the line's code begin with one of the keywords (after closing braces)? */
static bool begins_with(const PPCovFile *f, unsigned ln, const char *const *kw) {
  char *t = cov_code_of(f, ln);
  if (!t) return false;
  char *p = t;
  while (isspace((unsigned char)*p) || *p == '}') p++;
  bool yes = false;
  for (int i = 0; kw[i] && !yes; i++) {
    size_t n = strlen(kw[i]);
    yes = !strncmp(p, kw[i], n) && !(isalnum((unsigned char)p[n]) || p[n] == '_');
  }
  free(t);
  return yes;
}

/* A line holding nothing but labels (case X:, default:, name:)? */
static bool only_labels(const PPCovFile *f, unsigned ln) {
  char *t = cov_code_of(f, ln);
  if (!t) return false;
  char *p = t;
  for (;;) {
    while (isspace((unsigned char)*p) || *p == '{' || *p == '}') p++;
    char *w = p;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    size_t n = (size_t)(p - w);
    if (!n) break;
    char *colon = NULL;
    if (cov_word_is(w, n, "case")) {
      for (char *q = p; *q; q++)
        if (*q == ':' && q[1] != ':') { colon = q; break; }
    } else {
      char *q = p;
      while (isspace((unsigned char)*q)) q++;
      if (*q == ':' && q[1] != ':') colon = q;
    }
    if (!colon) { p = w; break; }
    p = colon + 1;
  }
  while (isspace((unsigned char)*p) || *p == '{' || *p == '}') p++;
  bool yes = !*p;
  free(t);
  return yes;
}

/* Conditions GCC folds away: while (1), while (0), if (1), if (0). The arc never taken goes,
   and so does the condition's line; what only that arc reached is dead. */
static void const_conds(PPCoverage *cov, VGraph *v) {
  static const char *const kw[] = { "while", "if", 0 };
  bool changed = false;
  for (size_t b = 0; b < v->b.n; b++) {
    VBlock *x = &v->b.v[b];
    int arcs[2], n = 0;
    for (size_t i = 0; i < v->a.n && n <= 2; i++)
      if (v->a.v[i].src == (int)b) { if (n < 2) arcs[n] = (int)i; n++; }
    if (!x->alive || n != 2 || !v->a.v[arcs[0]].from_cond || !x->lines.n) continue;
    LRef last = x->lines.v[x->lines.n - 1];
    const PPCovFile *f = &cov->files.v[last.file];
    if (!begins_with(f, last.line, kw)) continue;
    char *t = cov_code_of(f, last.line), *p = t;
    while (isspace((unsigned char)*p) || *p == '}') p++;
    while (isalpha((unsigned char)*p)) p++;
    while (isspace((unsigned char)*p)) p++;
    int val = -1;
    if (*p == '(') {
      p++;
      while (isspace((unsigned char)*p)) p++;
      char *w = p;
      while (isalnum((unsigned char)*p)) p++;
      size_t wn = (size_t)(p - w);
      while (isspace((unsigned char)*p)) p++;
      if (*p == ')') val = cov_word_is(w, wn, "1") || cov_word_is(w, wn, "true") ? 1 : cov_word_is(w, wn, "0") || cov_word_is(w, wn, "false") ? 0 : -1;
    }
    free(t);
    if (val < 0) continue;
    static const char *const wkw[] = { "while", 0 };
    bool loop_top = !v->a.v[arcs[0]].back && begins_with(f, last.line, wkw);  /* a while, not a do-while's end */
    int gone = val ? arcs[1] : arcs[0];
    v->a.v[gone].src = v->a.v[gone].dst = -1;
    v->a.v[val ? arcs[0] : arcs[1]].from_cond = false;
    /* while (1) keeps its line, which counts the loop's rounds (GCC folds the test, and gcov counts
       the line only when the body's scope has locals, with the rounds that reached the body's
       end; clang counts the rounds); while (0) keeps its line: the jump to the test. Other
       constant conditions count their runs, as clang does, unless the report follows gcov
       (--no-code=gcov, which drops every constant condition's line) */
    if (!loop_top && cov->gcov_nocode) x->lines.n--;
    changed = true;
  }
  if (!changed) return;
  char *seen = pp_xcalloc(v->b.n + 1, 1);
  int *stack = pp_xmalloc(sizeof(int) * (v->b.n + 1)), top = 0;
  stack[top++] = v->ventry;
  seen[v->ventry] = 1;
  while (top) {
    int u = stack[--top];
    for (size_t i = 0; i < v->a.n; i++)
      if (v->a.v[i].src == u && !seen[v->a.v[i].dst]) { seen[v->a.v[i].dst] = 1; stack[top++] = v->a.v[i].dst; }
  }
  for (size_t b = 0; b < v->b.n; b++)
    if (!seen[b] && v->b.v[b].alive) {
      v->b.v[b].alive = false;
      for (size_t i = 0; i < v->a.n; i++)
        if (v->a.v[i].src == (int)b) v->a.v[i].src = v->a.v[i].dst = -1;
    }
  free(seen);
  free(stack);
}

/* Is line ln of f nothing but "for (;;)" (no init, no step: their regions would count on the
   line in clang), its body below it? */
static bool forever_line(const PPCovFile *f, unsigned ln) {
  static const char want[] = "for(;;)";
  char *t = cov_code_of(f, ln), *p = t;
  if (!t) return false;
  size_t k = 0;
  for (; *p && k < sizeof want - 1; p++) {
    if (isspace((unsigned char)*p)) continue;
    if (*p != want[k]) break;
    k++;
  }
  while (isspace((unsigned char)*p)) p++;
  bool yes = k == sizeof want - 1 && !*p && strncmp(t + strspn(t, " \t"), "for", 3) == 0;
  free(t);
  return yes;
}

/* Is line ln of f nothing but an opening brace? */
static bool brace_line(const PPCovFile *f, unsigned ln) {
  char *t = cov_code_of(f, ln), *p = t;
  if (!t) return false;
  while (isspace((unsigned char)*p)) p++;
  bool yes = *p == '{';
  for (p += yes; yes && isspace((unsigned char)*p); p++) {}
  yes = yes && !*p;
  free(t);
  return yes;
}

/* A for (;;) alone on its line counts the loop's entries, as clang counts it (its body's region
   starts below): the head's block is split, the head line taking the arcs from before the loop,
   the rest (with the '{' on the next line, which then counts the rounds) the back arcs. With
   --no-code=gcov the head keeps gcov's reading (no code). */
static void forever_heads(PPCoverage *cov, VGraph *v) {
  size_t n = v->b.n;
  for (size_t b = 0; b < n; b++) {
    if (!v->b.v[b].alive || !v->b.v[b].lines.n) continue;
    LRef head = v->b.v[b].lines.v[0];
    const PPCovFile *f = &cov->files.v[head.file];
    bool back = false;
    uint64_t entries = 0;
    for (size_t i = 0; i < v->a.n; i++)
      if (v->a.v[i].dst == (int)b && v->a.v[i].src >= 0) {
        back |= v->a.v[i].back;
        if (!v->a.v[i].back) entries += v->a.v[i].count;
      }
    if (!back || !forever_line(f, head.line)) continue;
    VBlock h;
    memset(&h, 0, sizeof h);
    h.alive = true;
    h.count = entries;
    VEC_PUSH(h.lines, head);
    VEC_PUSH(v->b, h);
    int nh = (int)v->b.n - 1;
    VBlock *x = &v->b.v[b];
    if (brace_line(f, head.line + 1)) x->lines.v[0].line = head.line + 1;
    else drop_line(&x->lines, 0);
    for (size_t i = 0; i < v->a.n; i++)
      if (v->a.v[i].dst == (int)b && v->a.v[i].src >= 0 && !v->a.v[i].back) v->a.v[i].dst = nh;
    add_arc(v, nh, (int)b, entries, false);
  }
}

/* A place where activations stopped inside a block: the last line they ran, and how many. */
typedef struct { int block, file; unsigned line; int64_t n; } Stop;

static int by_block(const void *a, const void *b) {
  const Stop *x = a, *y = b;
  return x->block != y->block ? x->block - y->block : x->line < y->line ? -1 : x->line > y->line;
}

/* GCC ends a block at every call that may not return, so an activation that stopped in a call
   ran the lines of its block up to that call's and none after: the block is split after the
   stop's line, the lines after it counting only the activations that went on (partial paths,
   doc/coverage-json.md). Stops before a block's first line or after its last split nothing. */
static void split_stops(PPCoverage *cov, const PPCovFunc *c, VGraph *v) {
  VEC(Stop) st = {0};
  for (size_t i = 0; i < c->view->nparts; i++) {
    const PPPartial *p = &c->view->parts[i];
    int b = pp_partial_block(c->f, p->site);
    uint64_t site = p->site & PP_SITE_LAST;
    if (b < 0 || (p->site & PP_SITE_BEFORE) || site >= c->f->stops.n || !c->f->stops.v[site].line || !v->b.v[b].alive)
      continue;
    const PPStop *ps = &c->f->stops.v[site];
    Stop s = { b, cov_file_index(cov, c->t->files.v[ps->file], c->view->u->tables_path), ps->line, p->count };
    size_t k;
    for (k = 0; k < st.n && !(st.v[k].block == b && st.v[k].file == s.file && st.v[k].line == s.line); k++) {}
    if (k < st.n) st.v[k].n += s.n;
    else VEC_PUSH(st, s);
  }
  pp_sort(st.v, st.n, sizeof *st.v, by_block);
  int cur = -1, orig = -1;
  for (size_t k = 0; k < st.n; k++) {
    if (st.v[k].block != orig) orig = cur = st.v[k].block;
    VBlock *x = &v->b.v[cur];
    size_t at = 0;
    while (at < x->lines.n && !(x->lines.v[at].file == st.v[k].file && x->lines.v[at].line > st.v[k].line)) at++;
    if (at == 0 || at == x->lines.n || !st.v[k].n) continue;
    VBlock rest;
    memset(&rest, 0, sizeof rest);
    rest.alive = true;
    rest.count = x->count;
    pp_sat_add_signed(&rest.count, -st.v[k].n);
    for (size_t i = at; i < x->lines.n; i++) VEC_PUSH(rest.lines, x->lines.v[i]);
    x->lines.n = at;
    VEC_PUSH(v->b, rest);
    int nb = (int)v->b.n - 1;
    for (size_t i = 0; i < v->a.n; i++)
      if (v->a.v[i].src == cur) v->a.v[i].src = nb;
    add_arc(v, cur, nb, v->b.v[nb].count, false);
    cur = nb;
  }
  VEC_FREE(st);
}

void cov_build_vgraph(PPCoverage *cov, PPCovFunc *c, VGraph *v) {
  const PPGraph *g = &c->f->g;
  size_t nb = g->blocks.n;
  memset(v, 0, sizeof *v);
  for (size_t i = 0; i < nb; i++) {
    VBlock b;
    memset(&b, 0, sizeof b);
    b.alive = g->blocks.v[i].live && i != PP_EXIT;
    b.count = c->blocks[i];
    b.user_label = g->blocks.v[i].label && !is_case_label(g->blocks.v[i].label);
    VEC_PUSH(v->b, b);
  }
  VBlock ve;
  memset(&ve, 0, sizeof ve);
  VEC_PUSH(v->b, ve);
  v->ventry = (int)nb;
  /* lines */
  cov_push_line(&v->b.v[PP_ENTRY].lines, c->file, c->name_line);
  for (size_t i = 0; i < nb; i++)
    if (v->b.v[i].alive) block_lines(cov, c, (int)i, &v->b.v[i].lines);
  /* the implicit return at '}' */
  int falloff = -1, returns = 0;
  for (size_t i = 0; i < g->edges.n; i++)
    if (g->edges.v[i].kind == EK_EXIT) falloff = (int)i;
  /* the tables keep live edges in the order they were made, the fall-off edge last; when the
     end of the body cannot be reached the last exit edge is a return or a call that never
     returns instead */
  if (falloff >= 0 && exit_of_return(cov, c, &g->edges.v[falloff], true)) falloff = -1;
  for (size_t i = 0; i < g->edges.n; i++) {  /* return statements (a call that never returns is none) */
    const PPEdge *e = &g->edges.v[i];
    if (e->kind == EK_EXIT && (int)i != falloff && exit_of_return(cov, c, e, false)) returns++;
  }
  if (falloff >= 0 && !cov_edge_dead(g, &g->edges.v[falloff]) &&
      (!returns || returns_value(&cov->files.v[c->file], c->f, c->name_line)))
    cov_push_line(&v->b.v[g->edges.v[falloff].src].lines, c->file, c->f->end_line);
  /* arcs */
  add_arc(v, v->ventry, PP_ENTRY, c->calls, false);
  int *outs = pp_xcalloc(nb, sizeof(int));
  bool *switch_head = pp_xcalloc(nb, sizeof(bool));
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (!cov_cfg_edge(e) || cov_edge_dead(g, e)) continue;
    outs[e->src]++;
    if (is_case_label(g->blocks.v[e->dst].label)) switch_head[e->src] = true;
  }
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *e = &g->edges.v[i];
    if (!cov_cfg_edge(e) || cov_edge_dead(g, e)) continue;
    add_arc(v, e->src, e->dst, c->edges[i], outs[e->src] >= 2 && !switch_head[e->src]);
    v->a.v[v->a.n - 1].back = e->kind == EK_BACK;
  }
  free(outs);
  free(switch_head);
  for (size_t i = 0; i < nb; i++) {
    VBlock *x = &v->b.v[i];
    if (!x->alive || !g->blocks.v[i].label) continue;
    x->label = x->user_label ? 2 : 1;
    x->label_lines = x->lines.n && only_labels(&cov->files.v[x->lines.v[0].file], x->lines.v[0].line) ? 1 : 0;
    x->has_user = x->last_user = x->user_label;
  }
  label_runs(v, cov->gcov_nocode);
  if (!cov->gcov_nocode) forever_heads(cov, v);
  const_conds(cov, v);
  if (cov->gcov_nocode) drop_nocode_lines(cov, c, v);
  split_stops(cov, c, v);
}

/* Blocks without code disappear into their neighbours (GCC removes forwarder blocks). */
void cov_contract(VGraph *v) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t b = 0; b < v->b.n; b++) {
      VBlock *x = &v->b.v[b];
      if (!x->alive || x->lines.n || (int)b == v->ventry || b == PP_ENTRY) continue;
      int nin = 0, nout = 0, in = -1, out = -1;
      bool self = false;
      for (size_t i = 0; i < v->a.n; i++) {
        if (v->a.v[i].src < 0) continue;
        if (v->a.v[i].dst == (int)b) { nin++; in = (int)i; }
        if (v->a.v[i].src == (int)b) { nout++; out = (int)i; }
        self |= v->a.v[i].src == (int)b && v->a.v[i].dst == (int)b;
      }
      if (self) continue;
      if (nout == 1) {
        int to = v->a.v[out].dst;
        for (size_t i = 0; i < v->a.n; i++)
          if (v->a.v[i].dst == (int)b) v->a.v[i].dst = to;
        v->a.v[out].src = v->a.v[out].dst = -1;
      } else if (nin == 1) {
        int from = v->a.v[in].src;
        bool cond = v->a.v[in].from_cond;
        for (size_t i = 0; i < v->a.n; i++)
          if (v->a.v[i].src == (int)b) { v->a.v[i].src = from; v->a.v[i].from_cond |= cond; }
        v->a.v[in].src = v->a.v[in].dst = -1;
      } else continue;
      x->alive = false;
      changed = true;
    }
  }
}

/* ---- gcov's line counts ---- */

typedef struct { int func; int block; } BRef;   /* a block of a function's VGraph */
typedef VEC(BRef) LineBlocks;
typedef VEC(int) IntVec;

/* Arcs in and out of each block of a VGraph (after contraction and splits). */
typedef struct { IntVec *in, *out; int64_t *cs; size_t nb; } Adj;

static void adj_build(const VGraph *g, Adj *a) {
  a->nb = g->b.n;
  a->in = pp_xcalloc(a->nb + 1, sizeof(IntVec));
  a->out = pp_xcalloc(a->nb + 1, sizeof(IntVec));
  a->cs = pp_xcalloc(g->a.n + 1, sizeof(int64_t));
  for (size_t i = 0; i < g->a.n; i++) {
    const VArc *x = &g->a.v[i];
    if (x->src < 0) continue;
    VEC_PUSH(a->out[x->src], (int)i);
    VEC_PUSH(a->in[x->dst], (int)i);
  }
}

static void adj_free(Adj *a) {
  for (size_t i = 0; i < a->nb; i++) { VEC_FREE(a->in[i]); VEC_FREE(a->out[i]); }
  free(a->in); free(a->out); free(a->cs);
}

static bool line_has(const LineBlocks *l, int func, int block) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].func == func && l->v[i].block == block) return true;
  return false;
}

/* Hawick-James circuit search as gcov does it, on one function's blocks of one line. */
typedef struct {
  const VGraph *g;
  Adj *adj;
  const LineBlocks *l;
  int func;
  IntVec path;         /* arcs */
  IntVec blocked;
  VEC(IntVec *) lists;
  uint64_t count;
} Circ;

static int blocked_at(const Circ *c, int b) {
  for (size_t i = 0; i < c->blocked.n; i++)
    if (c->blocked.v[i] == b) return (int)i;
  return -1;
}

static void unblock(Circ *c, int u) {
  int i = blocked_at(c, u);
  if (i < 0) return;
  IntVec *list = c->lists.v[i];
  memmove(c->blocked.v + i, c->blocked.v + i + 1, sizeof(int) * (c->blocked.n - (size_t)i - 1));
  c->blocked.n--;
  memmove(c->lists.v + i, c->lists.v + i + 1, sizeof(IntVec *) * (c->lists.n - (size_t)i - 1));
  c->lists.n--;
  for (size_t k = 0; k < list->n; k++) unblock(c, list->v[k]);
  VEC_FREE(*list);
  free(list);
}

static bool follow(const Circ *c, int arc, int start) {
  const VArc *a = &c->g->a.v[arc];
  return a->dst >= start && c->adj->cs[arc] > 0 && line_has(c->l, c->func, a->dst);
}

static bool circuit(Circ *c, int v, int start) {
  bool found = false;
  IntVec *list = pp_xcalloc(1, sizeof *list);
  VEC_PUSH(c->blocked, v);
  VEC_PUSH(c->lists, list);
  const IntVec *out = &c->adj->out[v];
  for (size_t i = 0; i < out->n; i++) {
    int arc = out->v[i];
    if (!follow(c, arc, start)) continue;
    int w = c->g->a.v[arc].dst;
    VEC_PUSH(c->path, arc);
    if (w == start) {
      int64_t min = INT64_MAX;
      for (size_t k = 0; k < c->path.n; k++)
        if (c->adj->cs[c->path.v[k]] < min) min = c->adj->cs[c->path.v[k]];
      c->count = pp_sat_add(c->count, (uint64_t)min);
      for (size_t k = 0; k < c->path.n; k++) c->adj->cs[c->path.v[k]] -= min;
      found = true;
    } else {
      bool zero = false;
      for (size_t k = 0; k < c->path.n; k++) zero |= c->adj->cs[c->path.v[k]] <= 0;
      if (!zero && blocked_at(c, w) < 0) found |= circuit(c, w, start);
    }
    c->path.n--;
  }
  if (found) unblock(c, v);
  else
    for (size_t i = 0; i < out->n; i++) {
      int arc = out->v[i];
      if (!follow(c, arc, start)) continue;
      int k = blocked_at(c, c->g->a.v[arc].dst);
      if (k < 0) continue;
      IntVec *l = c->lists.v[k];
      bool have = false;
      for (size_t j = 0; j < l->n; j++) have |= l->v[j] == v;
      if (!have) VEC_PUSH(*l, v);
    }
  return found;
}

/* The executions of the loops that run entirely inside one line's blocks (gcov's
   get_cycles_count: arc counts are shared by the searches from each block of the line). */
static uint64_t cycles_count(VGraph *vgs, Adj *adjs, const LineBlocks *l) {
  uint64_t total = 0;
  for (size_t i = 0; i < l->n; i++) {
    Adj *a = &adjs[l->v[i].func];
    const IntVec *out = &a->out[l->v[i].block];
    for (size_t k = 0; k < out->n; k++) {
      uint64_t n = vgs[l->v[i].func].a.v[out->v[k]].count;
      a->cs[out->v[k]] = n > INT64_MAX ? INT64_MAX : (int64_t)n;
    }
  }
  for (size_t i = 0; i < l->n; i++) {
    Circ c;
    memset(&c, 0, sizeof c);
    c.g = &vgs[l->v[i].func];
    c.adj = &adjs[l->v[i].func];
    c.l = l;
    c.func = l->v[i].func;
    circuit(&c, l->v[i].block, l->v[i].block);
    for (size_t k = 0; k < c.lists.n; k++) { VEC_FREE(*c.lists.v[k]); free(c.lists.v[k]); }
    VEC_FREE(c.lists);
    VEC_FREE(c.path);
    VEC_FREE(c.blocked);
    total = pp_sat_add(total, c.count);
  }
  return total;
}

void cov_line_counts(PPCoverage *cov, VGraph *vgs) {
  size_t nf = cov->files.n;
  LineBlocks **lb = pp_xcalloc(nf ? nf : 1, sizeof *lb);
  Adj *adjs = pp_xcalloc(cov->funcs.n + 1, sizeof *adjs);
  for (size_t fi = 0; fi < nf; fi++) lb[fi] = pp_xcalloc(cov->files.v[fi].nlines + 1, sizeof(LineBlocks));
  for (size_t fn = 0; fn < cov->funcs.n; fn++) {
    VGraph *g = &vgs[fn];
    adj_build(g, &adjs[fn]);
    for (size_t b = 0; b < g->b.n; b++) {
      VBlock *x = &g->b.v[b];
      if (!x->alive || (int)b == g->ventry) continue;
      for (size_t i = 0; i < x->lines.n; i++) {
        LRef r = x->lines.v[i];
        PPCovLine *l = &cov->files.v[r.file].lines[r.line];
        l->exists = true;
        if (!x->count) l->unexecuted_block = true;
        l->count = pp_sat_add(l->count, x->count);
        /* the block belongs to the last line of each run of lines in one file */
        if (i + 1 == x->lines.n || x->lines.v[i + 1].file != r.file) {
          BRef br = { (int)fn, (int)b };
          VEC_PUSH(lb[r.file][r.line], br);
        }
      }
    }
  }
  for (size_t fi = 0; fi < nf; fi++) {
    PPCovFile *f = &cov->files.v[fi];
    for (unsigned ln = 1; ln <= f->nlines; ln++) {
      LineBlocks *l = &lb[fi][ln];
      if (!l->n) continue;
      uint64_t count = 0;
      for (size_t i = 0; i < l->n; i++) {
        const VGraph *g = &vgs[l->v[i].func];
        const IntVec *in = &adjs[l->v[i].func].in[l->v[i].block];
        for (size_t k = 0; k < in->n; k++) {
          const VArc *a = &g->a.v[in->v[k]];
          if (!line_has(l, l->v[i].func, a->src)) count = pp_sat_add(count, a->count);
        }
      }
      f->lines[ln].count = pp_sat_add(count, cycles_count(vgs, adjs, l));
    }
    for (unsigned ln = 0; ln <= f->nlines; ln++) VEC_FREE(lb[fi][ln]);
    free(lb[fi]);
  }
  for (size_t fn = 0; fn < cov->funcs.n; fn++) adj_free(&adjs[fn]);
  free(adjs);
  free(lb);
}
