/* check.h: the unit tests' one reporting helper: "ok NAME" or "not ok NAME: why" per check. */
#ifndef PP_TEST_CHECK_H
#define PP_TEST_CHECK_H
#include <stdarg.h>
#include <stdio.h>

static int failures;

/* Prints "ok name" or "not ok name: why" for one check. */
#if defined(__GNUC__)
static void check(const char *name, int good, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#endif
static void check(const char *name, int good, const char *fmt, ...)
{
  va_list ap;
  if (good) {
    printf("ok %s\n", name);
    return;
  }
  failures++;
  printf("not ok %s: ", name);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
}
#endif
