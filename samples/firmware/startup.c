/* startup.c: a minimal Cortex-M3 startup: vector table, .data copy, .bss zeroing, main, and
   the end of the program through semihosting. Nothing pathprof-specific is needed here: units
   register themselves at the first call of one of their functions (no constructors), so the
   only requirement is the usual one, that .data and .bss are set up before main runs. */
#include "pathprof.h"

extern unsigned int _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
int main(void);

void Reset_Handler(void);
void Fault_Handler(void);

typedef void (*handler)(void);

/* Initial stack pointer, then the exception handlers (no interrupts are used). */
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
  Fault_Handler, /* SysTick */
};

void Reset_Handler(void)
{
  volatile unsigned int *d = _sdata; /* volatile: keeps these loops from becoming memcpy/memset */
  const unsigned int *s = _sidata;

  while (d < _edata)
    *d++ = *s++;
  for (d = _sbss; d < _ebss;)
    *d++ = 0;
  pathprof_semihost_exit(main());
}

void Fault_Handler(void)
{
  pathprof_semihost_exit(99);
}
