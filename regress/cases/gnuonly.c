/* GCC-only forms libclang reports as semantic errors: a deallocator named in malloc(), __builtin_has_attribute, __sync builtins on an _Atomic object; pathcc instruments their functions (issue 37). */
#include <stdio.h>
#include <stdlib.h>

/* the same lines for every compiler (coverage_llvm.sh compares line counts with clang's) */
#if defined(__GNUC__) && __GNUC__ >= 11 && !defined(__clang__)
#define DEALLOC(f) __attribute__((malloc(f, 1)))  /* GCC 11: "'malloc' attribute takes no arguments" to clang */
#define HAS_ATTRIBUTE(x, a) __builtin_has_attribute(x, a)
#define FETCH_ADD(p, v) __sync_fetch_and_add(p, v)
#define SWAP_IF(p, o, n) __sync_bool_compare_and_swap(p, o, n)
#else
#define DEALLOC(f)
#define HAS_ATTRIBUTE(x, a) 0
#define FETCH_ADD(p, v) ((*(p) += (v)) - (v))
#define SWAP_IF(p, o, n) (*(p) == (o) && (*(p) = (n), 1))
#endif

static _Atomic int shared;
static int aligned_cell __attribute__((aligned(16)));

static void release(int *p) { free(p); }

/* An allocator declared with its deallocator, branching on its argument. */
DEALLOC(release) static int *make(int n) {
  int *p = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  if (!p) return NULL;
  for (int i = 0; i < n; i++) p[i] = i * i;
  return p;
}

/* GCC's attribute query and legacy atomic builtins, inside a loop with branches. */
static int probe(int n) {
  int r = 0;
  for (int i = 0; i < n; i++) {
    r += HAS_ATTRIBUTE(aligned_cell, aligned) + HAS_ATTRIBUTE(release, noreturn);
    if (FETCH_ADD(&shared, 1) % 3 == 0) r += 10;
    else if (SWAP_IF(&shared, 5, 6)) r += 100;
    if (i & 1) r--;
  }
  return r + aligned_cell;
}

int main(void) {
  int total = 0;
  for (int n = 0; n < 5; n++) {
    int *p = make(n);
    if (n > 1) total += p[n - 1];
    release(p);
  }
  printf("%d %d\n", total, probe(9));
  return 0;
}
