/* Compiler facts: the predefined macros and a test link say what a compiler is and targets; cached per compiler. */
#include "ccprobe.h"
#include "instrument.h"
#include "model/util.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FACTS_VERSION "pathcc-compiler-facts 3"

/* The macros that tell targets apart. The runtime's own target comes from the same list as
   pathcc was compiled (pathcc and the runtime are built by one compiler). */
#define TARGET_MACROS(X) \
  X(__x86_64__) X(__i386__) X(__aarch64__) X(__arm__) X(__riscv) X(__riscv_xlen) X(__powerpc64__) \
  X(__powerpc__) X(__s390x__) X(__s390__) X(__mips__) X(__mips64) X(__loongarch__) X(__sparc__) \
  X(__AVR__) X(__MSP430__) X(__m68k__) X(__alpha__) X(__hppa__) X(__ia64__) X(__sh__) X(__xtensa__) \
  X(__SIZEOF_POINTER__) X(__SIZEOF_LONG__) X(__BYTE_ORDER__) X(__ORDER_LITTLE_ENDIAN__) X(__ORDER_BIG_ENDIAN__) \
  X(__ARM_PCS_VFP) X(__riscv_float_abi_soft) X(__riscv_float_abi_single) X(__riscv_float_abi_double) \
  X(__mips_hard_float) X(__mips_soft_float) X(__ILP32__) \
  X(__linux__) X(_WIN32) X(__APPLE__) X(__FreeBSD__) X(__NetBSD__) X(__OpenBSD__) X(__CYGWIN__) \
  X(__ELF__) X(__GLIBC__) X(__UCLIBC__) X(__BIONIC__) X(__NEWLIB__) X(_NEWLIB_VERSION) X(__PICOLIBC__)

#define STR2(x) #x
#define STR(x) STR2(x)
#define HOST_ENTRY(m) { #m, STR(m) },
static const char *const host_macros[][2] = { TARGET_MACROS(HOST_ENTRY) };

/* A macro table: the last #define of each name (an #undef removes it). */
typedef struct { char *name, *value; } Macro;
typedef VEC(Macro) Macros;

static Macro *find(Macros *m, const char *name) {
  for (size_t i = m->n; i-- > 0;)
    if (!strcmp(m->v[i].name, name)) return &m->v[i];
  return NULL;
}

/* Reads -dM -E output: object-like macros only (tcc lists #undef lines too). */
static void parse_macros(Macros *m, char *text) {
  for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
    bool def = !strncmp(l, "#define ", 8), undef = !strncmp(l, "#undef ", 7);
    if (!def && !undef) continue;
    char *n = l + (def ? 8 : 7), *e = n;
    while (isalnum((unsigned char)*e) || *e == '_') e++;
    if (*e == '(') continue;
    char *name = pp_xasprintf("%.*s", (int)(e - n), n);
    while (*e == ' ') e++;
    Macro *old = find(m, name);
    if (old && undef) { free(old->name); free(old->value); *old = m->v[--m->n]; free(name); continue; }
    if (undef) { free(name); continue; }
    if (old) { free(old->value); old->value = pp_xstrdup(e); free(name); continue; }
    Macro x = { name, pp_xstrdup(e) };
    VEC_PUSH(*m, x);
  }
}

static void free_macros(Macros *m) {
  for (size_t i = 0; i < m->n; i++) { free(m->v[i].name); free(m->v[i].value); }
  VEC_FREE(*m);
}

/* A macro's value with names of other macros replaced by theirs (__BYTE_ORDER__ is
   __ORDER_LITTLE_ENDIAN__, which is 1234); NULL when it is not defined. */
static const char *value(Macros *m, const char *name) {
  Macro *x = find(m, name);
  for (int depth = 0; x && depth < 4; depth++) {
    Macro *y = (isalpha((unsigned char)x->value[0]) || x->value[0] == '_') ? find(m, x->value) : NULL;
    if (!y) break;
    x = y;
  }
  return x ? x->value : NULL;
}

static long number(Macros *m, const char *name) {
  const char *v = value(m, name);
  return v ? strtol(v, NULL, 0) : 0;
}

