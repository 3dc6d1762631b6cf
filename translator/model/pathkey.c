/* Paths as exact keys that every build of the same source shares: where a path starts and each
   decision it takes, as the decision's source position and outcome. */
#include "pathkey.h"
#include "number.h"
#include <stdlib.h>
#include <string.h>

static bool cfg_edge(const PPEdge *e) {
  return e->kind == EK_NORMAL || e->kind == EK_EXIT || e->kind == EK_BACK || e->kind == EK_CUT;
}

/* "12:7", or "other.h:12:7" for a position in another file than the function's, or "b4" for a
   block of tables from before positions were recorded (then the key holds for one build only). */
static void add_pos(PPStr *s, const PPTables *t, const PPTabFunc *f, int b) {
  const PPPos *p = &f->g.blocks.v[b].pos;
  if (!p->line) { pp_str_addf(s, "b%d", b); return; }
  if (p->file != f->file && p->file >= 0 && (size_t)p->file < t->files.n) pp_str_addf(s, "%s:", t->files.v[p->file]);
  pp_str_addf(s, "%u:%u", p->line, p->col);
  /* blocks sharing a position (one macro's decisions) are told apart by their order */
  int nth = 0;
  for (int k = 0; k < b; k++) {
    const PPPos *q = &f->g.blocks.v[k].pos;
    nth += q->line == p->line && q->col == p->col && q->file == p->file;
  }
  if (nth) pp_str_addf(s, "#%d", nth);
}

/* The outcome of decision block b that edge e takes: the case label it dispatches to, else T or
   F for a condition's two ways, else its place among the block's ways. */
static void add_outcome(PPStr *s, const PPGraph *g, int b, int e) {
  const PPEdge *x = &g->edges.v[e];
  const char *label = x->dst >= 0 ? g->blocks.v[x->dst].label : NULL;
  if (x->dispatch) { pp_str_addf(s, "=%s", label ? label : "none"); return; }
  int nth = 0, ways = 0;
  for (size_t i = 0; i < g->edges.n; i++) {
    const PPEdge *y = &g->edges.v[i];
    if (y->src != b || !cfg_edge(y) || !g->blocks.v[y->src].live) continue;
    if ((int)i < e) nth++;
    ways++;
  }
  if (ways == 2) pp_str_add(s, nth ? "=F" : "=T");
  else pp_str_addf(s, "=%d", nth);
}

/* The number of live CFG edges leaving block b. */
static int ways_out(const PPGraph *g, int b) {
  int n = 0;
  for (size_t i = 0; i < g->edges.n; i++) n += g->edges.v[i].src == b && cfg_edge(&g->edges.v[i]);
  return n;
}

/* The CFG edge a DAG edge stands for: a dummy-exit edge u->exit is u's back or cut edge. */
static int cfg_edge_of(const PPGraph *g, int e) {
  const PPEdge *x = &g->edges.v[e];
  if (x->kind != EK_DUMMY_EXIT) return e;
  for (size_t i = 0; i < g->edges.n; i++)
    if (g->edges.v[i].src == x->src && (g->edges.v[i].kind == EK_BACK || g->edges.v[i].kind == EK_CUT)) return (int)i;
  return e;
}

char *pp_path_key(const PPTables *t, const PPTabFunc *f, uint64_t id) {
  const PPGraph *g = &f->g;
  int *es = pp_xmalloc(sizeof(int) * (g->edges.n + 1));
  int k = pp_number_decode(g, id, es, (int)g->edges.n + 1);
  PPStr s = {0};
  if (k <= 0) { free(es); return pp_xasprintf("bad:%llu", (unsigned long long)id); }
  if (g->edges.v[es[0]].kind == EK_DUMMY_ENTRY) {
    pp_str_add(&s, "loop@");
    add_pos(&s, t, f, g->edges.v[es[0]].dst);
  } else pp_str_add(&s, "entry");
  for (int i = 0; i < k; i++) {
    int e = cfg_edge_of(g, es[i]);
    int b = g->edges.v[e].src;
    if (g->edges.v[es[i]].kind == EK_DUMMY_ENTRY || ways_out(g, b) < 2) continue;
    pp_str_add(&s, " ");
    add_pos(&s, t, f, b);
    add_outcome(&s, g, b, e);
  }
  const PPEdge *last = &g->edges.v[es[k - 1]];
  pp_str_add(&s, last->kind == EK_DUMMY_EXIT ? " back" : " exit");
  free(es);
  return pp_str_take(&s);
}

uint64_t pp_func_shape(const PPTables *t, const PPTabFunc *f) {
  const PPGraph *g = &f->g;
  PPStr s = {0};
  pp_str_addf(&s, "%s %s %u-%u %llx;", t->files.v[f->file], f->name, f->line, f->end_line, (unsigned long long)f->src_hash);
  for (size_t b = 0; b < g->blocks.n; b++) {
    const PPBlock *x = &g->blocks.v[b];
    pp_str_addf(&s, "%d:%u:%u:%s;", x->pos.file, x->pos.line, x->pos.col, x->label ? x->label : "");
    for (size_t i = 0; i < x->lines.n; i++) pp_str_addf(&s, "%u-%u,", x->lines.v[i].first, x->lines.v[i].last);
  }
  for (size_t i = 0; i < g->edges.n; i++)
    if (cfg_edge(&g->edges.v[i])) pp_str_addf(&s, "%d>%d/%d;", g->edges.v[i].src, g->edges.v[i].dst, (int)g->edges.v[i].kind);
  uint64_t h = pp_fnv1a(PP_FNV_BASIS, s.s ? s.s : "", s.n);
  free(s.s);
  return h;
}

/* The tokens of key a that some other key of the group does not have: the decisions that tell
   path a from paths through the same lines. */
char *pp_key_difference(const char *a, const char *const *others, size_t n) {
  PPStr out = {0};
  char *copy = pp_xstrdup(a), *save = NULL;
  for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    if (!strchr(tok, '=')) continue;
    bool everywhere = true;
    size_t len = strlen(tok);
    for (size_t i = 0; i < n && everywhere; i++) {
      const char *p = others[i];
      bool found = false;
      while (!found && (p = strstr(p, tok))) {
        found = (p == others[i] || p[-1] == ' ') && (p[len] == ' ' || !p[len]);
        p += len;
      }
      everywhere = found;
    }
    if (!everywhere) pp_str_addf(&out, "%s%s", out.n ? ", " : "", tok);
  }
  free(copy);
  return pp_str_take(&out);
}
