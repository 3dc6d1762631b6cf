/* app.h: the interrupt sample's program (app.c, profiled) and what each board gives it (board-*.c,
   not profiled). The same source runs on every target of regress/e2e/firmware_matrix.sh and on
   the host, so values stay far below 2^15: int is 16 bits on AVR. */
#ifndef APP_H
#define APP_H

/* app.c, compiled with pathcc */
int app_run(void);   /* the main loop; returns its result */
void app_isr(void);  /* the timer handler's work */

/* board-*.c */
void board_init(void);
int board_putc(int c);
void board_tick(void); /* makes the timer interrupt fire now and returns once its handler ran */
void board_exit(int status);

#endif
