/* pathcc: a drop-in C compiler that instruments each C source for path profiling. */
#include "ccprobe.h"
#include "ccopts.h"
#include "ccrun.h"
#include "diag.h"
#include "instrument.h"
#include "masq.h"
#include "respfile.h"
#include "rtbuild.h"
#include "server.h"
#include "usage.h"
#include "model/util.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <fnmatch.h>
#include <unistd.h>

typedef PPArgs Args;

typedef struct {
  const char *cc;          /* the real compiler */
  Args inc_files, exc_files, inc_funcs, exc_funcs;  /* selection globs */
  Args ccpre;              /* words before the user's arguments (e.g. "ccache gcc") */
  Args args;               /* the user's arguments, pathcc's own removed */
  PPOptions opt;
  bool strict, verbose;
  int diagnostics;           /* --diagnostics=: DIAG_AUTO, DIAG_CHECKED or DIAG_EXACT */
  bool try_compiles;         /* --try-compiles: instrument configure's and CMake's test programs too */
  bool update_set;         /* --update= was given; else -pthread picks prefer-atomic */
  char *tmpdir;
  PPPrefixMaps maps;      /* the user's -f*-prefix-map options */
  PPCompiler facts;          /* what the compiler is and targets (ccprobe.c) */
  int cc_asked;              /* 0: not yet, 1: its macros, 2: also its link */
  Args target_flags;         /* the user's flags that choose the target (-m32, --sysroot...) */
  int rt_asked;              /* the built runtime (rt_lib or rt_why): 0 not yet asked, 1 asked */
  char *rt_lib, *rt_why;     /* a hosted target's runtime built from the sources (rtbuild.c), or why not */
  bool hash_cap_given;       /* --hash-cap was given */
  bool array_limit_given;    /* --array-limit was given */
  const char *interesting;   /* --interesting=SPEC */
  PPInteresting spec;        /* SPEC, read once */
  const char *tls_dialect;   /* added to instrumented compiles for a shared object (ccprobe.c) */
} Driver;

static const char *self = "pathcc";
/* Whose diagnostics the user sees (doc/pathcc.md, "Diagnostics"): checked, the instrumented compile's
   when it has none or the same as the source's; exact, the source's always; auto, exact when
   -Werror or -pedantic-errors make warnings decide the exit status. */
enum { DIAG_AUTO, DIAG_CHECKED, DIAG_EXACT };
static bool own_option(Driver *d, const char *a);
static size_t compiler_words = 1;  /* leading words of every command that name the compiler */

static void die(const char *fmt, const char *a) {
  fprintf(stderr, "%s: error: ", self);
  fprintf(stderr, fmt, a);
  fputc('\n', stderr);
  exit(1);
}

/* ---- running the real compiler ---- */

/* Runs argv; stderr goes to errfile when given. Returns the exit status (or 127/128+sig). */
static int run(Args *argv, const char *errfile, bool verbose) {
  char *rsp = NULL;
  /* long command lines (a link of thousands of objects, expanded from @files) go back into a
     response file; the compiler's own words stay on the command line */
  if (pp_args_shorten(argv, compiler_words, &rsp)) die("cannot write a response file: %s", strerror(errno));
  VEC_PUSH(*argv, NULL);
  argv->n--;
  int rc = pp_spawn(argv->v, NULL, errfile, verbose);
  if (rsp) { unlink(rsp); free(rsp); }
  return rc;
}

static Args cmd(const Driver *d) {
  Args a = {0};
  for (size_t i = 0; i < d->ccpre.n; i++) VEC_PUSH(a, d->ccpre.v[i]);
  return a;
}

/* ---- argument analysis ---- */

typedef struct {
  bool compile_only, asm_only, preprocess_only, link, shared;  /* shared: -shared or -r, no program */
  const char *output;      /* -o */
  VEC(size_t) sources;     /* indexes of C sources in d->args */
  bool has_md, has_mf, has_mt;
  int inputs;              /* files of any kind on the command line */
  bool save_temps;         /* -save-temps: leave the (instrumented) .i beside the object */
} Plan;

/* Whether input a is C: by its -x language, else by its name, and a C++ driver (g++, c++,
   clang++, x86_64-linux-gnu-g++) compiles a .c file as C++, which passes through. */
static bool is_c_source(const char *a, const char *lang, bool cxx) {
  if (lang) return !strcmp(lang, "c");
  return pp_ends_with(a, ".c") && !cxx;
}

static int analyse(Driver *d, Plan *p) {
  const char *lang = NULL;
  bool query = false, cxx = d->ccpre.n && strstr(pp_base_name(d->ccpre.v[d->ccpre.n - 1]), "++");
  memset(p, 0, sizeof *p);
  for (size_t i = 0; i < d->args.n; i++) {
    const char *a = d->args.v[i];
    if (!strcmp(a, "-c")) p->compile_only = true;
    else if (!strcmp(a, "-shared") || !strcmp(a, "-r")) p->shared = true;
    else if (!strcmp(a, "-S")) p->asm_only = true;
    else if (pp_opt_query_only(a)) query = true;
    else if (!strcmp(a, "-MD") || !strcmp(a, "-MMD")) p->has_md = true;
    else if (!strncmp(a, "-save-temps", 11)) p->save_temps = true;
    else if (!strncmp(a, "-MF", 3)) p->has_mf = true;
    else if (!strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3)) p->has_mt = true;
    if (!strcmp(a, "-x") && i + 1 < d->args.n) lang = strcmp(d->args.v[i + 1], "none") ? d->args.v[i + 1] : NULL;
    else if (!strncmp(a, "-x", 2) && a[2]) lang = strcmp(a + 2, "none") ? a + 2 : NULL;
    if (!strcmp(a, "-o") && i + 1 < d->args.n) p->output = d->args.v[i + 1];
    if (pp_opt_takes_value(a)) { i++; continue; }
    if (a[0] != '-' || !strcmp(a, "-")) p->inputs++;
    if ((a[0] != '-' && is_c_source(a, lang, cxx)) || (!strcmp(a, "-") && lang && !strcmp(lang, "c")))
      VEC_PUSH(p->sources, i);
    else if (!strcmp(a, "-")) query = true;  /* stdin in another language: pass through */
  }
  p->preprocess_only = query;
  p->link = !p->compile_only && !p->asm_only && !query;
  if (p->output && p->sources.n > 1 && !p->link) die("%s", "cannot specify -o with -c or -S and several files");
  return 0;
}

/* ---- paths ---- */

/* A tables file name too long for the file system (a source's own name near NAME_MAX, with
   the program's name and ".pp.json" added) keeps its first 160 characters and the hash of the
   whole name: it still sorts and reads like its source, and room remains for the writer's
   temporary suffix. */
