/* partial.c: activations that never finish: the stack of frames each thread's instrumented code
   keeps (an array in chunks, so no frame lives on the C stack and tail calls stay tail calls),
   the partial paths of abandoned activations (a pool of signed counts), the PART record every
   dump carries, and what setjmp needs to tell abandoned activations from live ones.
   Freestanding: no library, static memory only (doc/formats.md sections 1 and 2, "PART"). */
#include "core.h"
#include <stddef.h>

/* Slots of the pool of partial paths: -DPATHPROF_PARTIAL_SLOTS=N (0 keeps none). */
#ifndef PATHPROF_PARTIAL_SLOTS
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__ && (defined(__unix__) || defined(__APPLE__))
#define PATHPROF_PARTIAL_SLOTS 1024
#elif defined(__AVR__) /* 2 KiB of RAM on an ATmega328P */
#define PATHPROF_PARTIAL_SLOTS 4
#else
#define PATHPROF_PARTIAL_SLOTS 32
#endif
#endif
/* Frames per chunk of a thread's stack: -DPATHPROF_FRAME_SLOTS=N. */
#ifndef PATHPROF_FRAME_SLOTS
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__ && (defined(__unix__) || defined(__APPLE__))
#define PATHPROF_FRAME_SLOTS 1024
#elif defined(__AVR__)
#define PATHPROF_FRAME_SLOTS 16
#else
#define PATHPROF_FRAME_SLOTS 128
#endif
#endif
#define SJ 16             /* setjmp calls remembered per thread */
#define PART_TAG 0x54524150UL /* "PART" */
static const unsigned long long u_zero = 0;

/* __pathprof_sp is thread-local where the runtime's thread-locals are (core.h's
   PATHPROF_FRAME_TLS); pathcc declares it the same way in every unit (__thread for the host,
   plain for other targets). */
#if PATHPROF_FRAME_TLS
#define TLS __thread
#else
#define TLS
#endif

/* Frames of a chunk made ready at a time (ready()): a chunk's memory is touched as its frames are
   first reached, not all at its making. */
#define READY (PATHPROF_FRAME_SLOTS < 128 ? PATHPROF_FRAME_SLOTS : 128)

/* A piece of a thread's stack of frames: N frames, then an end marker whose push grows the stack
   into the next piece. Its memory comes uninitialised from the back end: only the frames below
   its lowest end marker are defined, so that a push, which reads the next frame's fs to tell an
   end marker, never decides on undefined memory (which may hold PATHPROF_FRAME_END by chance).
   An end marker's r is its index in the chunk: the chunk's last, or where its ready frames stop. */
struct chunk {
  struct chunk *prev, *next;
  struct __pathprof_frame f[PATHPROF_FRAME_SLOTS + 1];
};

/* Where a thread's stack starts: an end marker, so its first push makes its first chunk. */
static struct __pathprof_frame boot = { 0, PATHPROF_FRAME_END, 0 };
/* Where frames go when no memory is left: written and forgotten, one frame and an end marker
   (so each deeper push comes back here); the frames below are kept. */
static struct __pathprof_frame sink[2] = { { 0, 0, 0 }, { 0, PATHPROF_FRAME_END, 0 } };

/* The next free frame of this thread's stack: instrumented functions take it at entry (growing
   the stack when it is an end marker) and give it back at every way out. */
TLS struct __pathprof_frame *__pathprof_sp = &boot;
/* This thread's chunks, oldest first. */
static TLS struct chunk *chunks;
#if !PATHPROF_FRAME_TLS
static struct chunk static_chunk; /* one thread: its first chunk needs no memory from the back end */
#endif

/* One partial path: where an activation of unit u's function stopped (fs, r), and how many
   times (negative: prefixes taken back, see __pathprof_partials_reset). */
struct part {
  struct __pathprof_unit *u;
  unsigned long fs;
  unsigned long long r;
  long long n;
};

