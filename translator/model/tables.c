/* The per-unit tables (JSON, Jansson): what the rewriter did, in the form the reporter decodes. */
#include "tables.h"
#include "number.h"
#include "decision.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TABLES_VERSION 1

static json_t *u64_str(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRIu64, v);
  return json_string(buf);
}

static json_t *i64_str(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRId64, (int64_t)v);
  return json_string(buf);
}

static json_t *block_json(const PPBlock *b) {
  json_t *lines = json_array();
  for (size_t i = 0; i < b->lines.n; i++)
    json_array_append_new(lines, json_pack("[iii]", b->lines.v[i].file, (int)b->lines.v[i].first, (int)b->lines.v[i].last));
  json_t *o = json_pack("{s:o, s:b}", "lines", lines, "live", b->live);
  if (b->stmts.n) {
    json_t *stmts = json_array();
    for (size_t i = 0; i < b->stmts.n; i++)
      json_array_append_new(stmts, json_pack("[iiibb]", b->stmts.v[i].file, (int)b->stmts.v[i].first, (int)b->stmts.v[i].last,
                                             b->stmts.v[i].inert, b->stmts.v[i].nocode));
    json_object_set_new(o, "stmts", stmts);
  }
  if (b->label) json_object_set_new(o, "label", json_string(b->label));
  if (b->pos.line) json_object_set_new(o, "pos", json_pack("[iii]", b->pos.file, (int)b->pos.line, (int)b->pos.col));
  return o;
}

/* An edge; in ppp mode also its PPP weight (ppp != NULL). */
static json_t *edge_json(const PPEdge *e, const int64_t *ppp) {
  json_t *o = json_pack("{s:i, s:i, s:s, s:o, s:o, s:b}", "src", e->src, "dst", e->dst,
                        "kind", pp_edge_kind_name(e->kind), "value", u64_str(e->val), "inc", i64_str(e->inc),
                        "chord", e->chord);
  if (ppp) json_object_set_new(o, "ppp", i64_str((uint64_t)*ppp));
  if (e->slot >= 0) json_object_set_new(o, "counter", json_integer(e->slot));
  if (e->probe) json_object_set_new(o, "probe", json_true());
  if (e->dispatch) json_object_set_new(o, "dispatch", json_true());
  static const char *const exits[] = { NULL, "return", "fall", "noreturn" };
  if (e->kind == EK_EXIT && exits[e->exit]) json_object_set_new(o, "exit", json_string(exits[e->exit]));
  return o;
}

/* A ppp function's interesting set: Ball-Larus ids, their PPP ids, slots, bits, compactness. */
static void ppp_json(json_t *o, const PPTabFunc *f) {
  json_t *bl = json_array(), *id = json_array();
  for (size_t i = 0; i < f->num.n; i++) {
    json_array_append_new(bl, u64_str(f->num.bl[i]));
    json_array_append_new(id, u64_str(f->num.id[i]));
  }
  json_object_set_new(o, "interesting", bl);
  json_object_set_new(o, "ppp_ids", id);
  json_object_set_new(o, "ppp_slots", u64_str(f->num.slots));
  json_object_set_new(o, "ppp_bits", json_integer(f->ppp_bits));
  json_object_set_new(o, "lambda", json_real(pp_ppp_lambda(&f->num)));
}

bool pp_tables_edge_mode(const PPTables *t) { return t->mode && !strcmp(t->mode, "edge"); }

/* A derived function's calls: [fn, block, [stop sites after the call]] each. */
static json_t *derived_json(const PPTabFunc *f) {
  json_t *a = json_array();
  for (size_t i = 0; i < f->from.n; i++) {
    const PPDerivedCall *c = &f->from.v[i];
    json_t *after = json_array();
    for (size_t k = 0; k < c->after.n; k++) json_array_append_new(after, json_integer(c->after.v[k]));
    json_array_append_new(a, json_pack("[iio]", c->fn, c->block, after));
  }
  return a;
}