static char *short_name(char *path) {
  char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  size_t n = strlen(base);
  if (n <= 200) return path;
  char *t = pp_xasprintf("%.*s%.160s-%016llx.pp.json", (int)(base - path), path, base,
                         (unsigned long long)pp_fnv1a(PP_FNV_BASIS, base, n));
  free(path);
  return t;
}

/* Tables sit next to the object, like gcov's .gcno: foo.o -> foo.pp.json; when compiling and
   linking at once, prog-foo.pp.json next to the program (gcc's naming for prog-foo.gcno),
   prog-foo-2.pp.json for a second foo.c of the same command; an object written to standard
   output (-o -) gets foo.pp.json in the working directory, as gcc names foo.gcno then. */
static char *tables_path(const Driver *d, const Plan *p, size_t k, const char *obj) {
  char *t;
  if (!p->link && !strcmp(obj, "-")) {
    char *b = pp_base_noext(d->args.v[p->sources.v[k]]);
    t = pp_xasprintf("%s.pp.json", b);
    free(b);
  } else if (!p->link) {
    size_t n = strlen(obj);
    t = pp_ends_with(obj, ".o") || pp_ends_with(obj, ".s") ? pp_xasprintf("%.*s.pp.json", (int)(n - 2), obj)
                                                     : pp_xasprintf("%s.pp.json", obj);
  } else {
    char *b = pp_base_noext(d->args.v[p->sources.v[k]]);
    int same = 0;
    for (size_t j = 0; j < k; j++) {
      char *o = pp_base_noext(d->args.v[p->sources.v[j]]);
      same += !strcmp(o, b);
      free(o);
    }
    t = same ? pp_xasprintf("%s-%s-%d.pp.json", p->output ? p->output : "a.out", b, same + 1)
             : pp_xasprintf("%s-%s.pp.json", p->output ? p->output : "a.out", b);
    free(b);
  }
  char *abs = pp_absolute(t);
  free(t);
  const char *db = getenv("PATHPROF_DB");
  if (db && *db) {  /* one directory for all tables, named so objects never collide */
    char *b = pp_base_noext(abs);
    t = pp_xasprintf("%s/%s-%016llx.pp.json", db, b, (unsigned long long)pp_fnv1a(PP_FNV_BASIS, abs, strlen(abs)));
    free(b);
    free(abs);
    abs = pp_absolute(t);
    free(t);
  }
  return short_name(abs);
}

/* Where a source's object goes; with -save-temps a link keeps them as gcc does (prog-a.o). */
static char *output_for(const Plan *p, const Driver *d, const char *src, size_t k) {
  if (p->output && !p->link) return pp_xstrdup(p->output);
  char *b = pp_base_noext(src), *o;
  if (p->link && p->save_temps) o = pp_xasprintf("%s-%s.o", p->output ? p->output : "a.out", b);
  else if (p->link) o = pp_xasprintf("%s/%zu-%s.o", d->tmpdir, k, b);
  else o = pp_xasprintf("%s.%s", b, p->asm_only ? "s" : "o");
  free(b);
  return o;
}

/* ---- one source ---- */

/* Copies the user's options for one step: inputs, -o, -c and -S never (the step adds its
   own), nor options drop() names; an option's separate value travels with it. */
static void copy_options(Args *a, const Driver *d, bool (*drop)(const char *)) {
  for (size_t i = 0; i < d->args.n; i++) {
    const char *x = d->args.v[i];
    bool pair = pp_opt_takes_value(x) && i + 1 < d->args.n;
    bool keep = x[0] == '-' && x[1] && strcmp(x, "-c") && strcmp(x, "-S") && strcmp(x, "-o") && !drop(x);
    if (keep) VEC_PUSH(*a, (char *)x);
    if (keep && pair) VEC_PUSH(*a, d->args.v[i + 1]);
    if (pair) i++;
  }
}

/* Preprocess with the user's flags; dependency output keeps naming the user's object, not
   our temporary file. With comments (-C) where a warning of the compile reads them (GCC's
   fallthrough comments): they cost a fifth of the preprocessing and the .i is five times bigger. */
static int preprocess(Driver *d, const Plan *p, const char *src, const char *ifile, const char *errfile,
                      bool comments) {
  Args a = cmd(d);
  copy_options(&a, d, pp_opt_linker_only);
  /* gcc's names: -o X gives X's name with .d and target X, else the source's base name */
  char *named = p->output ? pp_xstrdup(p->output) : pp_xasprintf("%s.o", pp_base_noext(src));
  if (p->has_md && !p->has_mf) {
    const char *slash = strrchr(named, '/'), *dot = strrchr(named, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - named) : strlen(named);
    VEC_PUSH(a, "-MF");
    VEC_PUSH(a, pp_xasprintf("%.*s.d", (int)stem, named));
  }
  if (p->has_md && !p->has_mt) { VEC_PUSH(a, "-MT"); VEC_PUSH(a, named); }
  VEC_PUSH(a, "-E");
  if (comments) VEC_PUSH(a, "-C");
  VEC_PUSH(a, (char *)src);
  VEC_PUSH(a, "-o");
  VEC_PUSH(a, (char *)ifile);
  int rc = run(&a, errfile, d->verbose);
  VEC_FREE(a);
  return rc;
}

/* Compiles input (our .i, or the user's source when original) to obj. */
static int compile_with(Driver *d, const Plan *p, const char *input, bool original, const char *obj,
                        const char *errfile, const char *extra) {
  Args a = cmd(d);
  copy_options(&a, d, original ? pp_opt_linker_only : pp_opt_done_by_preprocessor);
  if (!original && d->tls_dialect) VEC_PUSH(a, (char *)d->tls_dialect);
  if (extra) VEC_PUSH(a, (char *)extra);
  VEC_PUSH(a, p->asm_only ? "-S" : "-c");
  VEC_PUSH(a, (char *)input);
  VEC_PUSH(a, "-o");
  VEC_PUSH(a, (char *)obj);
  int rc = run(&a, errfile, d->verbose);
  VEC_FREE(a);
  return rc;
}

static int compile(Driver *d, const Plan *p, const char *input, bool original, const char *obj, const char *errfile) {
  return compile_with(d, p, input, original, obj, errfile, NULL);
}

/* Is the output standard output or a device or pipe (-o /dev/null in a build system's probe)?
   pathcc writes into one but never removes it or renames a file over it (pp_is_stream). */
static bool special_output(const char *obj) {
  return !strcmp(obj, "-") || pp_is_stream(obj);
}

/* The instrumented unit once more without warnings (-w), into a file beside obj that replaces
   it on success. Its warnings are not the user's: the user has seen those of the source. */