/* The target's spelling: arch, pointer and long sizes, byte order, float ABI, OS, object
   format and libc; two compilers with the same spelling link the same runtime. */
static void target_of(Macros *m, char *out, size_t n) {
  static const char *const arches[][2] = {
    { "__x86_64__", "x86_64" }, { "__i386__", "i386" }, { "__aarch64__", "aarch64" }, { "__arm__", "arm" },
    { "__riscv", "riscv" }, { "__powerpc64__", "ppc64" }, { "__powerpc__", "ppc" }, { "__s390x__", "s390x" },
    { "__s390__", "s390" }, { "__mips64", "mips64" }, { "__mips__", "mips" }, { "__loongarch__", "loongarch" },
    { "__sparc__", "sparc" }, { "__AVR__", "avr" }, { "__MSP430__", "msp430" }, { "__m68k__", "m68k" },
    { "__alpha__", "alpha" }, { "__hppa__", "hppa" }, { "__ia64__", "ia64" }, { "__sh__", "sh" },
    { "__xtensa__", "xtensa" } };
  static const char *const oses[][2] = { { "__linux__", "linux" }, { "_WIN32", "windows" }, { "__CYGWIN__", "cygwin" },
    { "__APPLE__", "darwin" }, { "__FreeBSD__", "freebsd" }, { "__NetBSD__", "netbsd" }, { "__OpenBSD__", "openbsd" } };
  static const char *const libcs[][2] = { { "__GLIBC__", "glibc" }, { "__UCLIBC__", "uclibc" }, { "__BIONIC__", "bionic" },
    { "__NEWLIB__", "newlib" }, { "_NEWLIB_VERSION", "newlib" }, { "__PICOLIBC__", "picolibc" } };
  static const char *const fabis[][2] = { { "__ARM_PCS_VFP", "vfp" }, { "__riscv_float_abi_soft", "soft" },
    { "__riscv_float_abi_single", "single" }, { "__riscv_float_abi_double", "double" },
    { "__mips_hard_float", "hard" }, { "__mips_soft_float", "soft" } };
  const char *arch = "unknown", *os = "none", *libc = "other", *fabi = "-";
  for (size_t i = 0; i < sizeof arches / sizeof *arches && !strcmp(arch, "unknown"); i++)
    if (find(m, arches[i][0])) arch = arches[i][1];
  for (size_t i = 0; i < sizeof oses / sizeof *oses && !strcmp(os, "none"); i++)
    if (find(m, oses[i][0])) os = oses[i][1];
  for (size_t i = 0; i < sizeof libcs / sizeof *libcs && !strcmp(libc, "other"); i++)
    if (find(m, libcs[i][0])) libc = libcs[i][1];
  for (size_t i = 0; i < sizeof fabis / sizeof *fabis && !strcmp(fabi, "-"); i++)
    if (find(m, fabis[i][0])) fabi = fabis[i][1];
  /* tcc says nothing of ELF, which every Linux object is */
  const char *format = find(m, "__ELF__") || !strcmp(os, "linux") ? "elf" : !strcmp(os, "darwin") ? "macho" :
                       !strcmp(os, "windows") || !strcmp(os, "cygwin") ? "pe" : "other";
  const char *order = value(m, "__BYTE_ORDER__");
  snprintf(out, n, "%s%s%s ptr=%ld long=%ld order=%s fabi=%s os=%s format=%s libc=%s", arch,
           find(m, "__riscv_xlen") ? "-" : "", find(m, "__riscv_xlen") ? value(m, "__riscv_xlen") : "",
           number(m, "__SIZEOF_POINTER__"), number(m, "__SIZEOF_LONG__"), order ? order : "?", fabi, os, format, libc);
}

const char *pp_cc_host_target(void) {
  static char target[256];
  if (target[0]) return target;
  Macros m = {0};
  for (size_t i = 0; i < sizeof host_macros / sizeof *host_macros; i++) {
    if (!strcmp(host_macros[i][0], host_macros[i][1])) continue;  /* not defined: the name itself */
    Macro x = { pp_xstrdup(host_macros[i][0]), pp_xstrdup(host_macros[i][1]) };
    VEC_PUSH(m, x);
  }
  target_of(&m, target, sizeof target);
  free_macros(&m);
  return target;
}