#if PATHPROF_PARTIAL_SLOTS > 0
static struct part pool[PATHPROF_PARTIAL_SLOTS] PATHPROF_BIG;
#else
static struct part pool[1];
#endif
static unsigned long long pool_dropped;
/* Slots ever taken: the pool fills from the bottom, so scans stop here and a write at exit never
   touches the pool's untouched pages (each a page fault, in a program that may run 1 ms). */
static unsigned long pool_top;
static int pool_busy;

/* The state at each setjmp call of this thread's frames (sjmark). */
static TLS struct sj_ent {
  const struct __pathprof_frame *at;
  unsigned long fs;
  unsigned long long r;
} sj[SJ];
static TLS unsigned sj_next;

/* The pool is changed rarely (setjmp's return, thread exit, writes, resets): a spin lock where GNU
   atomics exist, else nothing (one thread, or no instrumented interrupt handler racing). */
static void lock(void)
{
#if defined(__GNUC__) && defined(__GCC_ATOMIC_INT_LOCK_FREE) && __GCC_ATOMIC_INT_LOCK_FREE == 2
  while (__atomic_exchange_n(&pool_busy, 1, __ATOMIC_ACQUIRE))
    ;
#endif
}

/* Releases the lock. */
static void unlock(void)
{
#if defined(__GNUC__) && defined(__GCC_ATOMIC_INT_LOCK_FREE) && __GCC_ATOMIC_INT_LOCK_FREE == 2
  __atomic_store_n(&pool_busy, 0, __ATOMIC_RELEASE);
#else
  pool_busy = 0;
#endif
}

/* Puts an end marker at frame i of chunk c. */
static void end_at(struct chunk *c, unsigned long i)
{
  c->f[i].unit = 0;
  c->f[i].fs = PATHPROF_FRAME_END;
  c->f[i].r = i;
}

/* Makes READY frames of chunk c ready from frame i on (an end marker until now): defined, and no
   end marker, with an end marker after them unless the chunk's own end comes first. */
static void ready(struct chunk *c, unsigned long i)
{
  unsigned long j, top = i + READY < PATHPROF_FRAME_SLOTS ? i + READY : PATHPROF_FRAME_SLOTS;
  for (j = i; j < top; j++) {
    c->f[j].unit = 0;
    c->f[j].fs = 0;
    c->f[j].r = 0;
  }
  if (top < PATHPROF_FRAME_SLOTS)
    end_at(c, top);
}

/* A new chunk after prev (0: the thread's first), or 0 when there is no memory. */
static struct chunk *new_chunk(struct chunk *prev)
{
  struct chunk *c = 0;
#if !PATHPROF_FRAME_TLS
  if (!prev && !static_chunk.f[PATHPROF_FRAME_SLOTS].fs)
    c = &static_chunk;
#endif
  if (!c)
    c = __pathprof_frames_more(sizeof *c);
  if (!c)
    return 0;
  c->prev = prev;
  c->next = 0;
  end_at(c, PATHPROF_FRAME_SLOTS);
  ready(c, 0);
  if (prev)
    prev->next = c;
  else {
    chunks = c;
    __pathprof_backend_frames_thread();
  }
  return c;
}

#if defined(__x86_64__) && defined(__LP64__) && defined(__ELF__)
/* A call of the runtime's C code (the function in %rax, its arguments in %rdi, %rsi and %rdx,
   its result in %rax) that keeps every other register: the general ones on the stack, the x87,
   SSE and AVX state with xsave (fxsave on a CPU without it). The code pathcc writes for GCC on
   x86-64 (instrument.c) makes its rare calls through it, from inline asm that tells GCC it
   changes %rax and the flags only: a frame stack's growth (__pathprof_grow) and the thread
   base's first read (__pathprof_base, rt/posix/shards.c). GCC's -fipa-ra then lets every
   instrumented function keep its values in call-clobbered registers across the frame link's
   and the base getter's calls, instead of moving them to callee-saved ones it must push and pop
   (a per-character state machine: 8 instructions fewer per call). How to save is asked of the
   CPU once per process (__pathprof_xmode: 0 not yet, 1 fxsave, else xsave's area size, with
   the components in __pathprof_xmask), unless the hosted runtime had it from the C library
   (shards.c). It is here, in a file every link with frames or a dump pulls in, because the only
   references to it are in asm, which link-time optimization does not see. */