static bool compile_quiet(Driver *d, const Plan *p, const char *ofile, const char *obj, const char *errfile) {
  if (!strcmp(obj, "-")) return false;
  char *err = pp_xasprintf("%s.quiet", errfile);
  bool ok;
  if (special_output(obj)) {  /* a device: written into, never renamed over */
    ok = compile_with(d, p, ofile, false, obj, err, "-w") == 0;
  } else {
    char *tmp = pp_xasprintf("%s.pathcc-%ld", obj, (long)getpid());
    ok = compile_with(d, p, ofile, false, tmp, err, "-w") == 0 && rename(tmp, obj) == 0;
    if (!ok) unlink(tmp);
    free(tmp);
  }
  free(err);
  return ok;
}

static const PPCompiler *compiler(Driver *d, bool link);

/* The user's source compiled for its diagnostics only: -fsyntax-only (as a checker: front-end
   diagnostics, all of clang's but its back end's), or in full into obj (gcc warns from its
   optimizer too). Returns the exit status; stderr goes to errfile. */
static int diag_compile(Driver *d, const Plan *p, const char *input, const char *obj, const char *errfile) {
  Args a = cmd(d);
  copy_options(&a, d, pp_opt_side_output);
  if (obj) VEC_PUSH(a, p->asm_only ? "-S" : "-c");
  else VEC_PUSH(a, "-fsyntax-only");
  VEC_PUSH(a, (char *)input);
  if (obj) { VEC_PUSH(a, "-o"); VEC_PUSH(a, (char *)obj); }
  int rc = run(&a, errfile, d->verbose);
  VEC_FREE(a);
  return rc;
}

/* Did the user ask for warnings (-W..., -pedantic)? */
static bool warnings_given(const Driver *d) {
  for (size_t i = 0; i < d->args.n; i++) {
    const char *a = d->args.v[i];
    if ((!strncmp(a, "-W", 2) && a[2] && a[3] != ',') || !strncmp(a, "-pedantic", 9)) return true;
  }
  return false;
}

/* Do -Werror or -pedantic-errors let warnings decide the exit status? */
static bool werror_given(const Driver *d) {
  for (size_t i = 0; i < d->args.n; i++)
    if (!strncmp(d->args.v[i], "-Werror", 7) || !strcmp(d->args.v[i], "-pedantic-errors")) return true;
  return false;
}

/* The compiler's verdict on the user's source when the instrumented compile (status rc_i, its
   stderr and the preprocessor's in said[0..1]) cannot stand for it: it said something, failed,
   might have been kept quiet by pathcc's braces, or --diagnostics=exact. The source's own
   diagnostics go to stderr; returns its exit status and sets *keep when the instrumented object
   may stay. First -fsyntax-only, which settles it cheaply when it fails or says exactly what
   the instrumented compile said; else the full compile (gcc's optimizer warns too), which exact
   mode goes to directly for gcc when the instrumented compile was quiet. */
static int verdict(Driver *d, const Plan *p, const char *input, size_t k, int rc_i, const char *const said[2],
                   bool exact, bool *keep) {
  const PPCompiler *c = compiler(d, false);
  bool quiet = rc_i == 0 && !pp_diag_any(said, 2);
  bool syntax = (c->family == PP_CC_GCC || c->family == PP_CC_CLANG) && !(exact && quiet && c->family == PP_CC_GCC);
  char *serr = pp_xasprintf("%s/%zu.syntax.err", d->tmpdir, k), *oerr = pp_xasprintf("%s/%zu.orig.err", d->tmpdir, k);
  char *tmpobj = pp_xasprintf("%s/%zu.orig.o", d->tmpdir, k);
  int rc = -1;
  *keep = false;
  if (syntax) {
    rc = diag_compile(d, p, input, NULL, serr);
    if (rc == 0 && rc_i == 0 && pp_diag_same(said, 2, serr)) *keep = true;
    if (rc != 0 || *keep) pp_copy_to_stderr(serr);
  }
  if (rc == 0 && !*keep) rc = -1;
  if (rc < 0) {  /* the full compile decides */
    rc = diag_compile(d, p, input, tmpobj, oerr);
    pp_copy_to_stderr(oerr);
    *keep = rc == 0 && rc_i == 0;
  }
  unlink(tmpobj);
  free(serr); free(oerr); free(tmpobj);
  return rc;
}

static void warn(const char *src, const char *what) {
  fprintf(stderr, "%s: warning: %s: %s\n", self, src, what);
}

/* Colon-separated globs from an environment variable. */
static void env_globs(Args *out, const char *var) {
  const char *v = getenv(var);
  if (!v) return;
  char *copy = pp_xstrdup(v), *save = NULL;
  for (char *g = strtok_r(copy, ":", &save); g; g = strtok_r(NULL, ":", &save)) VEC_PUSH(*out, g);
}

/* .pathcc, the nearest one upward from the working directory: what to instrument, and
   pathcc options, one directive a line. */
static void config_file(Driver *d) {
  char dir[PATH_MAX];
  if (!getcwd(dir, sizeof dir)) return;
  for (;;) {
    char *path = pp_xasprintf("%s/.pathcc", dir), *text = pp_read_file(path, NULL);
    if (text) {
      int line = 0;
      for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        char key[64], val[PATH_MAX];
        line++;
        while (*l == ' ' || *l == '\t') l++;
        if (!*l || *l == '#') continue;
        if (sscanf(l, "%63s %4095s", key, val) != 2) { fprintf(stderr, "%s: error: %s:%d: expected 'directive value'\n", self, path, line); exit(1); }
        Args *to = !strcmp(key, "include-file") ? &d->inc_files : !strcmp(key, "exclude-file") ? &d->exc_files :
                   !strcmp(key, "include-function") ? &d->inc_funcs : !strcmp(key, "exclude-function") ? &d->exc_funcs : NULL;
        if (to) VEC_PUSH(*to, pp_xstrdup(val));
        else if (strcmp(key, "option") || !own_option(d, val)) {
          fprintf(stderr, "%s: error: %s:%d: unknown directive or option '%s %s'\n", self, path, line, key, val);
          exit(1);
        }
      }
      free(text);
      free(path);
      break;
    }
    free(path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) break;
    *slash = 0;
  }
  env_globs(&d->inc_files, "PATHCC_INCLUDE_FILES");
  env_globs(&d->exc_files, "PATHCC_EXCLUDE_FILES");
  env_globs(&d->inc_funcs, "PATHCC_INCLUDE_FUNCTIONS");
  env_globs(&d->exc_funcs, "PATHCC_EXCLUDE_FUNCTIONS");
}

static bool any_match(const Args *globs, const char *a, const char *b) {
  for (size_t i = 0; i < globs->n; i++)
    if (!fnmatch(globs->v[i], a, 0) || (b && !fnmatch(globs->v[i], b, 0))) return true;
  return false;
}

/* A file is instrumented when it matches an include glob (or there are none) and no exclude,
   and it is no configure or CMake test program (unless --try-compiles). */