static json_t *func_json(const PPTabFunc *f, bool edge_mode) {
  json_t *blocks = json_array(), *edges = json_array();
  for (size_t i = 0; i < f->g.blocks.n; i++) json_array_append_new(blocks, block_json(&f->g.blocks.v[i]));
  for (size_t i = 0; i < f->g.edges.n; i++)
    if (!f->g.edges.v[i].dead) json_array_append_new(edges, edge_json(&f->g.edges.v[i], f->ppp ? &f->num.w[i] : NULL));
  json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:o, s:s, s:s, s:o, s:o, s:i, s:i}", "name", f->name,
                        "file", f->file, "line", (int)f->line, "end_line", (int)f->end_line,
                        "paths", u64_str(f->g.npaths),
                        "counter", f->derived ? "derived" : f->kpath ? "kpath" : f->hash ? "hash" : f->ppp_array ? "ppp" : "array",
                        "register", f->wide ? "unsigned long long" : "unsigned long",
                        "blocks", blocks, "edges", edges, "probes", f->probes, "cfg_edges", f->cfg_edges);
  if (!f->hash && !f->kpath && !f->derived) json_object_set_new(o, "offset", u64_str(f->offset));
  if (f->derived) json_object_set_new(o, "derived", derived_json(f));
  if (f->name_line) json_object_set_new(o, "name_line", json_integer(f->name_line));
  if (f->src_hash) json_object_set_new(o, "source_hash", u64_str(f->src_hash));
  if (edge_mode) {  /* the virtual exit->entry edge counts among the edges */
    json_object_set_new(o, "counters", json_integer(f->counters));
    json_object_set_new(o, "edges_instrumented", json_integer(f->counters));
    json_object_set_new(o, "edges_total", json_integer(f->cfg_edges + 1));
    if (f->entry_slot >= 0) json_object_set_new(o, "entry_counter", json_integer(f->entry_slot));
  }
  if (f->ppp) ppp_json(o, f);
  json_t *dec = pp_decisions_json(&f->g);
  if (dec) json_object_set_new(o, "decisions", dec);
  if (f->stops.n) {
    json_t *st = json_array();
    for (size_t i = 0; i < f->stops.n; i++) {
      json_t *x = json_pack("[iii]", f->stops.v[i].block, f->stops.v[i].file, (int)f->stops.v[i].line);
      if (f->stops.v[i].builtin_setjmp) json_array_append_new(x, json_integer(2));
      json_array_append_new(st, x);
    }
    json_object_set_new(o, "stops", st);
  }
  if (f->splits.n) {
    json_t *sp = json_array();
    for (size_t i = 0; i < f->splits.n; i++)
      json_array_append_new(sp, json_pack("[ii]", f->splits.v[i].site, f->splits.v[i].slot));
    json_object_set_new(o, "splits", sp);
  }
  return o;
}

/* FNV-1a of the tables' canonical JSON, every member but "digest" itself: a reader recomputes
   it, so tables changed after pathcc wrote them (a line number, a path count, a file name, a
   lost function) are refused instead of decoding into wrong source lines. */
static char *digest(json_t *root) {
  json_t *copy = json_copy(root);
  if (copy) json_object_del(copy, "digest");
  char *text = copy ? json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  char *d = pp_xasprintf("%016" PRIx64, text ? pp_fnv1a(PP_FNV_BASIS, text, strlen(text)) : 0);
  free(text);
  json_decref(copy);
  return d;
}

/* ---- the digest without the dump: FNV-1a over the bytes json_dumps(COMPACT | SORT_KEYS) would
   write, hashed as they are made (a report reads many tables; building each dump took a quarter
   of its time). Values jansson might format otherwise (reals, control characters) make it give
   up, and the reader falls back to digest(). ---- */

typedef struct { uint64_t h; bool unsure; } Canon;

static void canon_bytes(Canon *c, const char *p, size_t n) { c->h = pp_fnv1a(c->h, p, n); }

static void canon_string(Canon *c, const char *s) {
  canon_bytes(c, "\"", 1);
  const char *run = s;
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch >= 0x20 && ch != '"' && ch != '\\') continue;
    canon_bytes(c, run, (size_t)(s - run));
    if (ch == '"' || ch == '\\') { char e[2] = { '\\', (char)ch }; canon_bytes(c, e, 2); }
    else c->unsure = true;  /* control characters: leave them to jansson */
    run = s + 1;
  }
  canon_bytes(c, run, (size_t)(s - run));
  canon_bytes(c, "\"", 1);
}

