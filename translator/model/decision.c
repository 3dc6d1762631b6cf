/* The decision structure of conditions-mode tables, to and from JSON (see decision.h). */
#include "decision.h"
#include <string.h>

/* One condition as a compact array: [block, t, f, next_t, next_f, line, col, text]. */
static json_t *cond_json(const PPCond *c) {
  return json_pack("[i, i, i, i, i, i, i, s]", c->block, c->t, c->f, c->next_t, c->next_f,
                   (int)c->line, (int)c->col, c->text);
}

json_t *pp_decisions_json(const PPGraph *g) {
  if (!g->decisions.n) return NULL;
  json_t *a = json_array();
  for (size_t i = 0; i < g->decisions.n; i++) {
    const PPDecision *d = &g->decisions.v[i];
    json_t *conds = json_array();
    for (int k = 0; k < d->n; k++) json_array_append_new(conds, cond_json(&g->conds.v[d->first + k]));
    json_array_append_new(a, json_pack("{s:i, s:i, s:i, s:o}", "file", d->file, "line", (int)d->line,
                                       "col", (int)d->col, "conds", conds));
  }
  return a;
}

/* A next condition is a later one of the same decision, or an outcome. */
static bool next_ok(int next, int k, int n) { return next == PP_DEC_TRUE || next == PP_DEC_FALSE || (next > k && next < n); }

static int read_cond(PPGraph *g, json_t *x, int k, int n) {
  PPCond c;
  json_int_t v[7];
  const char *text = "";
  memset(&c, 0, sizeof c);
  if (json_unpack(x, "[I, I, I, I, I, I, I, s]", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &text)) return -1;
  int nb = (int)g->blocks.n;
  for (int i = 0; i < 3; i++)
    if (v[i] < 0 || v[i] >= nb) return -1;
  c.block = (int)v[0]; c.t = (int)v[1]; c.f = (int)v[2]; c.next_t = (int)v[3]; c.next_f = (int)v[4];
  if (v[3] != c.next_t || v[4] != c.next_f || !next_ok(c.next_t, k, n) || !next_ok(c.next_f, k, n) || c.t == c.f) return -1;
  c.line = (unsigned)v[5]; c.col = (unsigned)v[6];
  snprintf(c.text, sizeof c.text, "%s", text);
  VEC_PUSH(g->conds, c);
  return 0;
}

int pp_decisions_read(PPGraph *g, json_t *a, int nfiles) {
  if (!a) return 0;
  if (!json_is_array(a)) return -1;
  size_t i;
  json_t *x;
  json_array_foreach(a, i, x) {
    json_t *conds = json_object_get(x, "conds");
    PPDecision d = { (int)g->conds.n, (int)json_array_size(conds), (int)json_integer_value(json_object_get(x, "file")),
                     (unsigned)json_integer_value(json_object_get(x, "line")), (unsigned)json_integer_value(json_object_get(x, "col")) };
    if (!json_is_array(conds) || d.n < 1 || d.file < 0 || d.file >= nfiles) return -1;
    for (int k = 0; k < d.n; k++)
      if (read_cond(g, json_array_get(conds, (size_t)k), k, d.n)) return -1;
    VEC_PUSH(g->decisions, d);
  }
  return 0;
}