static bool selected(const Driver *d, const char *src) {
  char *abs = pp_absolute(src);
  bool in = (!d->inc_files.n || any_match(&d->inc_files, src, abs)) && !any_match(&d->exc_files, src, abs) &&
            (d->try_compiles || !pp_try_compile(abs));
  free(abs);
  return in;
}

static void make_tmpdir(Driver *d);

/* The probes' runner: the driver's, so that --verbose lists them. */
static int probe_run(char **argv, const char *out, const char *err, void *ctx) {
  return pp_spawn(argv, out, err ? err : "/dev/null", ((Driver *)ctx)->verbose);
}

/* What the compiler is and targets, with the user's flags that choose the target (-m32,
   --target=, --sysroot, -std=...); with link, also what its links accept. Asked once per
   compiler and flags, then read from the cache (ccprobe.c). */
static const PPCompiler *compiler(Driver *d, bool link) {
  if (d->cc_asked >= (link ? 2 : 1)) return &d->facts;
  Args *flags = &d->target_flags;
  for (size_t i = 0; i < d->args.n && !d->cc_asked; i++) {
    const char *a = d->args.v[i];
    bool pair = pp_opt_takes_value(a) && i + 1 < d->args.n, keep = pp_cc_target_flag(a);
    if (keep) VEC_PUSH(*flags, (char *)a);
    if (keep && pair) VEC_PUSH(*flags, d->args.v[i + 1]);
    if (pair) i++;
  }
  make_tmpdir(d);
  pp_cc_probe(&d->facts, d->ccpre.v, d->ccpre.n, flags->v, flags->n, d->tmpdir, link, probe_run, d);
  d->cc_asked = link ? 2 : 1;
  return &d->facts;
}

/* Whether the target has an operating system (Linux, a BSD...) for the hosted runtime, not bare
   metal: the host's, or one whose runtime pathcc builds (hosted_runtime) or $PATHCC_RUNTIME names. */
static bool hosted(Driver *d) {
  const PPCompiler *c = compiler(d, false);
  return c->host || !strstr(c->target, "os=none");
}

/* For a hosted target other than the host's: the runtime built for it from the sources with the
   user's compiler and target flags (gcc -m32; arm-linux-gnueabihf-gcc), once per compiler and
   cached (rtbuild.c); NULL with d->rt_why when it cannot be built. */
static const char *hosted_runtime(Driver *d) {
  if (d->rt_asked) return d->rt_lib;
  const PPCompiler *c = compiler(d, false);
  d->rt_asked = 1;
  d->rt_lib = pp_rt_build(d->ccpre.v, d->ccpre.n, d->target_flags.v, d->target_flags.n, pp_cc_no_tls(c), d->tmpdir,
                          probe_run, d, &d->rt_why);
  return d->rt_lib;
}

/* The target's int width from __SIZEOF_INT__; 0 when the compiler cannot say. */
static int int_bits(Driver *d) {
  return compiler(d, false)->int_bits;
}

/* --counter-bits=32 needs an int of 32 bits or more, and path mode; else the unit keeps 64-bit counters. */
static unsigned counter_bits(Driver *d, const char *src) {
  if (d->opt.counter_bits != 32) return 64;
  if (d->opt.mode == PP_MODE_EDGE) {  /* its counters also count down (after case labels): no saturation */
    warn(src, "--counter-bits=32 is not available with --mode=edge, counters stay 64-bit");
    return 64;
  }
  int bits = int_bits(d);
  if (bits == 0 || bits >= 32) return 32;
  char *why = pp_xasprintf("int has %d bits on this target: --counter-bits=32 needs 32, counters stay 64-bit", bits);
  warn(src, why);
  free(why);
  return 64;
}

/* Why a unit cannot be instrumented for this compiler (the caller's to free), or NULL. A hosted
   target other than the host's (gcc -m32 on x86-64, as Debian's zlib builds its 32-bit library)
   needs a runtime built for it (hosted_runtime) unless $PATHCC_RUNTIME names one: without, its
   link would fail on the units' references to it. (A bare-metal target, os=none, links the
   freestanding runtime its build names.) kpath and osp units share per-thread state with the
   hosted runtime (thread-local storage); a compiler with neither __thread nor _Thread_local
   (tcc, whose linker also refuses the runtime's TLS relocations) cannot build them. */
static char *unsupported(Driver *d) {
  const PPCompiler *c = compiler(d, false);
  const char *rt = getenv("PATHCC_RUNTIME");
  if (!c->host && hosted(d) && !(rt && *rt) && !hosted_runtime(d))
    return pp_xasprintf("no pathprof runtime for %s, a hosted target other than %s: %s (or set PATHCC_RUNTIME to "
                        "one built for it)", c->target, pp_cc_host_target(), d->rt_why);
  if ((d->opt.mode != PP_MODE_KPATH && d->opt.mode != PP_MODE_OSP) || !hosted(d) || !pp_cc_no_tls(c)) return NULL;
  return pp_xasprintf("--mode=%s needs thread-local storage, which this compiler does not have",
                      d->opt.mode == PP_MODE_KPATH ? "kpath" : "osp");
}

/* Whether the scratch directory is gone (a cleanup of the temporary folder while pathcc runs,
   or a compiler that removed it): it is made again, for the unit to be compiled as written; the
   steps that failed in it said nothing, their messages having nowhere to go. */
static bool scratch_lost(Driver *d) {
  if (!d->tmpdir || access(d->tmpdir, F_OK) == 0) return false;
  if (mkdir(d->tmpdir, 0700) && errno != EEXIST) die("cannot create a temporary directory: %s", strerror(errno));
  return true;
}

/* The unit compiled as written after a step of pathcc's own failed (why): with one warning
   naming the unit and the reason when it compiles, with --strict an error. A unit that does not
   compile as written either fails as without pathcc: the compiler's message only. */
static int as_written(Driver *d, const Plan *p, const char *src, const char *input, const char *obj, const char *errfile,
                      const char *why) {
  if (d->strict) { fprintf(stderr, "%s: error: %s: %s\n", self, src, why); return 1; }
  scratch_lost(d);
  char *ferr = pp_xasprintf("%s.fallback", errfile);
  int rc = compile(d, p, input, true, obj, ferr);
  if (!rc) {
    char *w = pp_xasprintf("compiled without instrumentation: %s", why);
    warn(src, w);
    free(w);
  }
  pp_copy_to_stderr(ferr);
  free(ferr);
  return rc;
}

/* as_written after a step failed because the scratch directory went away (scratch_lost). */
static int scratch_as_written(Driver *d, const Plan *p, const char *src, const char *input, const char *obj,
                              const char *errfile) {
  char *why = pp_xasprintf("its scratch directory %s was removed while pathcc ran", d->tmpdir);
  int rc = as_written(d, p, src, input, obj, errfile, why);
  free(why);
  return rc;
}

