/* gcov_dump.c: only for the footprint comparison (make compare-gcov): the counterpart of
   pathprof_semihost_write for gcc -fprofile-arcs -fprofile-info-section: every gcov_info the
   linker gathered into the .gcov_info section is written through semihosting to its .gcda file
   on the host, serialised by libgcov's __gcov_info_to_gcda (gcc 12 and later). */
struct gcov_info;
extern const struct gcov_info *const __gcov_info_start[];
extern const struct gcov_info *const __gcov_info_end[];
void __gcov_info_to_gcda(const struct gcov_info *info, void (*filename_fn)(const char *, void *),
                         void (*dump_fn)(const void *, unsigned, void *),
                         void *(*allocate_fn)(unsigned, void *), void *arg);
int gcov_write_all(void);

/* One ARM semihosting call (M-profile). */
static long semihost(unsigned long op, void *arg)
{
  register unsigned long r0 __asm__("r0") = op;
  register void *r1 __asm__("r1") = arg;
  __asm__ __volatile__("bkpt #0xab" : "+r"(r0) : "r"(r1) : "memory");
  return (long)r0;
}

struct file {
  long handle;
  int failed;
};

/* Opens the .gcda file on the host ("wb"). */
static void open_gcda(const char *name, void *arg)
{
  struct file *f = arg;
  unsigned long a[3], n = 0;
  while (name[n])
    n++;
  a[0] = (unsigned long)name;
  a[1] = 5; /* "wb" */
  a[2] = n;
  f->handle = semihost(0x01, a);
  f->failed = f->handle == -1;
}

/* Writes a piece of the .gcda data. */
static void write_gcda(const void *data, unsigned n, void *arg)
{
  struct file *f = arg;
  unsigned long a[3];
  if (f->failed)
    return;
  a[0] = (unsigned long)f->handle;
  a[1] = (unsigned long)data;
  a[2] = n;
  if (semihost(0x05, a) != 0)
    f->failed = 1;
}

/* Scratch memory libgcov asks for (top-n counters only; none here). */
static void *allocate(unsigned n, void *arg)
{
  static unsigned long pool[16];
  (void)arg;
  return n <= sizeof pool ? pool : 0;
}

/* Writes every unit's .gcda; 0, or -1 if one failed. */
int gcov_write_all(void)
{
  const struct gcov_info *const *p;
  struct file f;
  unsigned long a[1];
  int rc = 0;

  for (p = __gcov_info_start; p < __gcov_info_end; p++) {
    f.handle = -1;
    f.failed = 1;
    __gcov_info_to_gcda(*p, open_gcda, write_gcda, allocate, &f);
    if (f.handle != -1) {
      a[0] = (unsigned long)f.handle;
      semihost(0x02, a);
    }
    if (f.failed)
      rc = -1;
  }
  return rc;
}