static int key_cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* skip: a member left out (the root's "digest"), or NULL. */
static void canon_value(Canon *c, json_t *v, const char *skip) {
  char buf[32];
  size_t i;
  json_t *x;
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    size_t n = json_object_size(v), k = 0;
    const char *small[16], **keys = n <= 16 ? small : pp_xmalloc(n * sizeof *keys);
    const char *key;
    json_object_foreach(v, key, x)
      if (!skip || strcmp(key, skip)) keys[k++] = key;
    qsort(keys, k, sizeof *keys, key_cmp);
    canon_bytes(c, "{", 1);
    for (i = 0; i < k; i++) {
      if (i) canon_bytes(c, ",", 1);
      canon_string(c, keys[i]);
      canon_bytes(c, ":", 1);
      canon_value(c, json_object_get(v, keys[i]), NULL);
    }
    canon_bytes(c, "}", 1);
    if (keys != small) free(keys);
    break;
  }
  case JSON_ARRAY:
    canon_bytes(c, "[", 1);
    json_array_foreach(v, i, x) {
      if (i) canon_bytes(c, ",", 1);
      canon_value(c, x, NULL);
    }
    canon_bytes(c, "]", 1);
    break;
  case JSON_STRING: canon_string(c, json_string_value(v)); break;
  case JSON_INTEGER:
    canon_bytes(c, buf, (size_t)snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v)));
    break;
  case JSON_TRUE: canon_bytes(c, "true", 4); break;
  case JSON_FALSE: canon_bytes(c, "false", 5); break;
  case JSON_NULL: canon_bytes(c, "null", 4); break;
  default: c->unsure = true;
  }
}

/* digest(root) without jansson's sorted dump where the hash made on the fly is sure (writing
   a big unit's tables took a third of pathcc's own time in that dump and its copy). */
static char *fast_digest(json_t *root) {
  Canon c = { PP_FNV_BASIS, false };
  canon_value(&c, root, "digest");
  return c.unsure ? digest(root) : pp_xasprintf("%016" PRIx64, c.h);
}

/* Does root match the digest want (digest(), every member but "digest")? The hash of the dump
   made on the fly first; jansson's own dump when that is unsure or differs. */
static bool digest_matches(json_t *root, const char *want) {
  Canon c = { PP_FNV_BASIS, false };
  canon_value(&c, root, "digest");
  char got[17];
  snprintf(got, sizeof got, "%016" PRIx64, c.h);
  if (!c.unsure && !strcmp(got, want)) return true;
  char *dg = digest(root);
  bool ok = !strcmp(dg, want);
  free(dg);
  return ok;
}

/* Written aside and renamed, so a reader never sees half a file. */
int pp_tables_write(const PPTables *t, const char *path, char **err) {
  char sum[17];
  snprintf(sum, sizeof sum, "%016" PRIx64, t->checksum);
  json_t *files = json_array(), *funcs = json_array(), *skipped = json_array();
  for (size_t i = 0; i < t->files.n; i++) json_array_append_new(files, json_string(t->files.v[i]));
  for (size_t i = 0; i < t->funcs.n; i++) json_array_append_new(funcs, func_json(&t->funcs.v[i], pp_tables_edge_mode(t)));
  for (size_t i = 0; i < t->skipped.n; i++)
    json_array_append_new(skipped, json_pack("{s:s, s:i, s:i, s:i, s:s}", "name", t->skipped.v[i].name,
                          "file", t->skipped.v[i].file, "line", (int)t->skipped.v[i].line, "end_line",
                          (int)t->skipped.v[i].end_line, "reason", t->skipped.v[i].why));
  json_t *root = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:o, s:I, s:o, s:o, s:o, s:o}",
                           "format", "pathprof-tables", "version", TABLES_VERSION, "checksum", sum,
                           "source", t->source, "mode", t->mode, "decisions", t->conditions ? "conditions" : "statements",
                           "array_limit", u64_str(t->array_limit),
                           "hash_cap", (json_int_t)t->hash_cap, "ncounters", u64_str(t->ncounters),
                           "files", files, "functions", funcs, "skipped", skipped);
  json_object_set_new(root, "counter_bits", json_integer(t->counter_bits == 32 ? 32 : 64));
  if (t->update) json_object_set_new(root, "update", json_string(t->update));
  if (t->continuous) json_object_set_new(root, "continuous", json_true());
  if (t->cwd) json_object_set_new(root, "cwd", json_string(t->cwd));
  if (t->k) json_object_set_new(root, "k", json_integer((json_int_t)t->k));
  char *dg = fast_digest(root);
  json_object_set_new(root, "digest", json_string(dg));
  free(dg);
  char *tmp = pp_xasprintf("%s.tmp.%ld", path, (long)getpid());
  /* dumped to memory and written at once: jansson's file dump calls fwrite per token */
  char *text = json_dumps(root, JSON_COMPACT);
  json_decref(root);
  FILE *f = text ? fopen(tmp, "w") : NULL;
  int rc = !f || fwrite(text, 1, strlen(text), f) != strlen(text);
  if (f && fclose(f)) rc = 1;
  free(text);
  if (rc || rename(tmp, path)) {
    *err = pp_xasprintf("%s: cannot write tables: %s", path, strerror(errno));
    unlink(tmp);
    free(tmp);
    return -1;
  }
  free(tmp);
  return 0;
}