__asm__(".pushsection .bss\n"
        ".balign 4\n"
        ".globl __pathprof_xmode\n.hidden __pathprof_xmode\n__pathprof_xmode: .zero 4\n"
        ".globl __pathprof_xmask\n.hidden __pathprof_xmask\n__pathprof_xmask: .zero 4\n"
        ".popsection\n"
        ".text\n"
        ".globl __pathprof_keep_call\n"
        ".type __pathprof_keep_call, @function\n"
        "__pathprof_keep_call:\n"
        ".cfi_startproc\n"
        "pushq %rbp\n.cfi_def_cfa_offset 16\n.cfi_offset %rbp, -16\n"
        "movq %rsp, %rbp\n.cfi_def_cfa_register %rbp\n"
        "pushq %rbx\npushq %r12\npushq %r13\npushq %rcx\npushq %rdx\npushq %rsi\n"
        "pushq %rdi\npushq %r8\npushq %r9\npushq %r10\npushq %r11\n"
        ".cfi_offset %rbx, -24\n.cfi_offset %r12, -32\n.cfi_offset %r13, -40\n"
        "movq %rax, %r13\n"                   /* the function */
        "movl __pathprof_xmode(%rip), %ebx\n"
        "testl %ebx, %ebx\njnz 4f\n"
        "movl $1, %eax\ncpuid\n"
        "movl $1, %r12d\n"
        "btl $27, %ecx\njnc 5f\n"            /* OSXSAVE: xgetbv and xsave may be used */
        "xorl %ecx, %ecx\nxgetbv\n"
        "andl $0xe7, %eax\n"                  /* x87, SSE, AVX, AVX-512 (not AMX's tiles) */
        "movl %eax, __pathprof_xmask(%rip)\n"
        "movl $13, %eax\nxorl %ecx, %ecx\ncpuid\n" /* %ebx: the size of the enabled state */
        "movl %ebx, %r12d\n"
        "5: movl %r12d, __pathprof_xmode(%rip)\n" /* after the mask: another thread reads it first */
        "movl %r12d, %ebx\n"
        "4: cmpl $1, %ebx\nje 1f\n"
        "movl __pathprof_xmask(%rip), %r12d\n"
        "subq %rbx, %rsp\nandq $-64, %rsp\n"
        "xorl %eax, %eax\nmovl $8, %ecx\n"   /* the header must be zero for xrstor */
        "2: movq %rax, 504(%rsp,%rcx,8)\ndecl %ecx\njnz 2b\n"
        "movl %r12d, %eax\nxorl %edx, %edx\nxsave (%rsp)\n"
        "jmp 6f\n"
        "1: subq $512, %rsp\nandq $-16, %rsp\nfxsave (%rsp)\n"
        "6: fninit\n"                         /* the C code below expects an empty x87 stack */
        "movq -56(%rbp), %rdi\nmovq -48(%rbp), %rsi\nmovq -40(%rbp), %rdx\n"
        "call *%r13\n"
        "cmpl $1, %ebx\n"                     /* %ebx (the mode) and %r12d (the mask) kept by it */
        "movq %rax, %rbx\nje 7f\n"
        "movl %r12d, %eax\nxorl %edx, %edx\nxrstor (%rsp)\njmp 3f\n"
        "7: fxrstor (%rsp)\n"
        "3: movq %rbx, %rax\n"
        "leaq -88(%rbp), %rsp\n"
        "popq %r11\npopq %r10\npopq %r9\npopq %r8\npopq %rdi\n"
        "popq %rsi\npopq %rdx\npopq %rcx\npopq %r13\npopq %r12\npopq %rbx\n"
        "popq %rbp\n.cfi_def_cfa %rsp, 8\n"
        "ret\n"
        ".cfi_endproc\n"
        ".size __pathprof_keep_call, .-__pathprof_keep_call\n");
