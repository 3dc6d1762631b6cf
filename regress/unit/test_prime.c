/* Prime paths: the worked example of Ammann and Offutt's "Introduction to Software Testing" (a
   loop, a self-loop and a branch: 8 prime paths), the back edges each takes, the enumeration
   limit, and random CFGs of up to 7 blocks against a brute-force finder that shares no code with the
   derivation (every simple path and cycle by depth-first search, then those inside no longer
   one, compared as sorted lists). */
#include "check.h"
#include "pathprof/prime.h"
#include <stdlib.h>
#include <string.h>

/* A graph of n nodes: node 0 is the entry block, node i > 0 block i + 1 (block 1 is the exit,
   which prime paths leave out); edges[2k], edges[2k+1], back[k]: the k-th edge and whether it is
   a back edge. */
static int block_of(int v) { return v ? v + 1 : 0; }

static void make(PPGraph *g, int n, const int *edges, const bool *back, int ne) {
  pp_graph_init(g);
  for (int v = 1; v < n; v++) pp_graph_add_block(g);
  for (size_t b = 0; b < g->blocks.n; b++) g->blocks.v[b].live = true;
  for (int k = 0; k < ne; k++)
    pp_graph_add_edge(g, block_of(edges[2 * k]), block_of(edges[2 * k + 1]), back && back[k] ? EK_BACK : EK_NORMAL);
  pp_graph_add_edge(g, block_of(n - 1), 1, EK_EXIT);
}