/* ---- reading ---- */

/* A string member, or def when it is missing or not a string. */
static const char *str_or(json_t *o, const char *key, const char *def) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : def;
}

/* A decimal string (NULL: missing): unsigned, or two's complement when it may be negative. */
static int num_text(const char *s, uint64_t *v, bool is_signed) {
  char *end;
  if (!s) return -1;
  errno = 0;
  *v = is_signed ? (uint64_t)strtoll(s, &end, 10) : strtoull(s, &end, 10);
  return *end || errno ? -1 : 0;
}

/* A decimal string member. */
static int get_num(json_t *o, const char *key, uint64_t *v, bool is_signed) {
  return num_text(json_string_value(json_object_get(o, key)), v, is_signed);
}

static int get_u64(json_t *o, const char *key, uint64_t *v) { return get_num(o, key, v, false); }
static int get_i64(json_t *o, const char *key, uint64_t *v) { return get_num(o, key, v, true); }

static int read_blocks(PPGraph *g, json_t *blocks, int nfiles) {
  size_t i;
  json_t *b;
  if (!json_is_array(blocks) || json_array_size(blocks) < 2) return -1;
  json_array_foreach(blocks, i, b) {
    int id = i < 2 ? (int)i : pp_graph_add_block(g);
    json_t *lines = json_object_get(b, "lines"), *l;
    size_t j;
    if (!json_is_array(lines)) return -1;
    g->blocks.v[id].live = json_is_true(json_object_get(b, "live"));
    const char *label = json_string_value(json_object_get(b, "label"));
    if (label) g->blocks.v[id].label = pp_xstrdup(label);
    json_t *pos = json_object_get(b, "pos");
    if (json_is_array(pos)) {
      PPPos ps = { (int)json_integer_value(json_array_get(pos, 0)), (unsigned)json_integer_value(json_array_get(pos, 1)),
                   (unsigned)json_integer_value(json_array_get(pos, 2)) };
      if (ps.file < 0 || ps.file >= nfiles) return -1;
      g->blocks.v[id].pos = ps;
    }
    json_array_foreach(json_object_get(b, "stmts"), j, l) {
      PPStmt st = { (int)json_integer_value(json_array_get(l, 0)), (unsigned)json_integer_value(json_array_get(l, 1)),
                    (unsigned)json_integer_value(json_array_get(l, 2)), json_is_true(json_array_get(l, 3)),
                    json_is_true(json_array_get(l, 4)) };
      if (st.file < 0 || st.file >= nfiles) return -1;
      VEC_PUSH(g->blocks.v[id].stmts, st);
    }
    json_array_foreach(lines, j, l) {
      int file = (int)json_integer_value(json_array_get(l, 0));
      if (file < 0 || file >= nfiles) return -1;
      pp_block_add_lines(g, id, file, (unsigned)json_integer_value(json_array_get(l, 1)),
                         (unsigned)json_integer_value(json_array_get(l, 2)));
    }
  }
  return 0;
}

