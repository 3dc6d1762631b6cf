/* Sample: ordinary code over the standard headers stdio, stdlib, string and math. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad;

static void check(const char *what, long got, long want)
{
  printf("%-14s %ld\n", what, got);
  if (got != want) {
    printf("  wrong, want %ld\n", want);
    bad++;
  }
}

struct item {
  char name[16];
  double price;
  int qty;
};

static int by_value(const void *a, const void *b)
{
  const struct item *x = a, *y = b;
  double vx = x->price * x->qty, vy = y->price * y->qty;
  if (vx < vy) return 1;
  if (vx > vy) return -1;
  return strcmp(x->name, y->name);
}

/* Parses "name:price:qty" records separated by commas with strtok, strtod and strtol. */
static int parse(char *text, struct item *out, int max)
{
  int n = 0;
  char *rec, *save = text;
  while (n < max && (rec = strtok(save, ",")) != NULL) {
    char *colon = strchr(rec, ':'), *end;
    save = NULL;
    if (!colon || colon - rec >= (long)sizeof out[n].name)
      continue;
    memset(out[n].name, 0, sizeof out[n].name);
    memcpy(out[n].name, rec, (size_t)(colon - rec));
    out[n].price = strtod(colon + 1, &end);
    if (*end != ':')
      continue;
    out[n].qty = (int)strtol(end + 1, NULL, 10);
    n++;
  }
  return n;
}

int main(void)
{
  char text[] = "apple:0.5:40,pear:0.75:12,bad record,melon:3.2:3,fig:1.25:16,kiwi:0.3:50,plum:x:1";
  struct item items[10];
  char line[64];
  double total = 0, rms = 0;
  long sig = 0;
  int n, i, *heap;
  div_t d;

  n = parse(text, items, 10);
  check("parsed", n, 5);
  qsort(items, (size_t)n, sizeof items[0], by_value);
  for (i = 0; i < n; i++) {
    double v = items[i].price * items[i].qty;
    snprintf(line, sizeof line, "%-6s %6.2f x %3d = %7.2f", items[i].name, items[i].price, items[i].qty, v);
    puts(line);
    total += v;
    rms += v * v;
    sig = sig * 31 + (long)strlen(items[i].name) + items[i].name[0];
  }
  rms = sqrt(rms / n);
  printf("total %.2f rms %.4f\n", total, rms);
  check("order_sig", sig, 97437518);
  check("total_cents", lround(total * 100), 7360);
  check("rms_floor", (long)floor(rms * 1000), 15480);
  check("pow_fabs", (long)(pow(2.0, 10) + fabs(-3.5) * 2), 1031);

  heap = malloc(100 * sizeof *heap);
  if (!heap)
    return 99;
  for (i = 0; i < 100; i++)
    heap[i] = abs(50 - i) * (i % 3 == 0 ? -1 : 1);
  sig = 0;
  for (i = 0; i < 100; i++)
    sig += heap[i];
  free(heap);
  d = div((int)sig, 7);
  check("div", d.quot * 10 + d.rem, 1093);

  if (sscanf("12 apples and 7 pears", "%d apples and %d", &n, &i) == 2)
    check("sscanf", n * 100 + i, 1207);
  else
    bad++;

  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