/* Preprocesses the unit to ifile, with comments where a warning of the compile reads them. A
   comment kept can break what compiles without (GCC pastes a comment in a macro argument that
   meets ##: "pasting x_ and / * c * / does not give a valid preprocessing token"): then it
   preprocesses again without; the instrumented compile's diagnostics, which may then miss a
   fallthrough comment, stand for the source's only where they agree with them (verdict). The
   status is the last run's; its stderr is in perr. */
static int preprocess_unit(Driver *d, const Plan *p, const char *input, const char *ifile, const char *perr) {
  bool comments = pp_cc_reads_comments(compiler(d, false), d->args.v, d->args.n);
  int rc = preprocess(d, p, input, ifile, perr, comments);
  if (!rc && !comments && pp_pragma_reads_comments(ifile)) rc = preprocess(d, p, input, ifile, perr, comments = true);
  if (rc && comments) rc = preprocess(d, p, input, ifile, perr, false);
  return rc;
}

/* preprocess -> instrument -> compile, falling back to the untouched source whenever the
   instrumentation cannot be trusted; pathcc never breaks a build. */
static int compile_source(Driver *d, const Plan *p, size_t k, const char *obj) {
  const char *src = d->args.v[p->sources.v[k]];
  char *stdin_copy = NULL;
  if (!strcmp(src, "-")) {  /* the source comes on stdin: keep a copy to preprocess */
    size_t n;
    char *text = pp_read_file("/dev/stdin", &n);
    stdin_copy = pp_xasprintf("%s/stdin-%zu.c", d->tmpdir, k);
    if (!text || pp_write_file(stdin_copy, text, n)) die("cannot read the source from stdin into %s", stdin_copy);
    free(text);
  }
  const char *input = stdin_copy ? stdin_copy : src;
  char *ifile = pp_xasprintf("%s/%zu.i", d->tmpdir, k), *ofile = pp_xasprintf("%s/%zu.pp.i", d->tmpdir, k);
  char *errfile = pp_xasprintf("%s/%zu.err", d->tmpdir, k), *perr = pp_xasprintf("%s/%zu.cpp.err", d->tmpdir, k);
  char *tables = tables_path(d, p, k, obj), *err = NULL, *key = pp_prefix_map_path(&d->maps, tables);
  if (!selected(d, src) || pp_is_stream(obj)) {  /* not chosen, or output to a device: compiled as written */
    int rc = compile(d, p, input, true, obj, NULL);
    free(ifile); free(ofile); free(errfile); free(perr); free(tables); free(key); free(stdin_copy);
    return rc;
  }
  int rc;
  char *cannot = unsupported(d);
  if (cannot) {  /* the mode's runtime cannot link with this compiler's objects: the source as it is */
    rc = as_written(d, p, src, input, obj, errfile, cannot);
    free(cannot);
    goto out;
  }
  rc = preprocess_unit(d, p, input, ifile, perr);
  if (rc && scratch_lost(d)) {
    rc = scratch_as_written(d, p, src, input, obj, errfile);
    goto out;
  }
  if (rc) { pp_copy_to_stderr(perr); goto out; }  /* the compiler has said why */
  PPOptions o = d->opt;
  o.source = src;
  o.tables = tables;
  o.tables_key = key;
  o.maps = &d->maps;
  o.counter_bits = counter_bits(d, src);
  o.atomic = o.update != PP_UPDATE_SINGLE ? pp_cc_atomic_kind(compiler(d, false)) : PP_ATOMIC_64;
  o.progmem = pp_cc_avr(compiler(d, false));
  o.fn_include = d->inc_funcs.v;
  o.n_fn_include = d->inc_funcs.n;
  o.fn_exclude = d->exc_funcs.v;
  o.n_fn_exclude = d->exc_funcs.n;
  PPResult res;
  if (pp_instrument(&o, ifile, &res, &err)) {
    rc = as_written(d, p, src, input, obj, errfile, err);
    goto out;
  }
  if (res.warning && d->strict) { fprintf(stderr, "%s: error: %s\n", self, res.warning); rc = 1; goto out; }
  if (!res.out) {
    rc = compile(d, p, input, true, obj, NULL);
    if (rc == 0 && res.warning) fprintf(stderr, "%s: warning: %s\n", self, res.warning);
    goto out;
  }
  if (pp_write_file(ofile, res.out, res.outlen)) {
    char *why = pp_xasprintf("cannot write %s: %s", ofile, strerror(errno));
    rc = as_written(d, p, src, input, obj, errfile, why);
    unlink(tables);
    free(why);
    goto done;
  }
  int rc_i = compile(d, p, ofile, false, obj, errfile);
  if (rc_i && scratch_lost(d)) {
    unlink(tables);
    rc = scratch_as_written(d, p, src, input, obj, errfile);
    goto done;
  }
  if (rc_i && d->strict) {
    pp_copy_to_stderr(errfile);
    fprintf(stderr, "%s: error: %s: instrumented code does not compile\n", self, src);
    rc = rc_i;
    goto done;
  }
  /* the user sees the source's diagnostics and status; the instrumented compile's stand for
     them only when it said nothing (or the same) and compiled */
  const char *said[2] = { perr, errfile };
  bool keep = rc_i == 0;
  bool exact = d->diagnostics == DIAG_EXACT || (d->diagnostics == DIAG_AUTO && werror_given(d));
  /* lines about no place in the source (an unknown warning option) come from the flags, alike
     for the source: the compile's are shown, the preprocessor's repeat them */
  bool recheck = res.recheck && warnings_given(d);
  if (rc_i == 0 && !exact && !recheck && !pp_diag_any(said, 2)) {
    pp_copy_to_stderr(errfile);
    rc = 0;
  } else rc = verdict(d, p, input, k, rc_i, said, exact, &keep);
  if (rc) {  /* the source itself does not compile: no object, as without pathcc */
    if (rc_i == 0 && !special_output(obj)) unlink(obj);
    unlink(tables);
    goto done;
  }
  /* ours does not compile, the source does: when only warnings made errors stopped ours, it
     compiles again without warnings; else the source is the object, with one warning */
  if (!keep && !(pp_only_werror(errfile) && compile_quiet(d, p, ofile, obj, errfile))) {
    char *ferr = pp_xasprintf("%s.fallback", errfile);
    rc = compile(d, p, input, true, obj, ferr);
    unlink(tables);
    if (rc) pp_copy_to_stderr(ferr);
    else {
      char *first = pp_first_error(errfile);
      char *why = pp_xasprintf("instrumented code does not compile (%s); compiled without instrumentation", first);
      warn(src, why);
      free(why);
      free(first);
    }
    free(ferr);
    goto done;
  }
  if (res.warning) fprintf(stderr, "%s: warning: %s\n", self, res.warning);
  if (p->save_temps) {  /* the unit as compiled, where gcc leaves its .i */
    const char *dot = strrchr(obj, '.'), *slash = strrchr(obj, '/');
    char *kept = pp_xasprintf("%.*s.i", (int)(dot && (!slash || dot > slash) ? dot - obj : (long)strlen(obj)), obj);
    pp_write_file(kept, res.out, res.outlen);
    free(kept);
  }
done:
  free(res.out);
  free(res.warning);
out:
  free(ifile); free(ofile); free(errfile); free(perr); free(tables); free(key); free(err); free(stdin_copy);
  return rc;
}