static int read_edges(PPGraph *g, json_t *edges, uint64_t *vals, int64_t *ppp) {
  size_t i;
  json_t *e;
  if (!json_is_array(edges)) return -1;
  json_array_foreach(edges, i, e) {
    int src = (int)json_integer_value(json_object_get(e, "src")), dst = (int)json_integer_value(json_object_get(e, "dst"));
    const char *k = json_string_value(json_object_get(e, "kind"));
    int kind = k ? pp_edge_kind_parse(k) : -1;
    if (kind < 0 || src < 0 || dst < 0 || (size_t)src >= g->blocks.n || (size_t)dst >= g->blocks.n) return -1;
    int id = pp_graph_add_edge(g, src, dst, (PPEdgeKind)kind);
    if (get_u64(e, "value", &vals[id]) || get_i64(e, "inc", &g->edges.v[id].inc)) return -1;
    uint64_t w = 0;
    if (ppp && get_i64(e, "ppp", &w)) return -1;
    if (ppp) ppp[id] = (int64_t)w;
    g->edges.v[id].chord = json_is_true(json_object_get(e, "chord"));
    json_t *slot = json_object_get(e, "counter");
    if (slot && (!json_is_integer(slot) || json_integer_value(slot) < 0)) return -1;
    g->edges.v[id].slot = slot ? (int)json_integer_value(slot) : -1;
    g->edges.v[id].probe = json_is_true(json_object_get(e, "probe"));
    g->edges.v[id].dispatch = json_is_true(json_object_get(e, "dispatch"));
    const char *ex = json_string_value(json_object_get(e, "exit"));
    g->edges.v[id].exit = !ex ? PP_EXIT_NONE : !strcmp(ex, "return") ? PP_EXIT_RETURN : !strcmp(ex, "fall") ? PP_EXIT_FALL :
                          !strcmp(ex, "noreturn") ? PP_EXIT_NORETURN : PP_EXIT_NONE;
    if (kind == EK_BACK) g->blocks.v[dst].header = true;
  }
  return 0;
}

/* A string array of decimal numbers into v (allocated, n + 1 entries); -1 if malformed. */
static int u64_array(json_t *a, uint64_t **v, size_t *n) {
  size_t i;
  json_t *x;
  if (!json_is_array(a)) return -1;
  *n = json_array_size(a);
  *v = pp_xcalloc(*n + 1, sizeof(uint64_t));
  json_array_foreach(a, i, x)
    if (num_text(json_string_value(x), &(*v)[i], false)) return -1;
  return 0;
}

/* A ppp function's set, renumbered with the rewriter's code: ids and weights must come out again. */
static int read_ppp(PPTabFunc *f, json_t *o, const int64_t *w) {
  uint64_t *bl = NULL, *id = NULL, slots;
  size_t nbl = 0, nid = 0;
  int rc = u64_array(json_object_get(o, "interesting"), &bl, &nbl) || u64_array(json_object_get(o, "ppp_ids"), &id, &nid) ||
           nbl != nid || get_u64(o, "ppp_slots", &slots) ? -1 : 0;
  f->ppp = true;
  f->ppp_bits = (int)json_integer_value(json_object_get(o, "ppp_bits"));
  f->ppp_array = !strcmp(str_or(o, "counter", ""), "ppp");
  if (!rc) {
    int failed = pp_ppp_number(&f->g, bl, nbl, &f->num);
    rc = f->num.n != nbl || (f->ppp_array && (failed || f->num.slots != slots)) ? -1 : 0;
    for (size_t i = 0; !rc && i < nbl; i++)
      if (f->num.bl[i] != bl[i] || (f->ppp_array && f->num.id[i] != id[i])) rc = -1;
    for (size_t i = 0; !rc && f->ppp_array && i < f->g.edges.n; i++)
      if (f->num.w[i] != w[i]) rc = -1;
  }
  free(bl); free(id);
  return rc;
}