const char *pp_cc_family_name(PPCCFamily f) {
  return f == PP_CC_GCC ? "gcc" : f == PP_CC_CLANG ? "clang" : f == PP_CC_TCC ? "tcc" : "cc";
}

/* Options that do not change the target, the language's macros or the link: left out of
   probes and of the cache key, so one build's compiles share one entry. */
bool pp_cc_target_flag(const char *a) {
  static const char *const skip[] = { "-D", "-U", "-I", "-W", "-w", "-O", "-g", "-M", "-o", "-c", "-S", "-E",
    "-pedantic", "-save-temps", "-v", "-pipe", "-fdiagnostics", "-fmessage-length", "-fmax-errors", "-ferror-limit",
    "-fcolor-diagnostics", "-fno-color-diagnostics", "-fno-diagnostics", "-fdump-", "-x", "-l", "-L", "-include",
    "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix", "-iwithprefix", "-C", "-P", "-H", "-fsyntax-only",
    "-ftime-report", "-fstack-usage", "-aux-info", "-shared", "-fprofile", "--coverage", "-fcallgraph-info", 0 };
  if (a[0] != '-' || !a[1]) return false;  /* "-" is standard input, which a probe must not read */
  if (!strncmp(a, "-Wl,", 4)) return true;  /* linker choices (-Wl,-m...) matter to the test link */
  for (int i = 0; skip[i]; i++)
    if (!strncmp(a, skip[i], strlen(skip[i]))) return false;
  return true;
}

/* ---- the cache ---- */

/* $PATHCC_CACHE_DIR (empty: no cache), else $XDG_CACHE_HOME/pathcc, else ~/.cache/pathcc. */
static char *cache_dir(void) {
  const char *d = getenv("PATHCC_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  char *dir = d ? (*d ? pp_xstrdup(d) : NULL) : x && *x ? pp_xasprintf("%s/pathcc", x) :
              h && *h ? pp_xasprintf("%s/.cache/pathcc", h) : NULL;
  if (!dir) return NULL;
  for (char *p = dir + 1; *p; p++)  /* mkdir -p */
    if (*p == '/') { *p = 0; mkdir(dir, 0755); *p = '/'; }
  if (mkdir(dir, 0755) && errno != EEXIST) { free(dir); return NULL; }
  return dir;
}

char *pp_cc_which(const char *w) {
  if (strchr(w, '/')) return pp_xstrdup(w);
  const char *path = getenv("PATH");
  char *copy = pp_xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL;
  for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
    char *full = pp_xasprintf("%s/%s", *dir ? dir : ".", w);
    if (access(full, X_OK) == 0) { free(copy); return full; }
    free(full);
  }
  free(copy);
  return NULL;
}

char *pp_cc_cache_path(const char *kind, uint64_t salt, char **words, size_t nwords, char **flags, size_t nflags) {
  char *dir = cache_dir();
  if (!dir) return NULL;
  uint64_t h = pp_fnv1a(salt, FACTS_VERSION, strlen(FACTS_VERSION));
  h = pp_fnv1a(h, pp_cc_host_target(), strlen(pp_cc_host_target()));
  for (size_t i = 0; i < nwords; i++) {
    char *f = pp_cc_which(words[i]);
    struct stat st;
    char *id = f && stat(f, &st) == 0 ? pp_xasprintf("%s|%s|%lld|%lld|%lld", words[i], f, (long long)st.st_size,
                                                     (long long)st.st_mtime, (long long)st.st_ino)
                                      : pp_xasprintf("%s|?", words[i]);
    h = pp_fnv1a(h, id, strlen(id) + 1);
    free(id);
    free(f);
  }
  for (size_t i = 0; i < nflags; i++) h = pp_fnv1a(h, flags[i], strlen(flags[i]) + 1);
  char *file = pp_xasprintf("%s/%s-%016llx", dir, kind, (unsigned long long)h);
  free(dir);
  return file;
}