/* ---- linking ---- */

static char *runtime_lib(const char *name) {
  char *bin = pp_exe_dir();
  if (!bin) return NULL;
  char *lib = pp_xasprintf("%s/../lib/%s", bin, name);
  free(bin);
  if (access(lib, R_OK) == 0) return lib;
  free(lib);
  return NULL;
}

/* Flags under which the program may start without running constructors (a kernel module, a
   freestanding image with its own startup): units then register at their first function entry. */
static bool freestanding_flags(const Driver *d) {
  static const char *flags[] = { "-ffreestanding", "-fno-hosted", "-nostdlib", "-nostartfiles", "-mkernel", 0 };
  for (size_t i = 0; i < d->args.n; i++)
    for (int k = 0; flags[k]; k++)
      if (!strcmp(d->args.v[i], flags[k])) return true;
  return false;
}

/* The runtime for this link: $PATHCC_RUNTIME, else ours when the compiler builds for the
   target it was built for (architecture, sizes, OS, object format, libc: not the spelling of
   a triple), else one built for a hosted target (whose units were compiled as written, with
   their warning, when it cannot be built); a bare-metal link gets none (and one warning) rather
   than a foreign archive: its build links the freestanding runtime. */
static char *runtime_for(Driver *d) {
  const char *env = getenv("PATHCC_RUNTIME");
  if (env && *env) return pp_xstrdup(env);
  const PPCompiler *c = compiler(d, false);
  if (!c->host && hosted(d)) return hosted_runtime(d) ? pp_xstrdup(d->rt_lib) : NULL;
  if (!c->host) {
    fprintf(stderr, "%s: warning: linking for %s, not for %s: no pathprof runtime added; link one built for "
            "the target (make rt-freestanding, doc/firmware.md) or set PATHCC_RUNTIME\n", self, c->target, pp_cc_host_target());
    return NULL;
  }
  /* without thread-local storage (tcc): the runtime whose stack of frames is plain statics */
  const char *name = pp_cc_no_tls(c) ? "libpathprof-notls.a" : "libpathprof.a";
  char *lib = runtime_lib(name);
  if (!lib) die("%s", pp_xasprintf("cannot find %s next to pathcc (expected ../lib/%s)", name, name));
  return lib;
}

/* An object whose note names the directory the program is linked into (through the user's
   -f*-prefix-map, for reproducible builds), where its default profile goes whatever directory
   it runs in (masq.c); NULL when it cannot be assembled, which loses only that. */
static char *link_dir_object(Driver *d, const Plan *p) {
  char *dir = pp_masq_program_dir(p->output), *mapped = pp_prefix_map_path(&d->maps, dir);
  char *s = pp_masq_link_dir_asm(mapped ? mapped : dir);
  make_tmpdir(d);
  char *src = pp_xasprintf("%s/linkdir.s", d->tmpdir), *obj = pp_xasprintf("%s/linkdir.o", d->tmpdir);
  char *err = pp_xasprintf("%s/linkdir.err", d->tmpdir), *tail[] = { "-c", src, "-o", obj };
  Args a = {0};
  pp_masq_assembler(&a, d->ccpre.v, d->ccpre.n, d->args.v, d->args.n);
  for (int k = 0; k < 4; k++) VEC_PUSH(a, tail[k]);
  bool ok = !pp_write_file(src, s, strlen(s)) && !run(&a, err, d->verbose);
  VEC_FREE(a);
  free(dir), free(mapped), free(s), free(src), free(err);
  if (!ok) free(obj);
  return ok ? obj : NULL;
}

/* Link with the user's arguments, our objects in place of the sources, and the runtime last. */
static int link_all(Driver *d, const Plan *p, char **objs) {
  Args a = cmd(d);
  for (size_t i = 0; i < d->args.n; i++) {
    size_t k;
    for (k = 0; k < p->sources.n && p->sources.v[k] != i; k++) {}
    if (k < p->sources.n) { VEC_PUSH(a, objs[k]); continue; }
    if (!strcmp(d->args.v[i], "-x")) { i++; continue; }  /* languages were for the sources */
    if (!strncmp(d->args.v[i], "-x", 2)) continue;
    VEC_PUSH(a, d->args.v[i]);
    if (pp_opt_takes_value(d->args.v[i]) && i + 1 < d->args.n) VEC_PUSH(a, d->args.v[++i]);
  }
  char *lib = runtime_for(d);
  /* each executable and shared object keeps its own registry: none takes the runtime from a
     library it happens to link against (which may be rebuilt without pathcc) */
  if (lib && !getenv("PATHCC_RUNTIME") && compiler(d, true)->exclude_libs == 1)
    VEC_PUSH(a, "-Wl,--exclude-libs,libpathprof.a");
  char *dir = lib && !p->shared && hosted(d) ? link_dir_object(d, p) : NULL;  /* read by our runtime */
  if (dir) VEC_PUSH(a, dir);
  if (lib) VEC_PUSH(a, lib);
  int rc = run(&a, NULL, d->verbose);
  free(dir);
  VEC_FREE(a);
  free(lib);
  return rc;
}

/* With -c or -S, inputs other than C sources (assembly, C++...) go to the compiler as given. */
static int compile_others(Driver *d, const Plan *p) {
  Args a = cmd(d);
  copy_options(&a, d, pp_opt_linker_only);
  size_t first = a.n;
  for (size_t i = 0; i < d->args.n; i++) {
    const char *x = d->args.v[i];
    bool src = false;
    for (size_t k = 0; k < p->sources.n; k++) src |= p->sources.v[k] == i;
    if (pp_opt_takes_value(x)) { i++; continue; }
    if (x[0] != '-' && !src) VEC_PUSH(a, (char *)x);
  }
  int rc = 0;
  if (a.n > first) {
    VEC_PUSH(a, p->asm_only ? "-S" : "-c");
    rc = run(&a, NULL, d->verbose);
  }
  VEC_FREE(a);
  return rc;
}

/* ---- options ---- */

static unsigned long long number(const char *opt, const char *v) {
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (!*v || *end || errno || n == 0) die("invalid value in %s", opt);
  return n;
}

