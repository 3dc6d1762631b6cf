/* board.c: the firmware's platform part for the lm3s6965evb (Cortex-M3, as QEMU emulates it):
   UART0, the test-case loop and the checkpoints. Compiled without pathcc: only the workload
   is profiled. SINK_SEMIHOST=1 writes one binary profile through semihosting at the end;
   otherwise each test case is followed by a text dump on the UART (mixed with other log lines,
   as on a real board) and a reset of the counters. */
#include "workload.h"
#include "pathprof.h"

#define UART0 0x4000c000u
#define UART_DR (*(volatile unsigned int *)(UART0 + 0x000u))
#define UART_FR (*(volatile unsigned int *)(UART0 + 0x018u))
#define UART_CTL (*(volatile unsigned int *)(UART0 + 0x030u))
#define SYSCTL_RCGC1 (*(volatile unsigned int *)0x400fe104u)
#define FR_TXFF (1u << 5)

#ifndef SINK_SEMIHOST
#define SINK_SEMIHOST 0
#endif

/* Builds for the footprint comparison (make compare-gcov): PLAIN_BUILD without any profiling,
   GCOV_BUILD with gcc -fprofile-arcs -fprofile-info-section (gcov_dump.c writes the .gcda). */
#if defined(PLAIN_BUILD) || defined(GCOV_BUILD)
#define pathprof_dump_text(put, label, flags) ((void)(put), (void)(label), 0)
#define pathprof_reset() ((void)0)
#endif
#ifdef PLAIN_BUILD
#define pathprof_semihost_write(file) ((void)(file), 0)
#endif
#ifdef GCOV_BUILD
int gcov_write_all(void);
#define pathprof_semihost_write(file) ((void)(file), gcov_write_all())
#endif
#ifndef PROFILE_FILE
#define PROFILE_FILE "fw-semi.prof"
#endif

static void uart_init(void)
{
  SYSCTL_RCGC1 |= 1u;    /* clock UART0 */
  UART_CTL = 0x301u;     /* UARTEN | TXE | RXE */
}

static int uart_putc(int c)
{
  while (UART_FR & FR_TXFF) {
  }
  UART_DR = (unsigned int)c & 0xffu;
  return c;
}

static void uart_puts(const char *s)
{
  while (*s)
    uart_putc(*s++);
}

static void uart_hex(unsigned int v)
{
  int shift;
  for (shift = 28; shift >= 0; shift -= 4)
    uart_putc("0123456789abcdef"[(v >> shift) & 0xfu]);
}

/* The dump's sink: after every 5th line another "task" logs a line of its own. */
static unsigned int lines;

static int noisy_putc(int c)
{
  uart_putc(c);
  if (c == '\n' && ++lines % 5u == 0) {
    uart_puts("[sensor] t=");
    uart_hex(lines);
    uart_puts(" ok\n");
  }
  return c;
}

int main(void)
{
  int i;
  unsigned int r;
  const char *name;

  uart_init();
  uart_puts("firmware: start\n");
  for (i = 0; i < NCASES; i++) {
    r = run_case(i);
    name = case_name(i);
    uart_puts("case ");
    uart_puts(name);
    uart_puts(": result 0x");
    uart_hex(r);
    uart_puts("\n");
    if (!SINK_SEMIHOST) {
      /* checkpoint: this case's counts, then start the next case from zero */
      if (pathprof_dump_text(noisy_putc, name, (i & 1) ? PATHPROF_TEXT_BASE64 : PATHPROF_TEXT_HEX) != 0)
        uart_puts("firmware: dump failed\n");
      pathprof_reset();
    }
  }
  if (SINK_SEMIHOST && pathprof_semihost_write(PROFILE_FILE) != 0)
    uart_puts("firmware: semihosting write failed\n");
  uart_puts("firmware: done\n");
  return 0;
}