#endif

/* A push found the end marker e: e itself once the frames from it on are made ready (a marker
   inside its chunk), else the first frame of the next chunk (made or kept from before), or the
   sink when there is no memory left. */
struct __pathprof_frame *__pathprof_grow(struct __pathprof_frame *e)
{
  struct chunk *c;
  unsigned long i;
  if (e == &sink[1])
    return sink;
  if (e == &boot)
    c = chunks ? chunks : new_chunk(0);
  else {
    i = (unsigned long)e->r;
    c = (struct chunk *)(void *)((char *)e - offsetof(struct chunk, f) - i * sizeof(struct __pathprof_frame));
    if (i < PATHPROF_FRAME_SLOTS) {
      ready(c, i);
      return e;
    }
    c = c->next ? c->next : new_chunk(c);
  }
  return c ? c->f : sink;
}

/* The thread is gone (POSIX: its key destructor): the chunks go back, the stack starts again
   from the end marker (code that runs after this grows a new one). */
void __pathprof_partial_thread_gone(void (*release)(void *))
{
  struct chunk *c = chunks, *n;
  __pathprof_sp = &boot;
  chunks = 0;
  for (; c; c = n) {
    n = c->next;
#if !PATHPROF_FRAME_TLS
    if (c == &static_chunk)
      continue;
#endif
    release(c);
  }
}

/* Calls visit for each frame of this thread's stack, oldest first (the live activations, and
   those a longjmp abandoned until something below them returns); returns how many. */
static unsigned long walk(void (*visit)(void *, const struct __pathprof_frame *), void *ctx)
{
  const struct __pathprof_frame *sp = __pathprof_sp, *f;
  const struct chunk *c;
  unsigned long n = 0;

  for (c = chunks; c; c = c->next) {
    int here = sp >= c->f && sp <= c->f + PATHPROF_FRAME_SLOTS;
    const struct __pathprof_frame *end = here ? sp : c->f + PATHPROF_FRAME_SLOTS;
    for (f = c->f; f < end; f++, n++)
      if (visit)
        visit(ctx, f);
    if (here)
      break;
  }
  return n;
}

/* Adds n to the pool's entry (u, fs, r), taking a free slot for a new one; no room: dropped. */
static void pool_add(struct __pathprof_unit *u, unsigned long fs, unsigned long long r, long long n)
{
  unsigned long i, free_slot = PATHPROF_PARTIAL_SLOTS;

  if (!n)
    return;
  if (!(fs & PATHPROF_SITE_MASK))
    r = 0; /* site 0: the frame's r was never stored (the path begins at 0) */
  lock();
  for (i = 0; i < pool_top; i++) {
    if (pool[i].n && pool[i].u == u && pool[i].fs == fs && pool[i].r == r)
      break;
    if (!pool[i].n && free_slot == PATHPROF_PARTIAL_SLOTS)
      free_slot = i;
  }
  if (i == pool_top) { /* new: a slot freed by a reset, else the next never used */
    if (free_slot == PATHPROF_PARTIAL_SLOTS && pool_top < PATHPROF_PARTIAL_SLOTS)
      free_slot = pool_top++;
    i = free_slot;
    if (i < PATHPROF_PARTIAL_SLOTS) {
      pool[i].u = u;
      pool[i].fs = fs;
      pool[i].r = r;
      pool[i].n = 0;
    }
  }
  if (i < PATHPROF_PARTIAL_SLOTS)
    pool[i].n += n;
  else
    pool_dropped++;
  unlock();
}

/* Adds a partial path of unit u to the pool (n < 0 takes prefixes back). */
void __pathprof_partial_add(struct __pathprof_unit *u, unsigned long fs, unsigned long long r, long long n)
{
  pool_add(u, fs, r, n);
}

/* walk's visitor for __pathprof_partial_frames: the frame's partial path, n times. */
static void add_frame(void *ctx, const struct __pathprof_frame *f)
{
  pool_add(f->unit, f->fs, f->r, *(const long long *)ctx);
}

