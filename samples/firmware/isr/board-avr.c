/* board-avr.c: the interrupt sample on the ATmega328P (QEMU's arduino-uno, simavr), with
   avr-libc's startup: USART0 and Timer1, whose compare match A interrupt fires once, soon after
   board_tick starts the timer; board_tick waits for the handler, so it runs at the points the
   program asks for and the counts are the same on every run. The end is a sleep with interrupts
   off, which ends simavr (QEMU runs on; the script stops it after the last line). */
#include <avr/io.h>
#include <avr/interrupt.h>
#include <avr/sleep.h>
#include "app.h"

static volatile unsigned char fired;
extern unsigned char __heap_start[]; /* the end of .data and .bss: below the stack */

#define PAINT 0xa5

/* One run of the handler's work per tick: the timer stops, and a compare match that came again
   meanwhile (QEMU's timers follow the host's clock) is dropped, here and by the test of fired. */
ISR(TIMER1_COMPA_vect)
{
  TCCR1B = 0;
  TIFR1 = 1 << OCF1A;
  if (!fired) {
    app_isr();
    fired = 1;
  }
}

void board_init(void)
{
  unsigned char *p;

  /* the free RAM painted, so board_exit can tell how much of it the stack never touched */
  for (p = __heap_start; p < (unsigned char *)SP - 16; p++)
    *(volatile unsigned char *)p = PAINT;
  UCSR0B = 1 << TXEN0;
  TIMSK1 = 1 << OCIE1A;
  sei();
}

int board_putc(int c)
{
  while (!(UCSR0A & (1 << UDRE0))) {
  }
  UDR0 = (unsigned char)c;
  return c;
}

void board_tick(void)
{
  fired = 0;
  TCNT1 = 0;
  OCR1A = 50;
  TCCR1B = (1 << WGM12) | (1 << CS10); /* CTC on OCR1A, clock/1 */
  while (!fired) {
  }
}

void board_exit(int status)
{
  const unsigned char *p = __heap_start;
  unsigned int n = 0, shift;

  (void)status;
  while (p[n] == PAINT && p + n < (unsigned char *)SP)
    n++;
  for (const char *s = "isr: stack headroom 0x"; *s; s++)
    board_putc(*s);
  for (shift = 12; shift <= 12; shift -= 4)
    board_putc("0123456789abcdef"[(n >> shift) & 0xfu]);
  board_putc('\n');
  while (!(UCSR0A & (1 << TXC0))) { /* the last character out */
  }
  cli();
  set_sleep_mode(SLEEP_MODE_PWR_DOWN);
  sleep_enable();
  for (;;)
    sleep_cpu();
}
