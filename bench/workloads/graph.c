/* bench workload: graph algorithms.
   Each round generates a random weighted directed graph (clustered, so it has non-trivial
   strongly connected components) in CSR form and runs Dijkstra with a binary heap from a
   few sources, BFS, Tarjan's SCC (iterative) and Kosaraju's SCC, and a topological order
   of the condensation.  Checks: distances satisfy every edge's triangle inequality and each
   reached vertex has a tight incoming edge; both SCC algorithms give the same partition;
   every condensation edge goes forward in the topological order; BFS levels are consistent.
   Usage: graph [SCALE]  (rounds, default 35) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned int u32;
static unsigned long long seed = 0x853c49e6748fea9bULL;
static u32 rnd(u32 n) { seed = seed * 6364136223846793005ULL + 1442695040888963407ULL; return (u32)(seed >> 33) % n; }

struct graph { int n, m; int *off, *dst, *w; };

static void build(struct graph *g, int n, int m, int *esrc, int *edst, int *ew)
{
  int i, *pos;
  g->n = n; g->m = m;
  g->off = calloc((size_t)n + 1, sizeof *g->off);
  g->dst = malloc((size_t)m * sizeof *g->dst);
  g->w = malloc((size_t)m * sizeof *g->w);
  pos = malloc((size_t)n * sizeof *pos);
  if (!g->off || !g->dst || !g->w || !pos) exit(2);
  for (i = 0; i < m; i++) g->off[esrc[i] + 1]++;
  for (i = 0; i < n; i++) g->off[i + 1] += g->off[i];
  memcpy(pos, g->off, (size_t)n * sizeof *pos);
  for (i = 0; i < m; i++) { int p = pos[esrc[i]]++; g->dst[p] = edst[i]; g->w[p] = ew ? ew[i] : 1; }
  free(pos);
}

static void release(struct graph *g) { free(g->off); free(g->dst); free(g->w); }

/* ---------- Dijkstra with a binary heap of (dist, vertex), lazy deletion ---------- */
struct item { long d; int v; };
static long *dist;
static struct item *heap;
static int nheap;

static void push(long d, int v)
{
  int k = nheap++;
  while (k > 0 && heap[(k - 1) / 2].d > d) { heap[k] = heap[(k - 1) / 2]; k = (k - 1) / 2; }
  heap[k].d = d; heap[k].v = v;
}

static struct item pop(void)
{
  struct item top = heap[0], last = heap[--nheap];
  int k = 0;
  for (;;) {
    int c = 2 * k + 1;
    if (c >= nheap) break;
    if (c + 1 < nheap && heap[c + 1].d < heap[c].d) c++;
    if (heap[c].d >= last.d) break;
    heap[k] = heap[c];
    k = c;
  }
  heap[k] = last;
  return top;
}

static void dijkstra(const struct graph *g, int s)
{
  int i;
  for (i = 0; i < g->n; i++) dist[i] = -1;
  nheap = 0;
  dist[s] = 0;
  push(0, s);
  while (nheap) {
    struct item it = pop();
    int e;
    if (it.d != dist[it.v]) continue;
    for (e = g->off[it.v]; e < g->off[it.v + 1]; e++) {
      int v = g->dst[e];
      long nd = it.d + g->w[e];
      if (dist[v] < 0 || nd < dist[v]) { dist[v] = nd; push(nd, v); }
    }
  }
}

static int check_sp(const struct graph *g, int s)
{
  int u, e;
  char *tight = calloc((size_t)g->n, 1);
  int ok = dist[s] == 0;
  if (!tight) exit(2);
  for (u = 0; u < g->n; u++) {
    if (dist[u] < 0) continue;
    for (e = g->off[u]; e < g->off[u + 1]; e++) {
      int v = g->dst[e];
      if (dist[v] < 0 || dist[v] > dist[u] + g->w[e]) ok = 0;
      else if (dist[v] == dist[u] + g->w[e]) tight[v] = 1;
    }
  }
  for (u = 0; u < g->n; u++)
    if (dist[u] > 0 && !tight[u]) ok = 0;
  free(tight);
  return ok;
}

/* ---------- BFS ---------- */
static long bfs(const struct graph *g, int s, int *level, int *queue)
{
  int head = 0, tail = 0, i, e;
  long sum = 0;
  for (i = 0; i < g->n; i++) level[i] = -1;
  level[s] = 0; queue[tail++] = s;
  while (head < tail) {
    int u = queue[head++];
    sum += level[u];
    for (e = g->off[u]; e < g->off[u + 1]; e++)
      if (level[g->dst[e]] < 0) { level[g->dst[e]] = level[u] + 1; queue[tail++] = g->dst[e]; }
  }
  return sum;
}

