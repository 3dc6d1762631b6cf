/* bench workload: dense and sparse matrix kernels.
   Each round: blocked dense matrix multiply checked against a naive product on sampled
   entries; LU decomposition with partial pivoting and a solve, checked by its residual;
   a 2-D Poisson matrix in CSR built from a dense stencil, sparse matrix-vector products
   checked against the dense product, a CSR transpose checked for symmetry, and conjugate
   gradient solved to a small residual.  Results are printed rounded, so every build of the
   same compiler prints the same line.  Usage: matrix [SCALE]  (rounds, default 165) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static unsigned long long seed = 0x9E3779B97F4A7C15ULL;
static double frand(void)
{
  seed ^= seed >> 12; seed ^= seed << 25; seed ^= seed >> 27;
  return (double)((seed * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0 - 0.5;
}

#define DN 160
#define BS 32

static void matmul_blocked(const double *a, const double *b, double *c, int n)
{
  int ii, jj, kk, i, j, k;
  memset(c, 0, (size_t)n * n * sizeof *c);
  for (ii = 0; ii < n; ii += BS)
    for (kk = 0; kk < n; kk += BS)
      for (jj = 0; jj < n; jj += BS)
        for (i = ii; i < ii + BS && i < n; i++)
          for (k = kk; k < kk + BS && k < n; k++) {
            double aik = a[i * n + k];
            for (j = jj; j < jj + BS && j < n; j++) c[i * n + j] += aik * b[k * n + j];
          }
}

/* LU with partial pivoting in place; returns 0 if singular */
static int lu(double *a, int *piv, int n)
{
  int i, j, k;
  for (k = 0; k < n; k++) {
    int p = k;
    double best = fabs(a[k * n + k]);
    for (i = k + 1; i < n; i++)
      if (fabs(a[i * n + k]) > best) { best = fabs(a[i * n + k]); p = i; }
    if (best == 0.0) return 0;
    piv[k] = p;
    if (p != k)
      for (j = 0; j < n; j++) { double t = a[k * n + j]; a[k * n + j] = a[p * n + j]; a[p * n + j] = t; }
    for (i = k + 1; i < n; i++) {
      double f = a[i * n + k] /= a[k * n + k];
      if (f == 0.0) continue;
      for (j = k + 1; j < n; j++) a[i * n + j] -= f * a[k * n + j];
    }
  }
  return 1;
}

static void lu_solve(const double *a, const int *piv, double *x, int n)
{
  int i, j;
  for (i = 0; i < n; i++) { double t = x[i]; x[i] = x[piv[i]]; x[piv[i]] = t; }
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) x[i] -= a[i * n + j] * x[j];
  for (i = n - 1; i >= 0; i--) {
    for (j = i + 1; j < n; j++) x[i] -= a[i * n + j] * x[j];
    x[i] /= a[i * n + i];
  }
}

/* ---------- CSR ---------- */
struct csr { int n, nnz; int *rowptr, *col; double *val; };

static void csr_alloc(struct csr *m, int n, int cap)
{
  m->n = n; m->nnz = 0;
  m->rowptr = malloc((size_t)(n + 1) * sizeof *m->rowptr);
  m->col = malloc((size_t)cap * sizeof *m->col);
  m->val = malloc((size_t)cap * sizeof *m->val);
  if (!m->rowptr || !m->col || !m->val) exit(2);
}
static void csr_free(struct csr *m) { free(m->rowptr); free(m->col); free(m->val); }

/* 5-point Poisson matrix on a g x g grid, with a row-dependent diagonal shift */
static void poisson(struct csr *m, int g, double shift)
{
  int n = g * g, r, k = 0;
  csr_alloc(m, n, 5 * n);
  for (r = 0; r < n; r++) {
    int x = r % g, y = r / g;
    m->rowptr[r] = k;
    if (y > 0) { m->col[k] = r - g; m->val[k++] = -1.0; }
    if (x > 0) { m->col[k] = r - 1; m->val[k++] = -1.0; }
    m->col[k] = r; m->val[k++] = 4.0 + shift;
    if (x < g - 1) { m->col[k] = r + 1; m->val[k++] = -1.0; }
    if (y < g - 1) { m->col[k] = r + g; m->val[k++] = -1.0; }
  }
  m->rowptr[n] = k; m->nnz = k;
}

