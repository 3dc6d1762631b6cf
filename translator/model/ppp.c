/* Preferential path numbering: ComputePPPIncrements over a set of interesting Ball-Larus paths. */
#include "ppp.h"
#include "number.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT ((int64_t)1 << 62)

/* The interesting paths as edge lists, with the Ball-Larus prefix sum before each edge
   (a prefix's key: distinct prefixes to one node have distinct sums) and the partial id. */
typedef struct {
  int **edges, *len;
  uint64_t **pre;
  int64_t *pid;
} Paths;

/* One interesting path passing a node: which path, the position of its edge out of the node,
   and the rank of its prefix among the node's prefixes. */
typedef struct { int path, pos, rank; uint64_t prefix; } Visit;

/* qsort orders: ids ascending; visits by prefix key. */
static int by_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int by_prefix(const void *a, const void *b) {
  const Visit *x = a, *y = b;
  return x->prefix < y->prefix ? -1 : x->prefix > y->prefix;
}

/* The distinct ids of ids[] that are paths of g, ascending, into out; returns their count. */
static size_t clean_ids(const PPGraph *g, const uint64_t *ids, size_t n, uint64_t *out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (ids[i] < g->npaths) out[k++] = ids[i];
  pp_sort(out, k, sizeof *out, by_u64);
  size_t m = 0;
  for (size_t i = 0; i < k; i++)
    if (!m || out[m - 1] != out[i]) out[m++] = out[i];
  return m;
}

/* Decodes each id into its edges and prefix sums; pid starts at 0 (Figure 10, assumption c). */
static void decode_paths(const PPGraph *g, const uint64_t *ids, size_t n, Paths *p) {
  int cap = (int)g->edges.n + 1;
  p->edges = pp_xcalloc(n, sizeof(int *));
  p->pre = pp_xcalloc(n, sizeof(uint64_t *));
  p->len = pp_xcalloc(n, sizeof(int));
  p->pid = pp_xcalloc(n, sizeof(int64_t));
  for (size_t i = 0; i < n; i++) {
    p->edges[i] = pp_xmalloc(sizeof(int) * (size_t)cap);
    p->len[i] = pp_number_decode(g, ids[i], p->edges[i], cap);
    assert(p->len[i] > 0);
    p->pre[i] = pp_xmalloc(sizeof(uint64_t) * (size_t)p->len[i]);
    uint64_t s = 0;
    for (int k = 0; k < p->len[i]; k++) {
      p->pre[i][k] = s;
      s += g->edges.v[p->edges[i][k]].val;
    }
  }
}

/* Frees what decode_paths allocated. */
static void free_paths(Paths *p, size_t n) {
  for (size_t i = 0; i < n; i++) { free(p->edges[i]); free(p->pre[i]); }
  free(p->edges); free(p->pre); free(p->len); free(p->pid);
}

/* Ranks the visits' prefixes 0..r-1 (equal prefix, equal rank); returns r. */
static int rank_prefixes(Visit *vs, int m) {
  pp_sort(vs, (size_t)m, sizeof *vs, by_prefix);
  int r = -1;
  for (int i = 0; i < m; i++) {
    if (!i || vs[i].prefix != vs[i - 1].prefix) r++;
    vs[i].rank = r;
  }
  return r + 1;
}

/* Figure 10 for one node: each out-edge, in out-list order, gets the largest weight any prefix
   needs to put its interval after that prefix's intervals on earlier edges (the join); then the
   partial ids of its paths move by that weight and each prefix's cumulative size grows. */
static int process_node(const PPGraph *g, int v, Visit *vs, int m, Paths *p, int64_t *w) {
  int nr = rank_prefixes(vs, m), rc = 0;
  int64_t *cis = pp_xcalloc((size_t)nr, sizeof(int64_t)), *mn = pp_xmalloc(sizeof(int64_t) * (size_t)nr);
  char *has = pp_xmalloc((size_t)nr);
  PP_OUT_FOR(g, v, j) {
    int e = g->out_edges[j];
    int64_t W = 0;
    bool any = false;
    memset(has, 0, (size_t)nr);
    for (int i = 0; i < m; i++) {
      if (p->edges[vs[i].path][vs[i].pos] != e) continue;
      int64_t pid = p->pid[vs[i].path];
      if (!has[vs[i].rank] || pid < mn[vs[i].rank]) mn[vs[i].rank] = pid;
      has[vs[i].rank] = 1;
    }
    for (int r = 0; r < nr; r++)
      if (has[r] && (!any || cis[r] - mn[r] > W)) { W = cis[r] - mn[r]; any = true; }
    if (!any) continue;
    if (W >= LIMIT || W <= -LIMIT) { rc = -1; break; }
    w[e] = W;
    for (int i = 0; i < m; i++) {
      if (p->edges[vs[i].path][vs[i].pos] != e) continue;
      int64_t *pid = &p->pid[vs[i].path];
      *pid += W;
      if (*pid >= LIMIT || *pid <= -LIMIT) { rc = -1; break; }
      if (*pid + 1 > cis[vs[i].rank]) cis[vs[i].rank] = *pid + 1;
    }
    if (rc) break;
  }
  free(cis); free(mn); free(has);
  return rc;
}