/* A path as text: "0 1 2 3" in node numbers. */
static void text(char *out, size_t cap, const int *b, int n) {
  size_t o = 0;
  out[0] = 0;
  for (int i = 0; i < n && o + 12 < cap; i++) o += (size_t)snprintf(out + o, cap - o, "%s%d", i ? " " : "", b[i] ? b[i] - 1 : 0);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The prime paths pp_prime_enumerate finds, as sorted text lines joined by '|'. */
static char *derived(const PPGraph *g, size_t limit, int *rc, PPPrimeFunc *pf) {
  memset(pf, 0, sizeof *pf);
  *rc = pp_prime_enumerate(g, limit, pf);
  char **s = malloc(sizeof(char *) * (pf->paths.n + 1)), buf[512];
  size_t len = 1;
  for (size_t i = 0; i < pf->paths.n; i++) {
    text(buf, sizeof buf, pf->paths.v[i].blocks, pf->paths.v[i].n);
    s[i] = strdup(buf);
    len += strlen(buf) + 1;
  }
  qsort(s, pf->paths.n, sizeof *s, cmp_str);
  char *r = calloc(len, 1);
  for (size_t i = 0; i < pf->paths.n; i++) {
    if (i) strcat(r, "|");
    strcat(r, s[i]);
    free(s[i]);
  }
  free(s);
  return r;
}

static void free_pf(PPPrimeFunc *pf) {
  for (size_t i = 0; i < pf->paths.n; i++) free(pf->paths.v[i].blocks);
  VEC_FREE(pf->paths);
}

/* ---- the brute-force finder: adjacency matrix, depth-first search ---- */

#define MAXN 7
typedef struct { int v[MAXN + 1], n; } Path;
static Path found[60000];
static int nfound;

static void dfs(bool adj[MAXN][MAXN], int n, Path *p) {
  found[nfound++] = *p;
  int last = p->v[p->n - 1];
  for (int s = 0; s < n; s++) {
    if (!adj[last][s]) continue;
    bool in = false;
    for (int i = 0; i < p->n; i++) in |= p->v[i] == s;
    if (s == p->v[0]) {  /* closes a cycle: a simple path that ends where it began */
      Path c = *p;
      c.v[c.n++] = s;
      found[nfound++] = c;
    } else if (!in) {
      p->v[p->n++] = s;
      dfs(adj, n, p);
      p->n--;
    }
  }
}

static bool proper_sub(const Path *a, const Path *b) {
  if (b->n <= a->n) return false;
  for (int i = 0; i + a->n <= b->n; i++)
    if (!memcmp(b->v + i, a->v, sizeof(int) * (size_t)a->n)) return true;
  return false;
}

static char *brute(bool adj[MAXN][MAXN], int n) {
  nfound = 0;
  for (int v = 0; v < n; v++) {
    Path p = { { v }, 1 };
    dfs(adj, n, &p);
  }
  char **s = malloc(sizeof(char *) * (size_t)(nfound + 1)), buf[512];
  int k = 0;
  size_t len = 1;
  for (int i = 0; i < nfound; i++) {
    bool sub = false, dup = false;
    for (int j = 0; j < nfound && !sub; j++) sub = proper_sub(&found[i], &found[j]);
    for (int j = 0; j < i && !dup; j++) dup = found[j].n == found[i].n && !memcmp(found[j].v, found[i].v, sizeof(int) * (size_t)found[i].n);
    if (sub || dup) continue;
    size_t o = 0;
    buf[0] = 0;
    for (int x = 0; x < found[i].n; x++) o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%d", x ? " " : "", found[i].v[x]);
    s[k++] = strdup(buf);
    len += o + 1;
  }
  qsort(s, (size_t)k, sizeof *s, cmp_str);
  char *r = calloc(len, 1);
  for (int i = 0; i < k; i++) {
    if (i) strcat(r, "|");
    strcat(r, s[i]);
    free(s[i]);
  }
  free(s);
  return r;
}

int main(void) {
  /* Ammann and Offutt: 0->1, 0->4, 1->2, 1->5, 2->3, 3->1 (back), 4->4 (back), 4->6, 5->6 */
  static const int e[] = { 0, 1, 0, 4, 1, 2, 1, 5, 2, 3, 3, 1, 4, 4, 4, 6, 5, 6 };
  static const bool back[] = { false, false, false, false, false, true, true, false, false };
  PPGraph g;
  PPPrimeFunc pf;
  int rc;
  make(&g, 7, e, back, 9);
  char *got = derived(&g, 1000, &rc, &pf);
  const char *want = "0 1 2 3|0 1 5 6|0 4 6|1 2 3 1|2 3 1 2|2 3 1 5 6|3 1 2 3|4 4";
  check("prime textbook", rc == 0 && !strcmp(got, want), "got %s, want %s", got, want);
  int crossings = 0;
  for (size_t i = 0; i < pf.paths.n; i++) crossings += pf.paths.v[i].crossings;
  /* 1 2 3 1, 2 3 1 2, 2 3 1 5 6, 3 1 2 3 take 3->1; 4 4 takes 4->4; the others none */
  check("prime textbook back edges", crossings == 5, "%d back edges taken in all, want 5", crossings);
  check("prime textbook longest first", pf.paths.n == 8 && pf.paths.v[0].n == 5, "first has %d blocks", pf.paths.n ? pf.paths.v[0].n : 0);
  free(got);
  free_pf(&pf);
  got = derived(&g, 10, &rc, &pf);
  check("prime limit", rc == -1 && pf.limited && pf.paths.n == 0, "rc %d, limited %d, %zu paths", rc, pf.limited, pf.paths.n);
  free(got);
  free_pf(&pf);
  pp_graph_free(&g);

  /* random graphs of 2 to 7 nodes */
  srand(19);
  int bad = 0, total = 0;
  char first[1200] = "";
  for (int round = 0; round < 400; round++) {
    int n = 2 + rand() % (MAXN - 1), ne = 0, edges[2 * MAXN * MAXN];
    bool adj[MAXN][MAXN];
    memset(adj, 0, sizeof adj);
    for (int u = 0; u < n; u++)
      for (int v = 0; v < n; v++)
        if (v != 0 && rand() % 100 < 30) {  /* nothing enters the entry */
          adj[u][v] = true;
          edges[2 * ne] = u;
          edges[2 * ne + 1] = v;
          ne++;
        }
    make(&g, n, edges, NULL, ne);
    got = derived(&g, 1000000, &rc, &pf);
    char *b = brute(adj, n);
    total++;
    if (rc || strcmp(got, b)) {
      if (!bad++) snprintf(first, sizeof first, "graph of %d nodes: %.500s, brute force %.500s", n, got, b);
    }
    free(got);
    free(b);
    free_pf(&pf);
    pp_graph_free(&g);
  }
  check("prime random graphs", !bad, "%d of %d differ; first: %s", bad, total, first);
  return failures != 0;
}
