/* semihost.c: the semihosting back end: the binary profile goes to a file on the host through
   the debugger (or QEMU -semihosting). ARM M-profile (bkpt 0xab), ARM A/R in Thumb (svc 0xab)
   and ARM state (svc 0x123456), AArch64 (hlt 0xf000) and RISC-V (the ebreak sequence).
   Freestanding: no library, no buffer beyond the core's 256-byte chunk. */
#include "core/core.h"

#define SYS_OPEN 0x01UL
#define SYS_CLOSE 0x02UL
#define SYS_WRITE 0x05UL
#define SYS_EXIT 0x18UL
#define SYS_EXIT_EXTENDED 0x20UL
#define OPEN_WB 5UL                     /* fopen mode "wb" */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026UL
#define ADP_STOPPED_RUNTIME_ERROR 0x20023UL

#if !defined(__GNUC__) || !(defined(__arm__) || defined(__aarch64__) || defined(__riscv))
#error "rt/embedded/semihost.c: semihosting needs GCC-style inline assembly on ARM, AArch64 or RISC-V"
#endif

/* One semihosting call: operation op with the parameter block arg; returns the host's answer. */
static long call(unsigned long op, void *arg)
{
#if defined(__aarch64__)
  register unsigned long x0 __asm__("x0") = op;
  register void *x1 __asm__("x1") = arg;
  __asm__ __volatile__("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
  return (long)x0;
#elif defined(__arm__)
  register unsigned long r0 __asm__("r0") = op;
  register void *r1 __asm__("r1") = arg;
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
  __asm__ __volatile__("bkpt #0xab" : "+r"(r0) : "r"(r1) : "memory");
#elif defined(__thumb__)
  __asm__ __volatile__("svc #0xab" : "+r"(r0) : "r"(r1) : "memory");
#else
  __asm__ __volatile__("svc #0x123456" : "+r"(r0) : "r"(r1) : "memory");
#endif
  return (long)r0;
#else /* RISC-V: the three uncompressed instructions must sit together, aligned */
  register unsigned long a0 __asm__("a0") = op;
  register void *a1 __asm__("a1") = arg;
  __asm__ __volatile__(".option push\n\t"
                       ".option norvc\n\t"
                       ".balign 16\n\t"
                       "slli x0, x0, 0x1f\n\t"
                       "ebreak\n\t"
                       "srai x0, x0, 7\n\t"
                       ".option pop"
                       : "+r"(a0)
                       : "r"(a1)
                       : "memory");
  return (long)a0;
#endif
}

/* pathprof_write_fn writing to the host file whose handle ctx points to. */
static int write_host(void *ctx, const void *buf, unsigned long len)
{
  unsigned long args[3];
  args[0] = *(unsigned long *)ctx;
  args[1] = (unsigned long)buf;
  args[2] = len;
  return call(SYS_WRITE, args) == 0 ? 0 : -1; /* the host answers the bytes it did not write */
}

/* Writes the profile to path on the host (created or replaced), followed in an osp build by the
   OSP snapshot, a stream of its own whose OSPH record names the units of its stream. */
int pathprof_semihost_write(const char *path)
{
  unsigned long args[3], handle, n = 0;
  long h;
  int rc;

  if (!path)
    return -1;
  while (path[n])
    n++;
  args[0] = (unsigned long)path;
  args[1] = OPEN_WB;
  args[2] = n;
  h = call(SYS_OPEN, args);
  if (h == -1)
    return -1;
  handle = (unsigned long)h;
  rc = pathprof_dump(write_host, &handle);
  if (rc == 0 && __pathprof_osp_dump) /* an osp build: its snapshot as a second stream (§2) */
    rc = __pathprof_osp_dump(write_host, &handle);
  args[0] = handle;
  if (call(SYS_CLOSE, args) != 0)
    rc = -1;
  return rc;
}

/* Ends the program: status 0 as a normal application exit; another status through
   SYS_EXIT_EXTENDED, or as a run-time error where the host lacks that call. */
void pathprof_semihost_exit(int status)
{
  unsigned long args[2];

  args[0] = ADP_STOPPED_APPLICATION_EXIT;
  args[1] = (unsigned long)(long)status;
#if defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64)
  call(SYS_EXIT, args); /* 64-bit hosts take the {reason, status} block */
#else
  if (status == 0)
    call(SYS_EXIT, (void *)ADP_STOPPED_APPLICATION_EXIT);
  else
    call(SYS_EXIT_EXTENDED, args);
  call(SYS_EXIT, (void *)ADP_STOPPED_RUNTIME_ERROR);
#endif
  for (;;) {
  }
}
