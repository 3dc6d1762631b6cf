/* pathcc's view of compilers: diagnostic lines read as file:line: kind: message (diag.c), and the
   facts of ccprobe.c from canned -dM -E answers of gcc, clang, tcc and a cross compiler, with the
   test link and the cache, through a runner that plays the compiler; when preprocessing keeps
   comments. */
#include "pathcc/ccprobe.h"
#include "pathcc/diag.h"
#include "model/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(name, cond, ...) do { \
    if (cond) printf("ok %s\n", name); \
    else { failures++; printf("not ok %s: ", name); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

static void key_is(const char *name, const char *line, const char *want) {
  char *k = pp_diag_key(line);
  CHECK(name, (!k && !want) || (k && want && !strcmp(k, want)), "key of '%s' is '%s', want '%s'", line,
        k ? k : "(none)", want ? want : "(none)");
  free(k);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) { fputs(text, f); fclose(f); }
}

static void test_keys(void) {
  key_is("diag gcc", "ft.c:4:12: error: this statement may fall through [-Werror=implicit-fallthrough=]",
         "ft.c:4: error: this statement may fall through [-Werror=implicit-fallthrough=]");
  key_is("diag clang", "ft.c:5:3: warning: unannotated fall-through between switch labels [-Wimplicit-fallthrough]",
         "ft.c:5: warning: unannotated fall-through between switch labels [-Wimplicit-fallthrough]");
  key_is("diag tcc (no column)", "rt.c:1: error: function might return no value: 'g'",
         "rt.c:1: error: function might return no value: 'g'");
  key_is("diag colour", "\033[01m\033[Kx.c:3:1:\033[m\033[K \033[01;35m\033[Kwarning: \033[m\033[Kunused [-Wunused]",
         "x.c:3: warning: unused [-Wunused]");
  key_is("diag fatal", "a.c:1:10: fatal error: nosuch.h: No such file or directory",
         "a.c:1: fatal error: nosuch.h: No such file or directory");
  key_is("diag note", "ft.c:5:3: note: here", NULL);
  key_is("diag context", "ft.c: In function 'f':", NULL);
  key_is("diag driver", "clang: warning: argument unused during compilation: '-I .' [-Wunused-command-line-argument]", NULL);
  key_is("diag cc1", "cc1: warning: command-line option '-Wc++-compat' is valid for C/ObjC", NULL);
  key_is("diag option", "warning: unknown warning option '-Wshadow=local' [-Wunknown-warning-option]", NULL);
  key_is("diag summary", "1 warning generated.", NULL);

  char a[] = "/tmp/pp-diag-a-XXXXXX", b[] = "/tmp/pp-diag-b-XXXXXX";
  close(mkstemp(a));
  close(mkstemp(b));
  write_text(a, "x.c: In function 'f':\nx.c:4:12: warning: unused variable 'y' [-Wunused-variable]\n"
                "    4 |   int y;\n      |       ^\nx.c:4:12: warning: unused variable 'y' [-Wunused-variable]\n");
  write_text(b, "x.c:4:5: warning: unused variable 'y' [-Wunused-variable]\n1 warning generated.\n");
  const char *one[] = { a };
  CHECK("diag same (columns, context, repeats)", pp_diag_same(one, 1, b), "the two outputs should say the same");
  CHECK("diag any", pp_diag_any(one, 1), "a warning about x.c:4 is a diagnostic");
  write_text(b, "x.c:5:5: warning: unused variable 'y' [-Wunused-variable]\n");
  CHECK("diag other line", !pp_diag_same(one, 1, b), "another line is another diagnostic");
  write_text(a, "clang: warning: argument unused during compilation: '-I .'\n");
  CHECK("diag none", !pp_diag_any(one, 1), "the driver's words about the command line are no diagnostic");
  unlink(a);
  unlink(b);
}

/* The play-acting compiler: -dM -E writes the canned macros of *ctx to the -o file; a test link
   succeeds unless it carries -Wl,--exclude-libs and the compiler is tcc. Counts its runs. */
typedef struct { const char *macros; bool tcc; int runs; } Fake;

static int fake_run(char **argv, const char *out, const char *err, void *ctx) {
  Fake *f = ctx;
  bool dm = false, exclude = false;
  const char *o = NULL;
  (void)out; (void)err;
  f->runs++;
  for (int i = 0; argv[i]; i++) {
    dm |= !strcmp(argv[i], "-dM");
    exclude |= !strncmp(argv[i], "-Wl,--exclude-libs", 18);
    if (!strcmp(argv[i], "-o") && argv[i + 1]) o = argv[i + 1];
  }
  if (dm && o) { write_text(o, f->macros); return 0; }
  return exclude && f->tcc ? 1 : 0;
}