/* ---------- Tarjan, iterative ---------- */
static int tarjan(const struct graph *g, int *comp)
{
  int n = g->n, idx = 0, nc = 0, sp = 0, cs = 0, i;
  int *index = malloc((size_t)n * sizeof *index), *low = malloc((size_t)n * sizeof *low);
  int *stack = malloc((size_t)n * sizeof *stack), *call = malloc((size_t)n * sizeof *call);
  int *edge = malloc((size_t)n * sizeof *edge);
  char *on = calloc((size_t)n, 1);
  if (!index || !low || !stack || !call || !edge || !on) exit(2);
  for (i = 0; i < n; i++) index[i] = -1;
  for (i = 0; i < n; i++) {
    if (index[i] >= 0) continue;
    call[cs] = i; edge[cs] = g->off[i]; cs++;
    index[i] = low[i] = idx++; stack[sp++] = i; on[i] = 1;
    while (cs) {
      int u = call[cs - 1];
      if (edge[cs - 1] < g->off[u + 1]) {
        int v = g->dst[edge[cs - 1]++];
        if (index[v] < 0) {
          index[v] = low[v] = idx++; stack[sp++] = v; on[v] = 1;
          call[cs] = v; edge[cs] = g->off[v]; cs++;
        } else if (on[v] && index[v] < low[u])
          low[u] = index[v];
      } else {
        cs--;
        if (low[u] == index[u]) {
          int v;
          do { v = stack[--sp]; on[v] = 0; comp[v] = nc; } while (v != u);
          nc++;
        }
        if (cs && low[u] < low[call[cs - 1]]) low[call[cs - 1]] = low[u];
      }
    }
  }
  free(index); free(low); free(stack); free(call); free(edge); free(on);
  return nc;
}

/* ---------- Kosaraju: order by finish time on g, then sweep the transpose ---------- */
static int kosaraju(const struct graph *g, const struct graph *gt, int *comp)
{
  int n = g->n, i, nord = 0, nc = 0, cs;
  int *order = malloc((size_t)n * sizeof *order), *call = malloc((size_t)n * sizeof *call);
  int *edge = malloc((size_t)n * sizeof *edge);
  char *seen = calloc((size_t)n, 1);
  if (!order || !call || !edge || !seen) exit(2);
  for (i = 0; i < n; i++) {
    if (seen[i]) continue;
    cs = 0; call[cs] = i; edge[cs] = g->off[i]; cs++; seen[i] = 1;
    while (cs) {
      int u = call[cs - 1];
      if (edge[cs - 1] < g->off[u + 1]) {
        int v = g->dst[edge[cs - 1]++];
        if (!seen[v]) { seen[v] = 1; call[cs] = v; edge[cs] = g->off[v]; cs++; }
      } else { order[nord++] = u; cs--; }
    }
  }
  for (i = 0; i < n; i++) comp[i] = -1;
  for (i = n - 1; i >= 0; i--) {
    int s = order[i];
    if (comp[s] >= 0) continue;
    cs = 0; call[cs++] = s; comp[s] = nc;
    while (cs) {
      int u = call[--cs], e;
      for (e = gt->off[u]; e < gt->off[u + 1]; e++)
        if (comp[gt->dst[e]] < 0) { comp[gt->dst[e]] = nc; call[cs++] = gt->dst[e]; }
    }
    nc++;
  }
  free(order); free(call); free(edge); free(seen);
  return nc;
}

/* same partition: the map between labels must be a bijection */
static int same_partition(const int *a, const int *b, int n, int nc)
{
  int *map = malloc((size_t)nc * sizeof *map), *back = malloc((size_t)nc * sizeof *back), i, ok = 1;
  if (!map || !back) exit(2);
  for (i = 0; i < nc; i++) map[i] = back[i] = -1;
  for (i = 0; i < n && ok; i++) {
    if (a[i] >= nc || b[i] >= nc || a[i] < 0 || b[i] < 0) { ok = 0; break; }
    if (map[a[i]] < 0 && back[b[i]] < 0) { map[a[i]] = b[i]; back[b[i]] = a[i]; }
    else if (map[a[i]] != b[i] || back[b[i]] != a[i]) ok = 0;
  }
  free(map); free(back);
  return ok;
}