/* pathcc's own options; returns false for an argument that belongs to the compiler. */
static bool own_option(Driver *d, const char *a) {
  if (!strcmp(a, "--trace")) d->opt.trace = true;
  else if (!strcmp(a, "--strict")) d->strict = true;
  else if (!strcmp(a, "--verbose")) d->verbose = true;
  else if (!strcmp(a, "--system-headers")) d->opt.system_headers = true;
  else if (!strcmp(a, "--derive=on") || !strcmp(a, "--derive=off")) d->opt.derive = a[10] == 'n';
  else if (!strncmp(a, "--derive=", 9)) die("unknown value in %s (on or off)", a);
  else if (!strcmp(a, "--try-compiles")) d->try_compiles = true;
  else if (!strcmp(a, "--frames=calls")) d->opt.frames = PP_FRAMES_CALLS;
  else if (!strcmp(a, "--frames=all")) d->opt.frames = PP_FRAMES_ALL;
  else if (!strcmp(a, "--frames=none")) d->opt.frames = PP_FRAMES_NONE;
  else if (!strncmp(a, "--frames=", 9)) die("unknown value in %s (calls, all or none)", a);
  else if (!strncmp(a, "--array-limit=", 14)) { d->opt.array_limit = number(a, a + 14); d->array_limit_given = true; }
  else if (!strncmp(a, "--hash-cap=", 11)) { d->opt.hash_cap = (unsigned long)number(a, a + 11); d->hash_cap_given = true; }
  else if (!strncmp(a, "--mode=", 7) && pp_mode_named(a + 7) >= 0) d->opt.mode = (PPMode)pp_mode_named(a + 7);
  else if (!strcmp(a, "--estimate=wu-larus")) d->opt.estimator = PP_EST_WU_LARUS;
  else if (!strcmp(a, "--estimate=loop")) d->opt.estimator = PP_EST_LOOP;
  else if (!strncmp(a, "--estimate=", 11)) die("unknown estimate in %s (wu-larus or loop)", a);
  else if (!strncmp(a, "--placement-profile=", 20) && a[20]) d->opt.placement_profile = pp_xstrdup(a + 20);
  else if (!strcmp(a, "--k=auto")) d->opt.k = 0;  /* each function the k its prime paths need */
  else if (!strncmp(a, "--k=", 4)) {
    d->opt.k = (unsigned)number(a, a + 4);
    if (d->opt.k < 1 || d->opt.k > PP_K_MAX) die("invalid value in %s (k is 1 to 64 or auto; 1 is path mode)", a);
  }
  else if (!strcmp(a, "--counter-bits=32")) d->opt.counter_bits = 32;
  else if (!strcmp(a, "--counter-bits=64")) d->opt.counter_bits = 64;
  else if (!strncmp(a, "--counter-bits=", 15)) die("invalid value in %s (32 or 64)", a);
  else if (!strcmp(a, "--update=single")) d->opt.update = PP_UPDATE_SINGLE, d->update_set = true;
  else if (!strcmp(a, "--update=atomic")) d->opt.update = PP_UPDATE_ATOMIC, d->update_set = true;
  else if (!strcmp(a, "--update=prefer-atomic")) d->opt.update = PP_UPDATE_PREFER_ATOMIC, d->update_set = true;
  else if (!strcmp(a, "--update=auto")) d->opt.update = PP_UPDATE_AUTO, d->update_set = true;
  else if (!strcmp(a, "--continuous")) d->opt.continuous = true;
  else if (!strcmp(a, "--diagnostics=checked")) d->diagnostics = DIAG_CHECKED;
  else if (!strcmp(a, "--diagnostics=exact")) d->diagnostics = DIAG_EXACT;
  else if (!strncmp(a, "--diagnostics=", 14)) die("unknown value in %s (checked or exact)", a);
  else if (!strncmp(a, "--update=", 9)) die("unknown policy in %s (auto, single, atomic or prefer-atomic)", a);
  else if (!strncmp(a, "--interesting=", 14) && a[14]) d->interesting = a + 14;
  else if (!strncmp(a, "--ppp-keep-array=", 17)) d->opt.ppp_keep_array = number(a, a + 17);
  else if (!strcmp(a, "--decisions=conditions")) d->opt.conditions = true;
  else if (!strcmp(a, "--decisions=statements")) d->opt.conditions = false;
  else if (!strncmp(a, "--mode=", 7)) die("unknown mode in %s (path, edge, kpath, ppp or osp)", a);
  else return false;
  return true;
}

/* --mode=ppp needs --interesting=SPEC and the other way round; SPEC is read once here. A
   residual path is recorded in the hash table, which ppp mode sizes for rare events. */
static void ppp_options(Driver *d) {
  char *err = NULL;
  bool ppp = d->opt.mode == PP_MODE_PPP;
  if (ppp && !d->interesting) die("%s needs --interesting=SPEC (a profile, hot:P%%:PROFILE or a JSON file)", "--mode=ppp");
  if (!ppp && d->interesting) die("--interesting=%s needs --mode=ppp", d->interesting);
  if (!ppp) return;
  if (pp_interesting_load(d->interesting, &d->spec, &err)) die("--interesting: %s", err);
  d->opt.interesting = &d->spec;
  if (!d->hash_cap_given) d->opt.hash_cap = 1024;
}

static void env_options(Driver *d) {
  const char *f = getenv("PATHCC_FLAGS");
  if (!f) return;
  char *copy = pp_xstrdup(f), *save = NULL;
  for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
    if (!own_option(d, w)) die("unknown option in PATHCC_FLAGS: %s", w);
}

/* Like gcc's -fprofile-update: -pthread among the user's flags makes prefer-atomic the default;
   a -std before C11 rules out C11 atomics for compilers without GNU builtins. Edge mode's default
   is single, not auto: its counters sit inside loops, where auto's test before each count keeps
   the compiler from moving them out and vectorizing (a matrix kernel ran 3.4x plain, 1.1x
   single); path mode counts tight loops in locals and pays the test once a path. */
static void threads_policy(Driver *d) {
  d->opt.c11 = true;
  if (!d->update_set && d->opt.mode == PP_MODE_EDGE) d->opt.update = PP_UPDATE_SINGLE;
  for (size_t i = 0; i < d->args.n; i++) {
    const char *a = d->args.v[i];
    if (!strcmp(a, "-pthread") && !d->update_set) d->opt.update = PP_UPDATE_PREFER_ATOMIC;
    if (!strncmp(a, "-std=", 5))
      d->opt.c11 = !(strstr(a, "89") || strstr(a, "90") || strstr(a, "99") || strstr(a, "9899:199") || !strcmp(a, "-ansi"));
    if (!strcmp(a, "-ansi")) d->opt.c11 = false;
  }
}

/* Run as a link named like a compiler (gcc, cc, arm-none-eabi-gcc) from a masquerade directory
   early in PATH: the real one is the next of that name on PATH that is not pathcc (masq.c). */
