/* startup.c: a minimal Cortex-M startup (M0, M3, M4): vector table, .data copy, .bss zeroing, main, and
   the end of the program through semihosting. Nothing pathprof-specific is needed here: units
   register themselves at the first call of one of their functions (no constructors), so the
   only requirement is the usual one, that .data and .bss are set up before main runs. */
#include "pathprof.h"

extern unsigned int _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
int main(void);

void Reset_Handler(void);
void Fault_Handler(void);
/* The timer's handler, for a program that takes the interrupt (isr/board-cortex-m.c) */
void SysTick_Handler(void) __attribute__((weak, alias("Fault_Handler")));

typedef void (*handler)(void);

/* Initial stack pointer, then the exception handlers. */
__attribute__((section(".isr_vector"), used)) const handler vectors[16] = {
  (handler)(unsigned long)_estack,
  Reset_Handler,
  Fault_Handler, /* NMI */
  Fault_Handler, /* HardFault */
  Fault_Handler, /* MemManage */
  Fault_Handler, /* BusFault */
  Fault_Handler, /* UsageFault */
  0, 0, 0, 0,
  Fault_Handler, /* SVCall */
  Fault_Handler, /* DebugMonitor */
  0,
  Fault_Handler, /* PendSV */
  SysTick_Handler,
};

void Reset_Handler(void)
{
  volatile unsigned int *d = _sdata; /* volatile: keeps these loops from becoming memcpy/memset */
  const unsigned int *s = _sidata;

  while (d < _edata)
    *d++ = *s++;
  for (d = _sbss; d < _ebss;)
    *d++ = 0;
#ifdef __ARM_FP
  /* An FPU (Cortex-M4F): on, before GCC's code moves 64-bit values through its registers */
  *(volatile unsigned int *)0xe000ed88u |= 0xfu << 20; /* CPACR: CP10 and CP11, full access */
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  pathprof_semihost_exit(main());
}

void Fault_Handler(void)
{
  pathprof_semihost_exit(99);
}
