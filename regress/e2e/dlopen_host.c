/* dlopen_host.c: a host that dlopens N instrumented modules (regress/e2e/dlopen.sh): module i
   (DIR/modI.so) has work(x), called for x = 0..4i, and every third module is dlclosed as soon as
   it has been called, before the next loads. Prints how many loaded and the sum of the results. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* Loads module i and calls its work 4i+1 times; returns 1 when it loaded. */
static int use(const char *dir, int i, long *sum)
{
  char name[4096];
  void *h;
  int (*work)(int);
  int x;

  snprintf(name, sizeof name, "%s/mod%d.so", dir, i);
  h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    printf("%s\n", dlerror());
    return 0;
  }
  *(void **)&work = dlsym(h, "work");
  if (!work) {
    printf("mod%d: no work\n", i);
    return 0;
  }
  for (x = 0; x <= 4 * i; x++)
    *sum += work(x);
  if (i % 3 == 1)
    dlclose(h);
  return 1;
}

int main(int argc, char **argv)
{
  int n = argc > 2 ? atoi(argv[2]) : 100, i, loaded = 0;
  long sum = 0;
  for (i = 1; i <= n; i++)
    loaded += use(argc > 1 ? argv[1] : ".", i, &sum);
  printf("loaded %d sum %ld\n", loaded, sum);
  return loaded == n ? 0 : 1;
}