static void spmv(const struct csr *m, const double *x, double *y)
{
  int i, k;
  for (i = 0; i < m->n; i++) {
    double s = 0.0;
    for (k = m->rowptr[i]; k < m->rowptr[i + 1]; k++) s += m->val[k] * x[m->col[k]];
    y[i] = s;
  }
}

static void transpose(const struct csr *m, struct csr *t)
{
  int i, k, *cnt;
  csr_alloc(t, m->n, m->nnz);
  cnt = calloc((size_t)m->n + 1, sizeof *cnt);
  if (!cnt) exit(2);
  for (k = 0; k < m->nnz; k++) cnt[m->col[k] + 1]++;
  for (i = 0; i < m->n; i++) cnt[i + 1] += cnt[i];
  memcpy(t->rowptr, cnt, (size_t)(m->n + 1) * sizeof *cnt);
  for (i = 0; i < m->n; i++)
    for (k = m->rowptr[i]; k < m->rowptr[i + 1]; k++) {
      int p = cnt[m->col[k]]++;
      t->col[p] = i; t->val[p] = m->val[k];
    }
  t->nnz = m->nnz;
  free(cnt);
}

static double dot(const double *a, const double *b, int n)
{
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* conjugate gradient; returns iterations, -1 if it did not converge */
static int cg(const struct csr *m, const double *b, double *x, double tol, int maxit)
{
  int n = m->n, i, it;
  double *r = malloc((size_t)n * sizeof *r), *p = malloc((size_t)n * sizeof *p), *q = malloc((size_t)n * sizeof *q);
  double rr, bb = dot(b, b, n);
  if (!r || !p || !q) exit(2);
  memset(x, 0, (size_t)n * sizeof *x);
  memcpy(r, b, (size_t)n * sizeof *r);
  memcpy(p, b, (size_t)n * sizeof *p);
  rr = bb;
  for (it = 0; it < maxit && rr > tol * tol * bb; it++) {
    double alpha, beta, rr2;
    spmv(m, p, q);
    alpha = rr / dot(p, q, n);
    for (i = 0; i < n; i++) { x[i] += alpha * p[i]; r[i] -= alpha * q[i]; }
    rr2 = dot(r, r, n);
    beta = rr2 / rr;
    rr = rr2;
    for (i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
  }
  free(r); free(p); free(q);
  return rr <= tol * tol * bb ? it : -1;
}

int main(int argc, char **argv)
{
  long rounds = argc > 1 ? atol(argv[1]) : 165, r;
  int n = DN, i, j, k, bad = 0, g = 60, gn = 60 * 60, iters = 0;
  double *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b);
  double *c = malloc((size_t)n * n * sizeof *c), *lu_a = malloc((size_t)n * n * sizeof *lu_a);
  double *x = malloc((size_t)n * sizeof *x), *rhs = malloc((size_t)n * sizeof *rhs);
  double *v = malloc((size_t)gn * sizeof *v), *y1 = malloc((size_t)gn * sizeof *y1), *y2 = malloc((size_t)gn * sizeof *y2);
  double *sx = malloc((size_t)gn * sizeof *sx), *sb = malloc((size_t)gn * sizeof *sb);
  double *dense = malloc((size_t)32 * 32 * 32 * 32 * sizeof *dense);
  int *piv = malloc((size_t)n * sizeof *piv);
  double trace = 0.0, resid_max = 0.0;
  if (!a || !b || !c || !lu_a || !x || !rhs || !v || !y1 || !y2 || !sx || !sb || !dense || !piv) return 2;
  for (r = 0; r < rounds && !bad; r++) {
    struct csr m, t, small;
    double resid = 0.0;
    /* dense: multiply, spot-check, LU solve */
    for (i = 0; i < n * n; i++) { a[i] = frand(); b[i] = frand(); }
    for (i = 0; i < n; i++) a[i * n + i] += 4.0;                 /* well conditioned */
    matmul_blocked(a, b, c, n);
    for (k = 0; k < 64; k++) {
      int ri = (int)((unsigned)(k * 7919 + r) % (unsigned)n), cj = (int)((unsigned)(k * 104729 + 3 * r) % (unsigned)n);
      double s = 0.0;
      for (j = 0; j < n; j++) s += a[ri * n + j] * b[j * n + cj];
      if (fabs(s - c[ri * n + cj]) > 1e-9 * (1.0 + fabs(s))) { fprintf(stderr, "round %ld: matmul wrong\n", r); bad = 1; break; }
    }
    for (i = 0; i < n; i++) trace += c[i * n + i];
    memcpy(lu_a, a, (size_t)n * n * sizeof *a);
    for (i = 0; i < n; i++) rhs[i] = x[i] = frand();
    if (!lu(lu_a, piv, n)) { fprintf(stderr, "round %ld: singular\n", r); bad = 1; break; }
    lu_solve(lu_a, piv, x, n);
    for (i = 0; i < n; i++) {
      double s = -rhs[i];
      for (j = 0; j < n; j++) s += a[i * n + j] * x[j];
      if (fabs(s) > resid) resid = fabs(s);
    }
    if (resid > 1e-10) { fprintf(stderr, "round %ld: LU residual %g\n", r, resid); bad = 1; }
    if (resid > resid_max) resid_max = resid;

    /* sparse: Poisson matrix, spmv against a dense product on a small grid, transpose, CG */
    poisson(&small, 32, 0.0);
    memset(dense, 0, (size_t)1024 * 1024 * sizeof *dense);
    for (i = 0; i < 1024; i++)
      for (k = small.rowptr[i]; k < small.rowptr[i + 1]; k++) dense[i * 1024 + small.col[k]] = small.val[k];
    for (i = 0; i < 1024; i++) v[i] = frand();
    spmv(&small, v, y1);
    for (i = 0; i < 1024; i++) {
      double s = 0.0;
      for (j = 0; j < 1024; j++) s += dense[i * 1024 + j] * v[j];
      if (fabs(s - y1[i]) > 1e-12) { fprintf(stderr, "round %ld: spmv wrong\n", r); bad = 1; break; }
    }
    csr_free(&small);
    poisson(&m, g, 0.01 * (double)(r % 3));
    transpose(&m, &t);
    for (i = 0; i < gn; i++) v[i] = frand();
    spmv(&m, v, y1);
    spmv(&t, v, y2);
    for (i = 0; i < gn; i++)
      if (y1[i] != y2[i]) { fprintf(stderr, "round %ld: transpose not symmetric\n", r); bad = 1; break; }
    for (i = 0; i < gn; i++) sb[i] = 1.0 + 0.5 * sin(0.01 * i);
    k = cg(&m, sb, sx, 1e-8, 2000);
    if (k < 0) { fprintf(stderr, "round %ld: CG did not converge\n", r); bad = 1; }
    else {
      spmv(&m, sx, y1);
      for (i = 0; i < gn; i++)
        if (fabs(y1[i] - sb[i]) > 1e-6) { fprintf(stderr, "round %ld: CG residual\n", r); bad = 1; break; }
      iters += k;
    }
    csr_free(&m); csr_free(&t);
  }
  printf("matrix: %ld rounds, trace %.6e, LU residual below 1e-10: %s, CG iterations %d\n", rounds,
         trace, resid_max <= 1e-10 ? "yes" : "no", iters);
  puts(bad ? "FAIL" : "PASS");
  free(a); free(b); free(c); free(lu_a); free(x); free(rhs); free(v); free(y1); free(y2);
  free(sx); free(sb); free(dense); free(piv);
  return bad;
}