/* Groups the paths' steps by the node they leave, as CSR over the nodes. */
static Visit *visits_by_node(const PPGraph *g, const Paths *p, size_t n, int **startp) {
  int nb = (int)g->blocks.n, total = 0;
  int *start = pp_xcalloc((size_t)nb + 1, sizeof(int));
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < p->len[i]; k++) { start[g->edges.v[p->edges[i][k]].src + 1]++; total++; }
  for (int v = 0; v < nb; v++) start[v + 1] += start[v];
  int *pos = pp_xmalloc(sizeof(int) * (size_t)nb);
  memcpy(pos, start, sizeof(int) * (size_t)nb);
  Visit *vs = pp_xmalloc(sizeof(Visit) * (size_t)(total + 1));
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < p->len[i]; k++) {
      Visit x = { (int)i, k, 0, p->pre[i][k] };
      vs[pos[g->edges.v[p->edges[i][k]].src]++] = x;
    }
  free(pos);
  *startp = start;
  return vs;
}

/* Figure 10 over every node in reverse topological order; at the entry, the paths' partial ids
   are their PPP ids. */
int pp_ppp_number(const PPGraph *g, const uint64_t *ids, size_t n, PPPNumbering *out) {
  memset(out, 0, sizeof *out);
  out->bl = pp_xmalloc(sizeof(uint64_t) * (n + 1));
  out->n = clean_ids(g, ids, n, out->bl);
  out->id = pp_xcalloc(out->n + 1, sizeof(uint64_t));
  out->w = pp_xcalloc(g->edges.n + 1, sizeof(int64_t));
  if (!out->n) return 0;
  Paths p;
  decode_paths(g, out->bl, out->n, &p);
  int *start, *order = pp_xmalloc(sizeof(int) * g->blocks.n), rc = 0;
  Visit *vs = visits_by_node(g, &p, out->n, &start);
  int k = pp_graph_topo(g, order);
  assert(k > 0);
  for (int i = k - 1; i >= 0 && !rc; i--) {
    int v = order[i];
    if (start[v + 1] > start[v]) rc = process_node(g, v, vs + start[v], start[v + 1] - start[v], &p, out->w);
  }
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < out->n && !rc; i++) {
    if (!i || p.pid[i] < lo) lo = p.pid[i];
    if (!i || p.pid[i] > hi) hi = p.pid[i];
    out->id[i] = (uint64_t)p.pid[i];
  }
  assert(rc || lo == 0);  /* the entry's single prefix starts its interval at 0 */
  out->slots = rc ? 0 : (uint64_t)hi + 1;
  if (rc) {  /* the set stays known; no path has an id */
    memset(out->id, 0, sizeof(uint64_t) * out->n);
    memset(out->w, 0, sizeof(int64_t) * g->edges.n);
  }
  free(order); free(start); free(vs);
  free_paths(&p, out->n);
  return rc;
}

double pp_ppp_lambda(const PPPNumbering *p) {
  return p->n ? (double)p->slots / (double)p->n : 0.0;
}

int pp_ppp_bits(uint64_t npaths) {
  int k = 0;
  while (k < 63 && (1ULL << k) < npaths) k++;
  return k;
}

uint64_t pp_ppp_combined(int64_t w, uint64_t val, int k) {
  assert(k >= 0 && k < 64);
  return ((uint64_t)w << k) + val;
}

int64_t pp_ppp_slot(const PPPNumbering *p, uint64_t bl) {
  size_t lo = 0, hi = p->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->bl[mid] < bl) lo = mid + 1;
    else hi = mid;
  }
  return lo < p->n && p->bl[lo] == bl ? (int64_t)p->id[lo] : -1;
}

uint64_t pp_ppp_table_size(const PPPNumbering *p) {
  uint64_t n = 1;
  while (n < p->slots) n *= 2;
  return n;
}

uint64_t *pp_ppp_expect(const PPPNumbering *p, int k) {
  uint64_t n = pp_ppp_table_size(p);
  uint64_t *e = pp_xmalloc(sizeof(uint64_t) * (size_t)n);
  char *set = pp_xcalloc((size_t)n, 1);
  for (size_t i = 0; i < p->n; i++) {
    assert(!set[p->id[i]]);  /* distinct ids */
    set[p->id[i]] = 1;
    e[p->id[i]] = pp_ppp_combined((int64_t)p->id[i], p->bl[i], k);
  }
  for (uint64_t s = 0; s < n; s++)
    if (!set[s]) e[s] = (s ^ 1) << k;  /* its slot field names another slot: never equal */
  free(set);
  return e;
}

void pp_ppp_free(PPPNumbering *p) {
  free(p->bl); free(p->id); free(p->w);
  memset(p, 0, sizeof *p);
}