/* Kahn's algorithm on the condensation; returns 1 if every condensation edge goes forward */
static int topo_check(const struct graph *g, const int *comp, int nc)
{
  int *indeg = calloc((size_t)nc, sizeof *indeg), *pos = malloc((size_t)nc * sizeof *pos);
  int *queue = malloc((size_t)nc * sizeof *queue), *cs = malloc((size_t)g->m * sizeof *cs);
  int *cd = malloc((size_t)g->m * sizeof *cd), m = 0, u, e, head = 0, tail = 0, ok = 1, k = 0;
  struct graph c;
  if (!indeg || !pos || !queue || !cs || !cd) exit(2);
  for (u = 0; u < g->n; u++)
    for (e = g->off[u]; e < g->off[u + 1]; e++)
      if (comp[u] != comp[g->dst[e]]) { cs[m] = comp[u]; cd[m] = comp[g->dst[e]]; m++; }
  build(&c, nc, m, cs, cd, 0);
  for (e = 0; e < m; e++) indeg[c.dst[e]]++;
  for (u = 0; u < nc; u++) if (!indeg[u]) queue[tail++] = u;
  while (head < tail) {
    u = queue[head++];
    pos[u] = k++;
    for (e = c.off[u]; e < c.off[u + 1]; e++)
      if (--indeg[c.dst[e]] == 0) queue[tail++] = c.dst[e];
  }
  if (k != nc) ok = 0;
  for (u = 0; u < nc && ok; u++)
    for (e = c.off[u]; e < c.off[u + 1]; e++)
      if (pos[u] >= pos[c.dst[e]]) ok = 0;
  release(&c);
  free(indeg); free(pos); free(queue); free(cs); free(cd);
  return ok;
}

int main(int argc, char **argv)
{
  long rounds = argc > 1 ? atol(argv[1]) : 35, r;
  int n = 40000, m = 160000, i, bad = 0;
  int *es = malloc((size_t)m * sizeof *es), *ed = malloc((size_t)m * sizeof *ed), *ew = malloc((size_t)m * sizeof *ew);
  int *c1 = malloc((size_t)n * sizeof *c1), *c2 = malloc((size_t)n * sizeof *c2);
  int *level = malloc((size_t)n * sizeof *level), *queue = malloc((size_t)n * sizeof *queue);
  unsigned long long sum = 0;
  dist = malloc((size_t)n * sizeof *dist);
  heap = malloc((size_t)(m + 1) * sizeof *heap);
  if (!es || !ed || !ew || !c1 || !c2 || !level || !queue || !dist || !heap) return 2;
  for (r = 0; r < rounds && !bad; r++) {
    struct graph g, gt;
    int nc1, nc2, s, k;
    for (i = 0; i < m; i++) {
      int u = (int)rnd((u32)n), v;
      if (rnd(10) < 8) v = (u / 50) * 50 + (int)rnd(50);         /* inside a cluster */
      else v = (int)rnd((u32)n);
      if (v >= n) v = n - 1;
      es[i] = u; ed[i] = v; ew[i] = 1 + (int)rnd(100);
    }
    build(&g, n, m, es, ed, ew);
    build(&gt, n, m, ed, es, ew);
    for (k = 0; k < 3; k++) {
      s = (int)rnd((u32)n);
      dijkstra(&g, s);
      if (!check_sp(&g, s)) { fprintf(stderr, "round %ld: shortest paths from %d wrong\n", r, s); bad = 1; }
      for (i = 0; i < n; i += 101) sum = sum * 31 + (unsigned long long)(dist[i] + 1);
    }
    s = (int)rnd((u32)n);
    sum = sum * 31 + (unsigned long long)bfs(&g, s, level, queue);
    for (i = 0; i < n && !bad; i++) {                            /* BFS levels: |edge| <= 1 step */
      int e;
      if (level[i] < 0) continue;
      for (e = g.off[i]; e < g.off[i + 1]; e++)
        if (level[g.dst[e]] < 0 || level[g.dst[e]] > level[i] + 1) { fprintf(stderr, "round %ld: bfs wrong\n", r); bad = 1; break; }
    }
    nc1 = tarjan(&g, c1);
    nc2 = kosaraju(&g, &gt, c2);
    if (nc1 != nc2 || !same_partition(c1, c2, n, nc1)) { fprintf(stderr, "round %ld: SCCs differ (%d, %d)\n", r, nc1, nc2); bad = 1; }
    if (!topo_check(&g, c1, nc1)) { fprintf(stderr, "round %ld: condensation not acyclic\n", r); bad = 1; }
    sum = sum * 31 + (unsigned long long)nc1;
    release(&g); release(&gt);
  }
  printf("graph: %ld rounds, checksum %016llx\n", rounds, sum);
  puts(bad ? "FAIL" : "PASS");
  free(es); free(ed); free(ew); free(c1); free(c2); free(level); free(queue); free(dist); free(heap);
  return bad;
}
