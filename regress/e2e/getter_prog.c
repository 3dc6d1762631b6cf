/* getter_prog.c: each thread's first count in a unit asks the runtime for the thread's counter
   base, and its first frame grows the thread's frame stack; where pathcc lets the callers keep
   their values in call-clobbered registers across those calls (GCC on x86-64), the runtime must
   keep every register. calloc and malloc, which the runtime calls for a thread's shard and
   frames, are replaced here by ones that first change every call-clobbered register, as a C
   library routine may; gpr() and fpr(), each the first instrumented function some thread runs,
   and framed(), whose call through a pointer is the thread's first frame, then compute from
   arguments held in those registers. getter.sh compares the output with the plain build's. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

void *__libc_calloc(size_t, size_t);
void *__libc_malloc(size_t);

/* Changes the general, SSE and x87 registers a call may change. */
static __attribute__((noinline)) void trash(void)
{
#if defined(__x86_64__)
  __asm__ __volatile__("movq $0x5a5a5a5a5a5a5a5a, %%rcx\n\tmovq %%rcx, %%rdx\n\tmovq %%rcx, %%rsi\n\t"
                       "movq %%rcx, %%rdi\n\tmovq %%rcx, %%r8\n\tmovq %%rcx, %%r9\n\tmovq %%rcx, %%r10\n\t"
                       "movq %%rcx, %%r11\n\tpcmpeqd %%xmm0, %%xmm0\n\tpcmpeqd %%xmm1, %%xmm1\n\t"
                       "pcmpeqd %%xmm2, %%xmm2\n\tpcmpeqd %%xmm3, %%xmm3\n\tpcmpeqd %%xmm4, %%xmm4\n\t"
                       "pcmpeqd %%xmm5, %%xmm5\n\tpcmpeqd %%xmm6, %%xmm6\n\tpcmpeqd %%xmm7, %%xmm7\n\t"
                       "pcmpeqd %%xmm8, %%xmm8\n\tpcmpeqd %%xmm9, %%xmm9\n\tpcmpeqd %%xmm10, %%xmm10\n\t"
                       "pcmpeqd %%xmm11, %%xmm11\n\tpcmpeqd %%xmm12, %%xmm12\n\tpcmpeqd %%xmm13, %%xmm13\n\t"
                       "pcmpeqd %%xmm14, %%xmm14\n\tpcmpeqd %%xmm15, %%xmm15\n\tfninit"
                       ::: "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3",
                       "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                       "xmm14", "xmm15", "cc", "memory");
#endif
}

void *calloc(size_t n, size_t size)
{
  trash();
  return __libc_calloc(n, size);
}

void *malloc(size_t size)
{
  trash();
  return __libc_malloc(size);
}

/* Six integer arguments, used after the entry's base read. */
__attribute__((noinline)) long gpr(long a, long b, long c, long d, long e, long f)
{
  if (a & 1) b += c;
  else b -= d;
  return a * 3 + b * 5 + c * 7 + d * 11 + e * 13 + f * 17;
}

/* Eight double arguments and a long double on the stack. */
__attribute__((noinline)) double fpr(double a, double b, double c, double d, double e, double f, double g,
                                     double h, long double x, int k)
{
  if (k & 1) a += b;
  else a -= c;
  return a * d + e * f - g * h + (double)(x * 3);
}

static long twice(long x) { return 2 * x; }
static long (*volatile op)(long) = twice;

/* A call through a pointer, which may stop the activation: its frame is linked before it, with
   the argument still in its register. */
__attribute__((noinline)) long framed(long a, long b, long c)
{
  long x = op(a);
  if (x > b)
    x -= c;
  return x + b * 3 + c * 5;
}

struct job { long i; long g; double f; long h; };

/* The thread: no count of its own, so gpr or fpr is the first to ask for the base. */
static __attribute__((no_instrument_function)) void *run(void *p)
{
  struct job *j = p;
  long i = j->i;
  if (i & 1) {
    j->f = fpr(1.5 + i, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5 + i, 0.25L + i, (int)i);
    j->g = gpr(i, 2 * i, 3 * i + 1, 4 * i + 2, 5 * i + 3, 6 * i + 4);
  } else {
    j->g = gpr(i, 2 * i, 3 * i + 1, 4 * i + 2, 5 * i + 3, 6 * i + 4);
    j->f = fpr(1.5 + i, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5 + i, 0.25L + i, (int)i);
  }
  j->h = framed(i + 7, i, 2 * i);
  return 0;
}

/* The runtime's note of how to keep vector registers (rt/posix/shards.c), which a constructor
   fills from the C library: with an argument it is forgotten, so the threads ask the CPU. */
extern int __pathprof_xmode __attribute__((weak));

int main(int argc, char **argv)
{
  enum { T = 8 };
  pthread_t t[T];
  struct job j[T];
  long i;
  (void)argv;
  if (argc > 1 && &__pathprof_xmode)
    __pathprof_xmode = 0;
  for (i = 0; i < T; i++) {
    j[i].i = i + 1;
    if (pthread_create(&t[i], 0, run, &j[i])) return 2;
  }
  for (i = 0; i < T; i++) {
    pthread_join(t[i], 0);
    printf("thread %ld: %ld %.6f %ld\n", i, j[i].g, j[i].f, j[i].h);
  }
  return 0;
}