static bool wrapper_compiler(Driver *d, const char *argv0) {
  if (!pp_masq_invoked(argv0)) return false;
  char *real = pp_masq_real(argv0);
  if (!real) die("no compiler named %s on PATH besides pathcc", strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0);
  VEC_PUSH(d->ccpre, real);
  return true;
}

static void make_tmpdir(Driver *d) {
  if (d->tmpdir) return;
  const char *t = getenv("TMPDIR");
  d->tmpdir = pp_xasprintf("%s/pathcc-XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(d->tmpdir)) die("cannot create a temporary directory: %s", strerror(errno));
}

/* The temporary directory holds plain files only; removing them here saves a fork per compile. */
static void remove_tmpdir(Driver *d) {
  if (!d->tmpdir || getenv("PATHCC_KEEP")) return;
  DIR *dir = opendir(d->tmpdir);
  struct dirent *e;
  while (dir && (e = readdir(dir))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char *f = pp_xasprintf("%s/%s", d->tmpdir, e->d_name);
    unlink(f);
    free(f);
  }
  if (dir) closedir(dir);
  rmdir(d->tmpdir);
}

static int pathcc_main(int argc, char **argv) {
  Driver d;
  memset(&d, 0, sizeof d);
  d.opt.array_limit = 4096;
  d.opt.derive = true;
  d.opt.hash_cap = 4096;
  d.opt.counter_bits = 64;
  d.opt.k = 4;
  d.opt.update = PP_UPDATE_AUTO;
  env_options(&d);
  config_file(&d);
  int i = 1;
  bool wrapped = wrapper_compiler(&d, argv[0]);
  for (; i < argc && own_option(&d, argv[i]); i++) {}
  /* pathcc --help / --version with no compiler named: pathcc's own (the version, then the compiler's) */
  bool own_query = !wrapped && i == argc - 1 && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "--version"));
  if (own_query && !strcmp(argv[i], "--help")) return pp_pathcc_help(stdout);
  if (!wrapped && i < argc && pp_masq_names_compiler(argv[i])) pp_masq_split_words(&d.ccpre, argv[i++]);
  else if (!wrapped) pp_masq_split_words(&d.ccpre, getenv("PATHCC_CC") && *getenv("PATHCC_CC") ? getenv("PATHCC_CC") : "cc");
  if (own_query) pp_pathcc_version(stdout, getenv("PATHCC_CC") && *getenv("PATHCC_CC") ? getenv("PATHCC_CC") : "cc");
  compiler_words = d.ccpre.n;
  pp_masq_hide(d.ccpre.v, d.ccpre.n);  /* what pathcc runs never finds a masquerade's pathcc again */
  for (; i < argc; i++)
    if (!own_option(&d, argv[i])) pp_args_expand(&d.args, argv[i]);
  threads_policy(&d);
  pp_prefix_maps_read(&d.maps, d.args.v, d.args.n);
  if (d.opt.continuous && d.opt.counter_bits == 32) die("%s", "--continuous needs 64-bit counters (not --counter-bits=32)");
  Plan p;
  analyse(&d, &p);
  if (!p.inputs) {  /* -v, --version and the like: the compiler answers */
    Args a = cmd(&d);
    for (size_t k = 0; k < d.args.n; k++) VEC_PUSH(a, d.args.v[k]);
    return run(&a, NULL, d.verbose);
  }
  if (!p.sources.n && p.link) {
    int rc = link_all(&d, &p, NULL);
    remove_tmpdir(&d);
    return rc;
  }
  if (p.preprocess_only || !p.sources.n) {
    Args a = cmd(&d);
    for (size_t k = 0; k < d.args.n; k++) VEC_PUSH(a, d.args.v[k]);
    return run(&a, NULL, d.verbose);
  }
  int served;  /* C units to compile: a server with libclang loaded runs the invocation when it can */
  char **sargv = argv;  /* the server gets "pathcc REAL-COMPILER ...": its PATH hides ours */
  if (wrapped) {
    sargv = pp_xcalloc(argc + 2, sizeof *sargv);
    sargv[0] = "pathcc", sargv[1] = d.ccpre.v[0];
    memcpy(sargv + 2, argv + 1, argc * sizeof *sargv);
  }
  if (pp_server_delegate(argc + wrapped, sargv, d.verbose, &served)) return served;
  if (d.opt.mode == PP_MODE_KPATH && d.opt.k == 1) d.opt.mode = PP_MODE_PATH;  /* k = 1 is path mode */
  const PPCompiler *cc = compiler(&d, false);
  bool os = hosted(&d);
  d.opt.osp_tls = os;  /* osp: per-thread skip counters where our hosted runtime (which has them) is linked */
  d.opt.host = os;     /* frames per thread, and the wrappers of the ends, where that runtime is linked */
  d.opt.no_tls = os && pp_cc_no_tls(cc);  /* tcc: no frames (edge mode's splits need none) */
  if (cc->known) d.opt.c11 = cc->c11_atomics;  /* what -std= left of C11, as the compiler itself says */
  d.opt.fallthrough_attr = (cc->family == PP_CC_GCC && cc->major >= 7) || (cc->family == PP_CC_CLANG && cc->major >= 10);
  d.opt.ctor = os && !freestanding_flags(&d);  /* registration by constructor where our runtime's startup runs them */
  d.opt.libc_threads = d.opt.ctor && pp_cc_libc_threads(cc);
  d.opt.keep_calls = pp_cc_keep_calls(cc);
  d.opt.dynamic_tls = os && pp_cc_shared_code(cc);  /* no initial-exec TLS, so any number of objects loads */
  d.tls_dialect = os ? pp_cc_tls_dialect(cc, d.args.v, d.args.n) : NULL;
  d.opt.lbss = d.opt.keep_calls && d.opt.ctor;  /* GCC on the x86-64 host: big arrays after every .bss */
  pp_hosted_counters(&d.opt, d.array_limit_given, d.hash_cap_given);
  ppp_options(&d);
  make_tmpdir(&d);
  char **objs = pp_xcalloc(p.sources.n, sizeof(char *));
  int rc = 0;
  for (size_t k = 0; k < p.sources.n && !rc; k++) {
    objs[k] = output_for(&p, &d, d.args.v[p.sources.v[k]], k);
    rc = compile_source(&d, &p, k, objs[k]);
  }
  if (!rc && p.link) rc = link_all(&d, &p, objs);
  if (!rc && !p.link) rc = compile_others(&d, &p);
  remove_tmpdir(&d);
  return rc;
}

/* `pathcc --server` alone runs a compile server in the foreground (server.c); anything else is
   one compiler invocation. */
int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "--server")) return pp_server_main(pathcc_main);
  if (argc == 2 && !strncmp(argv[1], "--masquerade=", 13)) return pp_masq_create(argv[1] + 13);
  return pathcc_main(argc, argv);
}