#define STR2(x) #x
#define STR(x) STR2(x)

/* The host's own answer, as the compiler that built this test would give it. */
static char *host_macros(const char *family) {
  return pp_xasprintf("#define %s 1\n#define __GNUC__ 12\n#define __clang_major__ 14\n#define __SIZEOF_INT__ 4\n"
                      "#define __STDC_VERSION__ 201710L\n#define __SIZEOF_POINTER__ %d\n#define __SIZEOF_LONG__ %d\n"
                      "#define __ORDER_LITTLE_ENDIAN__ 1234\n#define __ORDER_BIG_ENDIAN__ 4321\n"
                      "#define __BYTE_ORDER__ %s\n#define __linux__ 1\n#define __ELF__ 1\n#define __GLIBC__ 2\n%s",
                      family, (int)sizeof(void *), (int)sizeof(long),
                      STR(__BYTE_ORDER__)[0] == '1' ? "__ORDER_LITTLE_ENDIAN__" : "__ORDER_BIG_ENDIAN__",
#if defined(__x86_64__)
                      "#define __x86_64__ 1\n"
#elif defined(__aarch64__)
                      "#define __aarch64__ 1\n"
#else
                      ""
#endif
                      );
}

static void test_probe(void) {
  char dir[] = "/tmp/pp-probe-XXXXXX", cache[] = "/tmp/pp-cache-XXXXXX";
  if (!mkdtemp(dir) || !mkdtemp(cache)) { CHECK("probe dirs", 0, "cannot make temporary directories"); return; }
  setenv("PATHCC_CACHE_DIR", cache, 1);
  char *words[] = { "pathcc-test-clang" }, *flags[] = { "-std=c11" };
  char *m = host_macros("__clang__");
  Fake clang = { m, false, 0 };
  PPCompiler c;
  pp_cc_probe(&c, words, 1, flags, 1, dir, true, fake_run, &clang);
  CHECK("probe clang family", c.known && c.family == PP_CC_CLANG && c.major == 14, "family %d major %d", c.family, c.major);
  CHECK("probe clang host", c.host, "clang's target '%s' should be the host's '%s' (a triple's spelling does not matter)",
        c.target, pp_cc_host_target());
  CHECK("probe clang link", c.exclude_libs == 1, "exclude_libs %d", c.exclude_libs);
  CHECK("probe clang atomics", c.gnu && c.c11_atomics && c.int_bits == 32, "gnu %d c11 %d int %d", c.gnu, c.c11_atomics, c.int_bits);
  int runs = clang.runs;
  pp_cc_probe(&c, words, 1, flags, 1, dir, true, fake_run, &clang);
  CHECK("probe cache", clang.runs == runs && c.family == PP_CC_CLANG && c.exclude_libs == 1,
        "the second probe ran the compiler %d more times", clang.runs - runs);
  free(m);

  /* tcc: its -dM lists #undef lines and names no __ELF__; its linker refuses --exclude-libs */
  char *t = host_macros("__TINYC__");
  char *tm = pp_xasprintf("%s#undef __GNUC__\n#define __STDC_VERSION__ 199901L\n#undef __ELF__\n", t);
  Fake tcc = { tm, true, 0 };
  char *tw[] = { "pathcc-test-tcc" };
  pp_cc_probe(&c, tw, 1, NULL, 0, dir, true, fake_run, &tcc);
  CHECK("probe tcc", c.family == PP_CC_TCC && c.host && !c.gnu && !c.c11_atomics && c.exclude_libs == 0,
        "family %d host %d gnu %d c11 %d exclude_libs %d target %s", c.family, c.host, c.gnu, c.c11_atomics,
        c.exclude_libs, c.target);
  free(t);
  free(tm);

  /* a cross compiler: another target, whatever else it shares */
  Fake arm = { "#define __GNUC__ 12\n#define __arm__ 1\n#define __SIZEOF_POINTER__ 4\n#define __SIZEOF_LONG__ 4\n"
               "#define __ELF__ 1\n#define __SIZEOF_INT__ 4\n", false, 0 };
  char *aw[] = { "pathcc-test-arm-none-eabi-gcc" };
  pp_cc_probe(&c, aw, 1, NULL, 0, dir, false, fake_run, &arm);
  CHECK("probe cross", c.family == PP_CC_GCC && !c.host && strstr(c.target, "arm ") == c.target && c.exclude_libs == -1,
        "host %d target %s exclude_libs %d", c.host, c.target, c.exclude_libs);
  CHECK("probe target flags", pp_cc_target_flag("-m32") && pp_cc_target_flag("--target=arm-none-eabi") &&
        pp_cc_target_flag("-std=c89") && !pp_cc_target_flag("-DX=1") && !pp_cc_target_flag("-Wall") &&
        !pp_cc_target_flag("-O2") && pp_cc_target_flag("-Wl,-melf_i386"), "the target-choosing options");
  char *rm = pp_xasprintf("rm -rf '%s' '%s'", dir, cache);
  if (system(rm)) {}
  free(rm);
}