static bool load(PPCompiler *c, const char *file) {
  char *text = file ? pp_read_file(file, NULL) : NULL;
  if (!text || strncmp(text, FACTS_VERSION "\n", strlen(FACTS_VERSION) + 1)) { free(text); return false; }
  int fam = 0, known = 0, host = 0, gnu = 0, c11 = 0;
  char *t = strstr(text, "\ntarget ");
  int got = sscanf(text + strlen(FACTS_VERSION), " known %d family %d major %d host %d int_bits %d stdc %ld gnu %d c11 %d "
                   "exclude_libs %d", &known, &fam, &c->major, &host, &c->int_bits, &c->stdc, &gnu, &c11, &c->exclude_libs);
  if (got != 9 || !t) { free(text); return false; }
  c->known = known; c->family = (PPCCFamily)fam; c->host = host; c->gnu = gnu; c->c11_atomics = c11;
  t += 8;
  snprintf(c->target, sizeof c->target, "%.*s", (int)strcspn(t, "\n"), t);
  const char *m = strstr(t, "\nmacros\n");
  c->macros = m ? pp_xstrdup(m + 8) : NULL;
  free(text);
  return true;
}

/* Written aside and renamed, so concurrent compiles never read half an entry. */
static void save(const PPCompiler *c, const char *file) {
  if (!file) return;
  char *tmp = pp_xasprintf("%s.%ld", file, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) { free(tmp); return; }
  fprintf(f, "%s\nknown %d\nfamily %d\nmajor %d\nhost %d\nint_bits %d\nstdc %ld\ngnu %d\nc11 %d\nexclude_libs %d\ntarget %s\n",
          FACTS_VERSION, c->known, (int)c->family, c->major, c->host, c->int_bits, c->stdc, c->gnu, c->c11_atomics,
          c->exclude_libs, c->target);
  if (c->macros) fprintf(f, "macros\n%s", c->macros);
  if (fclose(f) || rename(tmp, file)) unlink(tmp);
  free(tmp);
}

/* ---- asking the compiler ---- */

static char **command(char **words, size_t nwords, char **flags, size_t nflags, const char *const *more) {
  size_t nmore = 0;
  while (more[nmore]) nmore++;
  char **argv = pp_xcalloc(nwords + nflags + nmore + 1, sizeof(char *));
  size_t n = 0;
  for (size_t i = 0; i < nwords; i++) argv[n++] = words[i];
  for (size_t i = 0; i < nflags; i++) argv[n++] = flags[i];
  for (size_t i = 0; i < nmore; i++) argv[n++] = (char *)more[i];
  return argv;
}

/* The predefined macros, with <limits.h> included so the C library names itself (glibc's
   __GLIBC__); a compiler without that header (a bare cross compiler) is asked without it. */
static void ask_macros(PPCompiler *c, char **words, size_t nwords, char **flags, size_t nflags, const char *dir,
                       PPRunFn run, void *ctx) {
  char *src = pp_xasprintf("%s/probe-macros.c", dir), *out = pp_xasprintf("%s/probe-macros.h", dir);
  const char *more[] = { "-dM", "-E", src, "-o", out, NULL };
  char **argv = command(words, nwords, flags, nflags, more);
  FILE *f = fopen(src, "w");
  char *text = NULL;
  if (f) { fputs("#include <limits.h>\n", f); fclose(f); }
  if (f && run(argv, NULL, NULL, ctx) == 0) text = pp_read_file(out, NULL);
  if (!text && (f = fopen(src, "w"))) {
    fclose(f);
    if (run(argv, NULL, NULL, ctx) == 0) text = pp_read_file(out, NULL);
  }
  free(argv);
  unlink(src); unlink(out);
  free(src); free(out);
  c->host = true;  /* a compiler that cannot say gets the host's runtime, as it always did */
  if (!text) return;
  Macros m = {0};
  c->macros = pp_xstrdup(text);
  parse_macros(&m, text);
  free(text);
  c->known = true;
  c->family = find(&m, "__clang__") ? PP_CC_CLANG : find(&m, "__TINYC__") ? PP_CC_TCC :
              find(&m, "__GNUC__") ? PP_CC_GCC : PP_CC_OTHER;
  c->major = (int)number(&m, c->family == PP_CC_CLANG ? "__clang_major__" : c->family == PP_CC_TCC ? "__TINYC__" : "__GNUC__");
  c->int_bits = 8 * (int)number(&m, "__SIZEOF_INT__");
  c->stdc = number(&m, "__STDC_VERSION__");
  c->gnu = find(&m, "__GNUC__") != NULL;
  c->c11_atomics = c->stdc >= 201112L && !find(&m, "__STDC_NO_ATOMICS__");
  target_of(&m, c->target, sizeof c->target);
  c->host = !strcmp(c->target, pp_cc_host_target());
  free_macros(&m);
}

