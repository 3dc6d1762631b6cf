/* board-cortex-m.c: the interrupt sample on the Cortex-M boards QEMU emulates (with ../startup.c
   and cortex-m-16k.ld): the micro:bit (Cortex-M0, -DBOARD_MICROBIT: the nRF51's UART) and the
   mps2-an385 / mps2-an386 (Cortex-M3 / M4F: the CMSDK UART). The timer is SysTick, made pending
   by software (ICSR.PENDSTSET) at the points the program asks for, so its handler runs there and
   the counts are the same on every run. */
#include "pathprof.h"
#include "app.h"

#define REG(a) (*(volatile unsigned int *)(a))
#define SYST_CSR REG(0xe000e010u)
#define ICSR REG(0xe000ed04u)
#define PENDSTSET (1u << 26)

#ifdef BOARD_MICROBIT
#define UART 0x40002000u
#define UART_STARTTX REG(UART + 0x008u)
#define UART_TXDRDY REG(UART + 0x11cu)
#define UART_ENABLE REG(UART + 0x500u)
#define UART_TXD REG(UART + 0x51cu)
#else
#define UART 0x40004000u
#define UART_DATA REG(UART + 0x000u)
#define UART_STATE REG(UART + 0x004u)
#define UART_CTRL REG(UART + 0x008u)
#endif

static volatile int fired;

void SysTick_Handler(void)
{
  app_isr();
  fired = 1;
}

void board_init(void)
{
  SYST_CSR = 0; /* the counter stays off: SysTick fires only when made pending */
#ifdef BOARD_MICROBIT
  UART_ENABLE = 4u;
  UART_STARTTX = 1u;
#else
  UART_CTRL = 1u; /* TX enable */
#endif
}

int board_putc(int c)
{
#ifdef BOARD_MICROBIT
  UART_TXDRDY = 0u;
  UART_TXD = (unsigned int)c & 0xffu;
  while (!UART_TXDRDY) {
  }
#else
  while (UART_STATE & 1u) { /* TX buffer full */
  }
  UART_DATA = (unsigned int)c & 0xffu;
#endif
  return c;
}

void board_tick(void)
{
  fired = 0;
  ICSR = PENDSTSET;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  while (!fired) {
  }
}

void board_exit(int status)
{
  pathprof_semihost_exit(status);
}