/* reads ARGS... (NULL-ended) for a compiler of family f */
static bool reads(PPCCFamily f, ...) {
  char *args[8];
  size_t n = 0;
  va_list ap;
  va_start(ap, f);
  while (n < 8 && (args[n] = va_arg(ap, char *))) n++;
  va_end(ap);
  PPCompiler c = { .known = true, .family = f };
  return pp_cc_reads_comments(&c, args, n);
}

/* Preprocessing keeps comments only where the compile may read them: GCC's fallthrough
   comments (-Wextra, its old name -W, -Wimplicit-fallthrough in any form), clang's
   documentation comments, -C asked for, a diagnostic pragma naming one; any other compiler. */
static void test_comments(void) {
  CHECK("comments gcc plain", !reads(PP_CC_GCC, "-O2", "-Wall", "-Werror", "-c", NULL), "gcc -O2 -Wall reads no comment");
  CHECK("comments gcc extra", reads(PP_CC_GCC, "-O2", "-Wextra", NULL) && reads(PP_CC_GCC, "-W", NULL) &&
        reads(PP_CC_GCC, "-Wimplicit-fallthrough=3", NULL) && reads(PP_CC_GCC, "-Werror=implicit-fallthrough", NULL),
        "-Wextra, -W and the fallthrough options turn on a warning that reads comments");
  CHECK("comments not asked", !reads(PP_CC_GCC, "-Wno-extra", "-Wno-implicit-fallthrough", "-Wl,--extra-x", "-Wa,-extra", NULL),
        "-Wno- options and the linker's or assembler's words ask for nothing");
  CHECK("comments -C", reads(PP_CC_GCC, "-C", NULL) && reads(PP_CC_CLANG, "-CC", NULL), "the user's -C keeps them");
  CHECK("comments clang", reads(PP_CC_CLANG, "-Wdocumentation", NULL) && reads(PP_CC_CLANG, "-Weverything", NULL) &&
        reads(PP_CC_CLANG, "-fparse-all-comments", NULL) && !reads(PP_CC_CLANG, "-O2", "-Wall", NULL),
        "clang's documentation warnings read comments, -Wall does not");
  CHECK("comments other", reads(PP_CC_TCC, NULL) && reads(PP_CC_OTHER, "-O2", NULL), "an unknown compiler may read them");
  char dir[] = "/tmp/test_compiler_iXXXXXX";
  if (!mkdtemp(dir)) { CHECK("comments dir", 0, "cannot make a temporary directory"); return; }
  char *i1 = pp_xasprintf("%s/a.i", dir), *i2 = pp_xasprintf("%s/b.i", dir), *i3 = pp_xasprintf("%s/c.i", dir);
  write_text(i1, "# 1 \"a.c\"\n#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wunused\"\nint x;\n");
  write_text(i2, "int x;\n  #  pragma GCC diagnostic warning \"-Wimplicit-fallthrough\"\nint y;\n");
  write_text(i3, "#pragma clang diagnostic error \"-Wdocumentation\"\n");
  CHECK("comments pragma", !pp_pragma_reads_comments(i1) && pp_pragma_reads_comments(i2) && pp_pragma_reads_comments(i3),
        "only the pragmas naming such a warning ask for comments");
  CHECK("comments pragma unreadable", pp_pragma_reads_comments("/nonexistent/x.i"), "an unreadable file: keep them");
  unlink(i1); unlink(i2); unlink(i3); rmdir(dir);
  free(i1); free(i2); free(i3);
}

int main(void) {
  test_keys();
  test_probe();
  test_comments();
  return failures ? 1 : 0;
}