/* The call sites of the function's frames, [block, file, line] each (optional key). */
static int read_stops(PPTabFunc *f, json_t *a, int nfiles) {
  size_t i;
  json_t *x;
  if (!a) return 0;
  if (!json_is_array(a)) return -1;
  json_array_foreach(a, i, x) {
    PPStop s = { (int)json_integer_value(json_array_get(x, 0)), (int)json_integer_value(json_array_get(x, 1)),
                 (unsigned)json_integer_value(json_array_get(x, 2)), json_integer_value(json_array_get(x, 3)) == 2 };
    if (!json_is_array(x) || s.block < 0 || (size_t)s.block >= f->g.blocks.n || s.file < 0 || s.file >= nfiles) return -1;
    VEC_PUSH(f->stops, s);
  }
  return 0;
}

/* Edge mode's stop groups, [site, slot] each (optional key): a site the stops name, a slot of
   the function's counters, and no group of a block after its last. */
static int read_splits(PPTabFunc *f, json_t *a) {
  size_t i;
  json_t *x;
  if (!a) return 0;
  if (!json_is_array(a)) return -1;
  bool *closed = pp_xcalloc(f->g.blocks.n + 1, sizeof(bool));
  int rc = 0;
  json_array_foreach(a, i, x) {
    PPSplit s = { (int)json_integer_value(json_array_get(x, 0)), (int)json_integer_value(json_array_get(x, 1)) };
    if (!json_is_array(x) || json_array_size(x) != 2 || s.site < 0 || (size_t)s.site >= f->stops.n ||
        s.slot < PP_SPLIT_LAST || s.slot >= f->counters || closed[f->stops.v[s.site].block]) { rc = -1; break; }
    closed[f->stops.v[s.site].block] = s.slot == PP_SPLIT_LAST;
    VEC_PUSH(f->splits, s);
  }
  free(closed);
  return rc;
}

/* A derived function's calls (derived_json); their functions and blocks are checked once the
   unit's functions are all read (check_derived). */
static int read_derived(PPTabFunc *f, json_t *a) {
  size_t i, k;
  json_t *x, *s;
  if (!json_is_array(a)) return -1;
  json_array_foreach(a, i, x) {
    json_t *after = json_array_get(x, 2);
    PPDerivedCall c = { (int)json_integer_value(json_array_get(x, 0)), (int)json_integer_value(json_array_get(x, 1)), {0} };
    if (!json_is_array(x) || json_array_size(x) != 3 || !json_is_array(after)) return -1;
    json_array_foreach(after, k, s) VEC_PUSH(c.after, (int)json_integer_value(s));
    VEC_PUSH(f->from, c);
  }
  return 0;
}

/* Every derived function has one path and names calls from counted functions of the unit, in
   blocks those functions have, stopping at sites they have. */
static int check_derived(const PPTables *t) {
  for (size_t i = 0; i < t->funcs.n; i++) {
    const PPTabFunc *f = &t->funcs.v[i];
    if (!f->derived) continue;
    if (f->g.npaths != 1 || f->hash || f->kpath || f->ppp) return -1;
    for (size_t k = 0; k < f->from.n; k++) {
      const PPDerivedCall *c = &f->from.v[k];
      if (c->fn < 0 || (size_t)c->fn >= t->funcs.n || t->funcs.v[c->fn].derived) return -1;
      const PPTabFunc *g = &t->funcs.v[c->fn];
      if (c->block < 0 || (size_t)c->block >= g->g.blocks.n) return -1;
      for (size_t s = 0; s < c->after.n; s++)
        if (c->after.v[s] <= 0 || (size_t)c->after.v[s] >= g->stops.n) return -1;
    }
  }
  return 0;
}