/* Adds this thread's frames to the pool, each n times: +1 when they end for good (the thread
   exits inside them: pthread_exit, cancellation), -1 when their prefixes were just written or
   reset and will be counted again when they end (a write takes its counts out of memory; a reset
   starts from zero). */
void __pathprof_partial_frames(long long n)
{
  walk(add_frame, &n);
}

/* Partial paths and frames for __pathprof_partials_each. */
struct each {
  void (*fn)(void *, struct __pathprof_unit *, unsigned long, unsigned long long, long long);
  void *ctx;
};

/* walk's visitor for __pathprof_partials_each. */
static void each_frame(void *ctx, const struct __pathprof_frame *f)
{
  const struct each *e = ctx;
  e->fn(e->ctx, f->unit, f->fs, f->fs & PATHPROF_SITE_MASK ? f->r : 0, 1);
}

/* Calls fn for every partial path of the pool and every frame of this thread (count 1): what a
   dump or write now holds. Returns the pool's dropped count. */
unsigned long long __pathprof_partials_each(void (*fn)(void *, struct __pathprof_unit *, unsigned long,
                                                         unsigned long long, long long), void *ctx)
{
  struct each e;
  unsigned long i;

  e.fn = fn;
  e.ctx = ctx;
  for (i = 0; i < pool_top; i++)
    if (pool[i].n)
      fn(ctx, pool[i].u, pool[i].fs, pool[i].r, pool[i].n);
  walk(each_frame, &e);
  return pool_dropped;
}

/* Takes dropped counts out of the pool's (after a write saved them). */
void __pathprof_partials_take_dropped(unsigned long long n)
{
  lock();
  pool_dropped -= n < pool_dropped ? n : pool_dropped;
  unlock();
}

/* Zeroes the pool's entries of the units keep accepts (all when keep is 0) and takes back the
   prefixes of this thread's live frames: they ran before the reset, and count again when the
   activations end (pathprof_reset, and the child after fork). */
void __pathprof_partials_reset(int (*keep)(const struct __pathprof_unit *))
{
  unsigned long i;
  long long minus = -1;

  lock();
  for (i = 0; i < pool_top; i++)
    if (pool[i].n && (!keep || keep(pool[i].u)))
      pool[i].n = 0;
  if (!keep)
    pool_dropped = 0;
  unlock();
  walk(add_frame, &minus);
}

/* ---- the PART record (doc/formats.md section 2) ---- */

/* What the record writer counts or writes (left: entries it may still write). */
struct out_ctx {
  struct __pathprof_out *o;
  int (*keep)(const struct __pathprof_unit *);
  const struct __pathprof_unit *only;
  unsigned long long n, left;
};

/* Counts (o == 0) or writes one entry: {checksum, fn, site, r, count}. */
static void out_entry(void *ctx, struct __pathprof_unit *u, unsigned long fs, unsigned long long r, long long n)
{
  struct out_ctx *c = ctx;
  if ((c->keep && !c->keep(u)) || (c->only && c->only != u))
    return;
  c->n++;
  if (!c->o || !c->left)
    return;
  c->left--;
  __pathprof_out_u64(c->o, u->checksum);
  __pathprof_out_u64(c->o, (unsigned long long)(fs >> PATHPROF_SITE_BITS));
  __pathprof_out_u64(c->o, (unsigned long long)(fs & PATHPROF_SITE_MASK));
  __pathprof_out_u64(c->o, r);
  __pathprof_out_u64(c->o, (unsigned long long)n);
}

/* Entries a PART record for the units keep accepts (or only unit only) would hold; *dropped
   gets the pool's dropped count. */
static unsigned long long part_entries(int (*keep)(const struct __pathprof_unit *), const struct __pathprof_unit *only,
                                       unsigned long long *dropped)
{
  struct out_ctx c;
  c.left = 0;
  c.o = 0;
  c.keep = keep;
  c.only = only;
  c.n = 0;
  *dropped = __pathprof_partials_each(out_entry, &c);
  return c.n;
}