/* Does a link take -Wl,--exclude-libs (GNU ld, gold, lld, mold do; tcc's own linker does not)?
   A link that fails with it is tried without, so a compiler that cannot link at all says nothing. */
static void ask_link(PPCompiler *c, char **words, size_t nwords, char **flags, size_t nflags, const char *dir,
                     PPRunFn run, void *ctx) {
  char *src = pp_xasprintf("%s/probe-link.c", dir), *exe = pp_xasprintf("%s/probe-link", dir);
  const char *with[] = { src, "-o", exe, "-Wl,--exclude-libs,libpathprof.a", NULL }, *without[] = { src, "-o", exe, NULL };
  FILE *f = fopen(src, "w");
  if (f) { fputs("int main(void) { return 0; }\n", f); fclose(f); }
  char **a = command(words, nwords, flags, nflags, with), **b = command(words, nwords, flags, nflags, without);
  if (f && run(a, NULL, NULL, ctx) == 0) c->exclude_libs = 1;
  else if (f && run(b, NULL, NULL, ctx) == 0) c->exclude_libs = 0;
  free(a); free(b);
  unlink(src); unlink(exe);
  free(src); free(exe);
}

void pp_cc_probe(PPCompiler *c, char **words, size_t nwords, char **flags, size_t nflags, const char *dir,
                 bool link, PPRunFn run, void *ctx) {
  char *file = pp_cc_cache_path("cc", PP_FNV_BASIS, words, nwords, flags, nflags);
  memset(c, 0, sizeof *c);
  bool cached = load(c, file);
  if (!cached) {
    free(c->macros);
    memset(c, 0, sizeof *c);
    c->exclude_libs = -1;
    ask_macros(c, words, nwords, flags, nflags, dir, run, ctx);
  }
  bool asked = link && c->exclude_libs < 0;
  if (asked) ask_link(c, words, nwords, flags, nflags, dir, run, ctx);
  if (!cached || (asked && c->exclude_libs >= 0)) save(c, file);
  free(file);
}

long pp_cc_macro(const PPCompiler *c, const char *name, long dflt) {
  char *pat = pp_xasprintf("#define %s ", name);
  const char *m = c->macros ? strstr(c->macros, pat) : NULL;
  long v = m ? strtol(m + strlen(pat), NULL, 0) : dflt;
  free(pat);
  return v;
}

int pp_cc_atomic_kind(const PPCompiler *c) {
  if (pp_cc_macro(c, "__GCC_ATOMIC_LLONG_LOCK_FREE", 2) == 2) return PP_ATOMIC_64;
  bool little = c->macros && (strstr(c->macros, "#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__\n") ||
                              strstr(c->macros, "#define __BYTE_ORDER__ 1234\n"));
  if (pp_cc_macro(c, "__GCC_ATOMIC_INT_LOCK_FREE", 0) == 2 && c->int_bits == 32 && little) return PP_ATOMIC_32_CARRY;
  return PP_ATOMIC_MASKED;
}

bool pp_cc_no_tls(const PPCompiler *c) {
  return c->known && !c->gnu && !c->c11_atomics;
}

bool pp_cc_libc_threads(const PPCompiler *c) {
  long major = pp_cc_macro(c, "__GLIBC__", 0), minor = pp_cc_macro(c, "__GLIBC_MINOR__", 0);
  return c->gnu && (major > 2 || (major == 2 && minor >= 32));
}

