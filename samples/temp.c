/* Sample: converts temperatures given on the command line ("21C", "70F", "300K"); the residual-path tutorial's program. */
#include <stdio.h>
#include <stdlib.h>

static int convert(const char *arg, double *celsius)
{
  char *end;
  double v = strtod(arg, &end);
  if (end == arg || end[0] == '\0' || end[1] != '\0')
    return -1;
  switch (*end) {
  case 'C': case 'c':
    *celsius = v;
    break;
  case 'F': case 'f':
    *celsius = (v - 32) * 5 / 9;
    break;
  case 'K': case 'k':
    if (v < 0)
      return -1;
    *celsius = v - 273.15;
    break;
  default:
    return -1;
  }
  return 0;
}

int main(int argc, char **argv)
{
  static const char *const tests[] = { "21C", "70F", "-40F", "100c" };
  int n = argc > 1 ? argc - 1 : 4, bad = 0;
  for (int i = 0; i < n; i++) {
    const char *in = argc > 1 ? argv[i + 1] : tests[i];
    double c;
    if (convert(in, &c) != 0) {
      printf("%s: not a temperature\n", in);
      bad++;
    } else
      printf("%s = %.2f C\n", in, c);
  }
  return bad ? 1 : 0;
}