/* Rebuilds one function's DAG and renumbers it; the stored values must come out again. */
static int read_func(PPTabFunc *f, json_t *o, int nfiles, bool ppp) {
  const char *name = json_string_value(json_object_get(o, "name"));
  json_t *edges = json_object_get(o, "edges");
  uint64_t paths;
  if (!name || get_u64(o, "paths", &paths) || !json_is_array(edges)) return -1;
  f->name = pp_xstrdup(name);
  f->file = (int)json_integer_value(json_object_get(o, "file"));
  f->line = (unsigned)json_integer_value(json_object_get(o, "line"));
  f->end_line = (unsigned)json_integer_value(json_object_get(o, "end_line"));
  f->name_line = (unsigned)json_integer_value(json_object_get(o, "name_line"));
  if (json_object_get(o, "source_hash") && get_u64(o, "source_hash", &f->src_hash)) return -1;
  f->hash = !strcmp(str_or(o, "counter", ""), "hash");
  f->kpath = !strcmp(str_or(o, "counter", ""), "kpath");
  f->derived = !strcmp(str_or(o, "counter", ""), "derived");
  f->probes = (int)json_integer_value(json_object_get(o, "probes"));
  f->cfg_edges = (int)json_integer_value(json_object_get(o, "cfg_edges"));
  if (!f->hash && !f->kpath && !f->derived && get_u64(o, "offset", &f->offset)) return -1;
  if (f->derived && read_derived(f, json_object_get(o, "derived"))) return -1;
  json_t *entry = json_object_get(o, "entry_counter");
  f->counters = (int)json_integer_value(json_object_get(o, "counters"));
  f->entry_slot = entry ? (int)json_integer_value(entry) : -1;
  if (f->counters < 0 || f->entry_slot >= f->counters || (entry && f->entry_slot < 0)) return -1;
  if (ppp && !json_object_get(o, "interesting")) return -1;
  pp_graph_init(&f->g);
  if (f->file < 0 || f->file >= nfiles || read_blocks(&f->g, json_object_get(o, "blocks"), nfiles)) return -1;
  uint64_t *vals = pp_xcalloc(json_array_size(edges) + 1, sizeof(uint64_t));
  int64_t *w = ppp ? pp_xcalloc(json_array_size(edges) + 1, sizeof(int64_t)) : NULL;
  int rc = read_edges(&f->g, edges, vals, w);
  if (!rc) {
    pp_graph_index(&f->g);
    int *order = pp_xmalloc(sizeof(int) * f->g.blocks.n);
    int k = pp_graph_topo(&f->g, order);
    rc = k < 1 || order[0] != PP_ENTRY ? -1 : 0;  /* numbering needs a DAG that starts at the entry */
    free(order);
  }
  if (!rc && pp_number_paths(&f->g) != paths) rc = -1;
  for (size_t i = 0; !rc && i < f->g.edges.n; i++) {
    if (pp_edge_in_dag(&f->g.edges.v[i]) && f->g.edges.v[i].val != vals[i]) rc = -1;
    if (f->g.edges.v[i].slot >= f->counters) rc = -1;
  }
  if (!rc && ppp) rc = read_ppp(f, o, w);
  if (!rc) rc = pp_decisions_read(&f->g, json_object_get(o, "decisions"), nfiles);
  if (!rc) rc = read_stops(f, json_object_get(o, "stops"), nfiles);
  if (!rc) rc = read_splits(f, json_object_get(o, "splits"));
  free(vals);
  free(w);
  return rc;
}