bool pp_cc_avr(const PPCompiler *c) {
  return pp_cc_macro(c, "__AVR__", 0) != 0;
}

bool pp_cc_keep_calls(const PPCompiler *c) {
  return c->host && c->family == PP_CC_GCC && !strncmp(pp_cc_host_target(), "x86_64 ptr=8 ", 13) &&
         (pp_cc_macro(c, "__code_model_small__", 0) || pp_cc_macro(c, "__code_model_medium__", 0));
}

/* A compile for a shared object: __PIC__ without __PIE__ (initial-exec TLS would make each
   object take glibc's static TLS, which has room for a few). */
bool pp_cc_shared_code(const PPCompiler *c) {
  return pp_cc_macro(c, "__PIC__", 0) && !pp_cc_macro(c, "__PIE__", 0);
}

/* TLS descriptors for a shared object's code: its thread-locals through a call that returns
   the offset (a few instructions once the thread has the object's block) instead of
   __tls_get_addr's; in an executable the linker rewrites them into its own access. */
const char *pp_cc_tls_dialect(const PPCompiler *c, char **args, size_t n) {
  if (!pp_cc_shared_code(c) || c->family != PP_CC_GCC) return NULL;
  if (!pp_cc_macro(c, "__x86_64__", 0) && !pp_cc_macro(c, "__i386__", 0)) return NULL;
  for (size_t i = 0; i < n; i++)
    if (!strncmp(args[i], "-mtls-dialect=", 14)) return NULL;
  return "-mtls-dialect=gnu2";
}

/* The first place word occurs in the n bytes at s (not NUL-terminated), or NULL. */
static const char *find_word(const char *s, size_t n, const char *word) {
  size_t w = strlen(word);
  for (size_t i = 0; i + w <= n; i++)
    if (!memcmp(s + i, word, w)) return s + i;
  return NULL;
}

/* Whether the n bytes at s name a warning that reads comments or a group that holds one: GCC's
   implicit-fallthrough and extra, clang's documentation, everything, and any *comment* option. */
static bool names_comment_warning(const char *s, size_t n) {
  static const char *words[] = { "fallthrough", "extra", "documentation", "everything", "comment", 0 };
  for (int k = 0; words[k]; k++)
    if (find_word(s, n, words[k])) return true;
  return false;
}

bool pp_cc_reads_comments(const PPCompiler *c, char **args, size_t n) {
  if (c->family != PP_CC_GCC && c->family != PP_CC_CLANG) return true;
  for (size_t i = 0; i < n; i++) {
    const char *a = args[i];
    if (!strcmp(a, "-W") || !strcmp(a, "-C") || !strcmp(a, "-CC")) return true;  /* -W: old -Wextra */
    bool option = a[0] == '-' && (a[1] == 'W' || a[1] == 'f') && !(a[1] == 'W' && a[2] && a[3] == ',');  /* not -Wl, */
    if (option && strncmp(a, "-Wno-", 5) && names_comment_warning(a, strlen(a))) return true;
  }
  return false;
}

/* A line of the preprocessed text at line[0..n): "#pragma ... diagnostic ..." naming such a
   warning (a _Pragma in a macro comes out of the preprocessor as such a line too). */
static bool comment_pragma(const char *line, size_t n) {
  size_t i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
  if (i == n || line[i++] != '#') return false;
  while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
  if (n - i < 6 || memcmp(line + i, "pragma", 6)) return false;
  const char *d = find_word(line + i, n - i, "diagnostic");
  return d && names_comment_warning(d, (size_t)(line + n - d));
}

bool pp_pragma_reads_comments(const char *ipath) {
  size_t n;
  char *t = pp_read_file(ipath, &n);
  bool found = !t;  /* unreadable: the safe answer (it is read again to be parsed) */
  for (size_t i = 0; t && i < n && !found;) {
    const char *e = memchr(t + i, '\n', n - i);
    size_t len = e ? (size_t)(e - (t + i)) : n - i;
    found = comment_pragma(t + i, len);
    i += len + 1;
  }
  free(t);
  return found;
}
