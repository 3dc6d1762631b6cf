/* bench workload "readelf": GNU binutils' readelf (from Debian's binutils-source, unpacked and
   configured by bench/binutils.sh into results/cache/binutils) run in-process on an archive of
   ELF objects with DWARF debug information, as `readelf -a -w ARCHIVE` would, SCALE times over.
   Its output goes into an FNV-1a hash instead of a file; the hash, the byte count and PASS are
   printed, so every build's output can be compared with the plain build's.
   Usage: readelf [SCALE]  (default 4); the archive is $READELF_INPUT, else the
   libiberty.a next to this build's cache (the harness passes it through the flags). */
#define _GNU_SOURCE 1
#define main readelf_main
#include "readelf.c"
#undef main

#ifndef READELF_INPUT
#define READELF_INPUT "libiberty.a"
#endif

static unsigned long long out_hash = 0xcbf29ce484222325ULL, out_bytes;

/* The output stream's write: folds the bytes into the hash. */
static ssize_t hash_write(void *cookie, const char *buf, size_t n)
{
  (void)cookie;
  for (size_t i = 0; i < n; i++)
    out_hash = (out_hash ^ (unsigned char)buf[i]) * 0x100000001b3ULL;
  out_bytes += n;
  return (ssize_t)n;
}

int main(int argc, char **argv)
{
  int scale = argc > 1 ? atoi(argv[1]) : 4, rc, i;
  const char *input = getenv("READELF_INPUT") ? getenv("READELF_INPUT") : READELF_INPUT;
  char **args = xmalloc(sizeof *args * (size_t)(scale + 4));
  cookie_io_functions_t io = { 0, hash_write, 0, 0 };
  FILE *real = stdout, *hashed = fopencookie(0, "w", io);
  int n = 0;
  if (!hashed)
    return 2;
  args[n++] = (char *)"readelf";
  args[n++] = (char *)"--debug-dump=info,abbrev,line,frames,str,ranges,loc";
  args[n++] = (char *)"-W";
  for (i = 0; i < scale; i++)
    args[n++] = (char *)input;
  args[n] = 0;
  stdout = hashed;
  rc = readelf_main(n, args);
  fflush(hashed);
  stdout = real;
  printf("readelf: %d pass%s over %s, exit %d, %llu bytes of output, hash %016llx\n", scale, scale == 1 ? "" : "es",
         input, rc, out_bytes, out_hash);
  printf("%s\n", rc == 0 && out_bytes > 0 ? "PASS" : "FAIL");
  return rc;
}
