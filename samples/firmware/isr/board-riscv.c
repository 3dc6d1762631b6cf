/* board-riscv.c: the interrupt sample on QEMU's RISC-V `virt` machine, bare metal in machine mode
   (-bios none; RV32I, RV32IMAC, RV64IMAC; linked with riscv.ld): the startup, the ns16550a UART,
   and the machine software interrupt of the CLINT (msip), raised by software at the points the
   program asks for, so its handler runs there and the counts are the same on every run. */
#include "pathprof.h"
#include "app.h"

#define UART ((volatile unsigned char *)0x10000000u)
#define UART_LSR_THRE 0x20u
#define MSIP (*(volatile unsigned int *)0x02000000u)
#define MCAUSE_MSI 3u

extern unsigned char _sbss[], _ebss[];
int main(void);
void reset(void);

/* The entry at the start of RAM: a stack, then C. */
__asm__(".section .text.start, \"ax\"\n"
        ".globl _start\n"
        "_start:\n"
        "  la sp, _estack\n"
        "  call reset\n"
        "1: j 1b\n"
        ".previous\n");

/* CSR instructions, whatever -march says (binutils 2.38 on want zicsr named) */
#define CSR(insn) ".option push\n\t.option arch, +zicsr\n\t" insn "\n\t.option pop"

static volatile int fired;

/* Every trap comes here: the software interrupt runs the handler's work; anything else ends the
   program with status 99. */
__attribute__((interrupt("machine"), aligned(4))) static void trap(void)
{
  unsigned long cause;

  __asm__ volatile(CSR("csrr %0, mcause") : "=r"(cause));
  if ((long)cause < 0 && (cause & 0xffu) == MCAUSE_MSI) {
    MSIP = 0u;
    app_isr();
    fired = 1;
  } else {
    pathprof_semihost_exit(99);
  }
}

void reset(void)
{
  volatile unsigned char *p; /* volatile: no memset */

  for (p = _sbss; p < _ebss; p++)
    *p = 0;
  board_exit(main());
}

void board_init(void)
{
  __asm__ volatile(CSR("csrw mtvec, %0") ::"r"(trap));
  __asm__ volatile(CSR("csrs mie, %0") ::"r"(1ul << MCAUSE_MSI));
  __asm__ volatile(CSR("csrs mstatus, %0") ::"r"(1ul << 3)); /* MIE */
}

int board_putc(int c)
{
  while (!(UART[5] & UART_LSR_THRE)) {
  }
  UART[0] = (unsigned char)c;
  return c;
}

void board_tick(void)
{
  fired = 0;
  MSIP = 1u;
  while (!fired) {
  }
}

void board_exit(int status)
{
  pathprof_semihost_exit(status);
}