/* Writes the PART record (entries of the units keep accepts, or of unit only; with_dropped:
   the pool's dropped count too) when it has anything to say; returns its size in bytes. If
   another thread changed the pool since the entries were counted, the record still holds that
   many: missing ones are zero-count entries, which readers ignore. */
unsigned long __pathprof_out_partials(struct __pathprof_out *o, int (*keep)(const struct __pathprof_unit *),
                                      const struct __pathprof_unit *only, int with_dropped)
{
  struct out_ctx c;
  unsigned long long dropped, n = part_entries(keep, only, &dropped);

  if (!with_dropped)
    dropped = 0;
  if (!n && !dropped)
    return 0;
  if (o) {
    __pathprof_out_u32(o, PART_TAG);
    __pathprof_out_u32(o, 1);
    __pathprof_out_u64(o, n);
    __pathprof_out_u64(o, dropped);
    c.o = o;
    c.keep = keep;
    c.only = only;
    c.n = 0;
    c.left = n;
    __pathprof_partials_each(out_entry, &c);
    for (; c.left; c.left--) {
      __pathprof_out_u64(o, u_zero);
      __pathprof_out_u64(o, u_zero);
      __pathprof_out_u64(o, u_zero);
      __pathprof_out_u64(o, u_zero);
      __pathprof_out_u64(o, u_zero);
    }
  }
  return 24 + 40 * (unsigned long)n;
}

/* ---- setjmp and longjmp ---- */

/* Instrumented code calls this right before setjmp: where the function is, so that when
   setjmp returns again the path can go on from here. */
void __pathprof_sjmark(struct __pathprof_frame *f)
{
  unsigned i;
  for (i = 0; i < SJ && sj[i].at != f; i++)
    ;
  if (i == SJ)
    i = sj_next++ % SJ;
  sj[i].at = f;
  sj[i].fs = f->fs;
  sj[i].r = f->r;
}

/* walk's visitor for __pathprof_sjret: the frames from ((struct from *)ctx)->at on, once each. */
struct from {
  const struct __pathprof_frame *at;
  int on;
};

static void from_frame(void *ctx, const struct __pathprof_frame *f)
{
  struct from *x = ctx;
  x->on |= f == x->at;
  if (x->on)
    pool_add(f->unit, f->fs, f->r, 1);
}

/* setjmp's value v passes through here. When a longjmp brought it (v != 0): the frames above f
   (a longjmp leaves them as they were) are activations it abandoned, and f's own frame, still on
   the stack, holds f's state at the jump: they become partial paths. f's path goes on from its
   setjmp call, so that prefix, counted again when the path ends, is taken back once (for
   __builtin_setjmp, flags & 2, the prefix up to the setjmp's block only: gcov counts its
   receiver's entries). When f had left the stack itself (its own longjmp, after counting its
   path) only the prefix is taken back. The path register (*rp, unsigned long long when
   flags & 1), f's frame and the stack pointer are restored. */
int __pathprof_sjret(struct __pathprof_frame *f, volatile void *rp, int flags, int v)
{
  struct from from;
  unsigned i;

  if (!v || !f)
    return v;
  for (i = 0; i < SJ && sj[i].at != f; i++)
    ;
  if (i == SJ)
    return v; /* no setjmp of this frame seen: nothing to restore */
  from.at = f;
  from.on = 0;
  walk(from_frame, &from); /* f and what was above it, when f is still on the stack */
  pool_add(f->unit, sj[i].fs | (flags & 2 ? PATHPROF_SITE_BEFORE : 0), sj[i].r, -1);
  f->fs = sj[i].fs;
  f->r = sj[i].r;
  if (rp && (flags & 1))
    *(volatile unsigned long long *)rp = sj[i].r;
  else if (rp)
    *(volatile unsigned long *)rp = (unsigned long)sj[i].r;
  __pathprof_sp = f + 1;
  return v;
}