/* Reads the tables held in root (which it consumes); path names them in messages. */
static int tables_from_json(json_t *root, const char *path, PPTables *t, char **err) {
  const char *fmt = json_string_value(json_object_get(root, "format"));
  const char *sum = json_string_value(json_object_get(root, "checksum"));
  json_t *files = json_object_get(root, "files"), *funcs = json_object_get(root, "functions"), *x;
  size_t i;
  int rc = -1;
  if (!fmt || strcmp(fmt, "pathprof-tables") || !sum || !json_is_array(files) || !json_is_array(funcs)) {
    *err = pp_xasprintf("%s: not a pathprof tables file", path);
    goto done;
  }
  if (json_integer_value(json_object_get(root, "version")) != TABLES_VERSION) {
    *err = pp_xasprintf("%s: tables version %d, this pathprof reads version %d", path,
                        (int)json_integer_value(json_object_get(root, "version")), TABLES_VERSION);
    goto done;
  }
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  bool intact = digest_matches(root, str_or(root, "digest", ""));
#else
  bool intact = true;  /* fuzz builds reach the function reader with any digest */
#endif
  if (!intact) {
    *err = pp_xasprintf("%s: tables damaged: their content does not match their digest (changed since pathcc "
                        "wrote them)", path);
    goto done;
  }
  t->checksum = strtoull(sum, NULL, 16);
  t->source = pp_xstrdup(str_or(root, "source", "?"));
  t->mode = pp_xstrdup(str_or(root, "mode", "path"));
  t->cwd = json_string_value(json_object_get(root, "cwd")) ? pp_xstrdup(str_or(root, "cwd", "")) : NULL;
  t->conditions = !strcmp(str_or(root, "decisions", "statements"), "conditions");
  t->k = (unsigned)json_integer_value(json_object_get(root, "k"));
  get_u64(root, "ncounters", &t->ncounters);
  get_u64(root, "array_limit", &t->array_limit);
  t->hash_cap = (unsigned long)json_integer_value(json_object_get(root, "hash_cap"));
  t->counter_bits = json_integer_value(json_object_get(root, "counter_bits")) == 32 ? 32 : 64;
  json_array_foreach(files, i, x) VEC_PUSH(t->files, pp_xstrdup(json_is_string(x) ? json_string_value(x) : "?"));
  if (!t->files.n) VEC_PUSH(t->files, pp_xstrdup("?"));  /* so every file index below can be clamped to 0 */
  json_array_foreach(funcs, i, x) {
    PPTabFunc f;
    memset(&f, 0, sizeof f);
    int bad = read_func(&f, x, (int)t->files.n, !strcmp(t->mode, "ppp"));
    VEC_PUSH(t->funcs, f);
    if (bad) {
      *err = pp_xasprintf("%s: function %zu (%s) is damaged or does not renumber to its stored values", path, i,
                          f.name ? f.name : "?");
      goto done;
    }
  }
  json_array_foreach(json_object_get(root, "skipped"), i, x) {
    PPTabSkip s = { pp_xstrdup(str_or(x, "name", "?")), (int)json_integer_value(json_object_get(x, "file")),
                    (unsigned)json_integer_value(json_object_get(x, "line")), pp_xstrdup(str_or(x, "reason", "?")), false,
                    (unsigned)json_integer_value(json_object_get(x, "end_line")) };
    if (s.file < 0 || (size_t)s.file >= t->files.n) s.file = 0;
    VEC_PUSH(t->skipped, s);
  }
  if (check_derived(t)) {
    *err = pp_xasprintf("%s: a derived function names calls the unit does not have", path);
    goto done;
  }
  rc = 0;
done:
  json_decref(root);
  if (rc) pp_tables_free(t);
  return rc;
}

/* The file is read whole, then parsed: jansson's own file reader takes a character at a time. */
int pp_tables_read(const char *path, PPTables *t, char **err) {
  size_t len;
  char *text = pp_read_file(path, &len);
  if (!text) {
    memset(t, 0, sizeof *t);
    *err = pp_xasprintf("%s: not a readable tables file: %s", path, strerror(errno));
    return -1;
  }
  int rc = pp_tables_parse(text, len, path, t, err);
  free(text);
  return rc;
}

int pp_tables_parse(const char *buf, size_t len, const char *name, PPTables *t, char **err) {
  json_error_t je;
  memset(t, 0, sizeof *t);
  json_t *root = json_loadb(buf, len, 0, &je);
  if (!root) {
    *err = pp_xasprintf("%s: not a readable tables file: %s (line %d)", name, je.text, je.line);
    return -1;
  }
  return tables_from_json(root, name, t, err);
}

void pp_tables_free(PPTables *t) {
  for (size_t i = 0; i < t->files.n; i++) free(t->files.v[i]);
  for (size_t i = 0; i < t->funcs.n; i++) {
    free(t->funcs.v[i].name);
    pp_graph_free(&t->funcs.v[i].g);
    pp_ppp_free(&t->funcs.v[i].num);
    VEC_FREE(t->funcs.v[i].stops);
    VEC_FREE(t->funcs.v[i].splits);
    for (size_t k = 0; k < t->funcs.v[i].from.n; k++) VEC_FREE(t->funcs.v[i].from.v[k].after);
    VEC_FREE(t->funcs.v[i].from);
  }
  for (size_t i = 0; i < t->skipped.n; i++) { free(t->skipped.v[i].name); free(t->skipped.v[i].why); }
  VEC_FREE(t->files); VEC_FREE(t->funcs); VEC_FREE(t->skipped);
  free(t->source); free(t->mode); free(t->cwd);
  memset(t, 0, sizeof *t);
}
