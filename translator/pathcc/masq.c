/* masq.c: build integration: pathcc under a compiler's name from a masquerade directory (links gcc, cc, arm-none-eabi-gcc -> pathcc, as ccache's), and the link directory a program's default profile goes to. */
#include "masq.h"
#include "model/util.h"
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef VEC(char *) Dirs;

/* The last component of a path. */
static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

bool pp_masq_names_compiler(const char *a) {
  static const char *inputs[] = { ".c", ".i", ".h", ".s", ".S", ".o", ".a", ".so", ".cc", ".cpp", ".cxx", ".C",
                                  ".m", ".ld", ".lds", ".obj", 0 };
  struct stat st;
  if (a[0] == '-' || a[0] == '@') return false;
  for (int i = 0; inputs[i]; i++)
    if (pp_ends_with(a, inputs[i])) return false;
  return !(stat(a, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & 0111));
}

void pp_masq_split_words(PPArgs *out, const char *s) {
  char *copy = pp_xstrdup(s), *save = NULL;
  for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) VEC_PUSH(*out, w);
}

bool pp_masq_invoked(const char *argv0) {
  return strcmp(base_name(argv0), "pathcc") != 0;
}

/* Whether file is pathcc: this very program (same inode as /proc/self/exe), or any program
   whose real name is pathcc (another build or install of it). */
static bool is_pathcc(const char *file) {
  struct stat st, me;
  char real[PATH_MAX];
  if (stat(file, &st) != 0) return false;
  if (stat("/proc/self/exe", &me) == 0 && st.st_dev == me.st_dev && st.st_ino == me.st_ino) return true;
  return realpath(file, real) && !strcmp(base_name(real), "pathcc");
}

/* dir/name when that is an executable file (allocated), else NULL. */
static char *exe_in(const char *dir, const char *name) {
  struct stat st;
  char *full = pp_xasprintf("%s/%s", *dir ? dir : ".", name);
  if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0) return full;
  free(full);
  return NULL;
}

/* $PATH's directories in order; an empty entry (the working directory) stays empty. */
static Dirs path_dirs(void) {
  Dirs d = {0};
  const char *p = getenv("PATH");
  if (!p) p = "/usr/local/bin:/usr/bin:/bin";
  for (;;) {
    const char *colon = strchr(p, ':');
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    VEC_PUSH(d, pp_xasprintf("%.*s", (int)n, p));
    if (!colon) break;
    p = colon + 1;
  }
  return d;
}

static void free_dirs(Dirs *d) {
  for (size_t i = 0; i < d->n; i++) free(d->v[i]);
  VEC_FREE(*d);
}

/* Whether directories a and b are the same directory. */
static bool same_dir(const char *a, const char *b) {
  struct stat x, y;
  return stat(*a ? a : ".", &x) == 0 && stat(*b ? b : ".", &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The index in d after the directory pathcc was run from: argv0's own directory when it has a
   slash, else the first directory execvp would have taken it from; 0 when neither is on PATH. */
static size_t start_after(const Dirs *d, const char *argv0) {
  const char *name = base_name(argv0);
  char *own = name > argv0 ? pp_xasprintf("%.*s", (int)(name - argv0), argv0) : NULL;
  size_t start = 0;
  for (size_t i = 0; i < d->n && !start; i++) {
    char *f = own ? NULL : exe_in(d->v[i], name);
    if (own ? same_dir(own, d->v[i]) : f != NULL) start = own || is_pathcc(f) ? i + 1 : d->n + 1;
    free(f);
  }
  free(own);
  return start > d->n ? 0 : start;
}

/* The first executable named name in d[from..to) that is not pathcc (allocated), or NULL. */
static char *first_real(const Dirs *d, const char *name, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) {
    char *f = exe_in(d->v[i], name);
    if (f && !is_pathcc(f)) return f;
    free(f);
  }
  return NULL;
}

char *pp_masq_real(const char *argv0) {
  Dirs d = path_dirs();
  size_t start = start_after(&d, argv0);
  char *f = first_real(&d, base_name(argv0), start, d.n);
  if (!f) f = first_real(&d, base_name(argv0), 0, start);  /* run by a full path from a late directory */
  free_dirs(&d);
  return f;
}

void pp_masq_hide(char *const *names, size_t n) {
  Dirs d = path_dirs();
  PPStr kept = {0};
  bool hid = false, first = true;
  for (size_t i = 0; i < d.n; i++) {
    bool ours = false;
    for (size_t k = 0; k < n && !ours; k++) {
      char *f = exe_in(d.v[i], base_name(names[k]));
      ours = f && is_pathcc(f);
      free(f);
    }
    hid |= ours;
    if (ours) continue;
    if (!first) pp_str_add(&kept, ":");
    pp_str_add(&kept, d.v[i]);
    first = false;
  }
  char *s = pp_str_take(&kept);
  if (hid) setenv("PATH", s ? s : "", 1);
  free(s);
  free_dirs(&d);
}

/* Whether a program named name is a compiler the masquerade stands in for: a versioned or
   target-prefixed gcc or clang (gcc-12, x86_64-linux-gnu-gcc, arm-none-eabi-gcc, clang-14), or
   their C++ drivers, which link C objects (a Python extension's, through g++) and so must add
   the runtime, while the C++ they compile passes through. */
static bool compiler_name(const char *name) {
  static const char *pats[] = { "gcc-[0-9]*", "clang-[0-9]*", "*-gcc", "*-gcc-[0-9]*", "*-clang", "*-clang-[0-9]*",
                                "g++-[0-9]*", "clang++-[0-9]*", "*-g++", "*-g++-[0-9]*", "*-clang++", "*-clang++-[0-9]*", 0 };
  for (int i = 0; pats[i]; i++)
    if (!fnmatch(pats[i], name, 0)) return true;
  return false;
}

/* The names the masquerade holds: the usual ones, and every compiler_name on PATH. */
static Dirs masq_names(const char *dir) {
  static const char *fixed[] = { "cc", "gcc", "clang", "c89", "c99", "c++", "g++", "clang++", 0 };
  Dirs names = {0}, d = path_dirs();
  for (int i = 0; fixed[i]; i++) VEC_PUSH(names, pp_xstrdup(fixed[i]));
  for (size_t i = 0; i < d.n; i++) {
    DIR *dh = same_dir(d.v[i], dir) ? NULL : opendir(*d.v[i] ? d.v[i] : ".");
    struct dirent *e;
    while (dh && (e = readdir(dh))) {
      bool dup = false;
      for (size_t k = 0; k < names.n; k++) dup |= !strcmp(names.v[k], e->d_name);
      char *f = dup || !compiler_name(e->d_name) ? NULL : exe_in(d.v[i], e->d_name);
      if (f && !is_pathcc(f)) VEC_PUSH(names, pp_xstrdup(e->d_name));
      free(f);
    }
    if (dh) closedir(dh);
  }
  free_dirs(&d);
  return names;
}

/* The path of file relative to directory dir (both absolute and real; allocated), so that a
   masquerade made under DESTDIR still points at pathcc once installed. */
static char *relative(const char *dir, const char *file) {
  size_t common = 0;  /* where the leading components both share end */
  for (size_t i = 0;; i++) {
    if ((dir[i] == 0 || dir[i] == '/') && file[i] == '/') common = i;
    if (!dir[i] || dir[i] != file[i]) break;
  }
  PPStr r = {0};
  for (const char *p = dir + common; *p; p++)
    if (*p == '/' && p[1]) pp_str_add(&r, "../");
  pp_str_add(&r, file + common + 1);
  return pp_str_take(&r);
}

/* mkdir -p dir. */
static int make_dirs(const char *dir) {
  char *p = pp_xstrdup(dir);
  for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = 0;
    if (mkdir(p, 0777) != 0 && errno != EEXIST) { free(p); return -1; }
    *s = '/';
  }
  free(p);
  return mkdir(dir, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Makes dir/name a link to target; an earlier link is replaced, any other file kept. */
static int make_link(const char *dir, const char *name, const char *target) {
  char *at = pp_xasprintf("%s/%s", dir, name);
  struct stat st;
  int rc = 0;
  if (lstat(at, &st) == 0 && !S_ISLNK(st.st_mode)) {
    fprintf(stderr, "pathcc: warning: %s exists and is no link: left as it is\n", at);
    rc = 1;
  } else if ((unlink(at) != 0 && errno != ENOENT) || symlink(target, at) != 0) {
    fprintf(stderr, "pathcc: error: cannot link %s to %s: %s\n", at, target, strerror(errno));
    rc = -1;
  }
  free(at);
  return rc;
}

int pp_masq_create(const char *dir) {
  char self[PATH_MAX], real[PATH_MAX];
  if (!*dir || make_dirs(dir) != 0 || !realpath(dir, real)) {
    fprintf(stderr, "pathcc: error: --masquerade=%s: cannot create the directory: %s\n", dir, strerror(errno));
    return 1;
  }
  if (!realpath("/proc/self/exe", self)) {
    fprintf(stderr, "pathcc: error: --masquerade: cannot find pathcc itself: %s\n", strerror(errno));
    return 1;
  }
  char *target = relative(real, self);
  Dirs names = masq_names(real);
  int bad = 0;
  for (size_t i = 0; i < names.n; i++) {
    int rc = make_link(real, names.v[i], target);
    if (rc == 0) printf("%s\n", names.v[i]);
    bad |= rc < 0;
  }
  free(target);
  free_dirs(&names);
  return bad || fflush(stdout) ? 1 : 0;
}

/* Absolute path abs with "." and ".." components taken out as written (no links resolved, so
   the user's -ffile-prefix-map still matches), in place. */
static void normalize(char *abs) {
  char *out = abs, *p = abs;
  while (*p) {
    while (*p == '/') p++;
    char *end = strchr(p, '/');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == 2 && !strncmp(p, "..", 2)) {
      while (out > abs && *--out != '/') {}
    } else if (n && !(n == 1 && *p == '.')) {
      *out++ = '/';
      memmove(out, p, n);
      out += n;
    }
    p += n;
  }
  if (out == abs) *out++ = '/';
  *out = 0;
}

char *pp_masq_program_dir(const char *output) {
  char cwd[PATH_MAX];
  char *abs = output && output[0] == '/' ? pp_xstrdup(output)
              : pp_xasprintf("%s/%s", getcwd(cwd, sizeof cwd) ? cwd : "/", output ? output : "a.out");
  normalize(abs);
  char *slash = strrchr(abs, '/');
  *slash = 0;
  if ((slash = strrchr(abs, '/')) && !strcmp(slash, "/.libs"))  /* libtool's program behind its script */
    *slash = 0;
  if (!*abs) strcpy(abs, "/");
  return abs;
}

char *pp_masq_link_dir_asm(const char *dir) {
  PPStr s = {0};
  pp_str_addf(&s, "\t.section .note.pathprof,\"a\",%%note\n\t.balign 4\n\t.long 9\n\t.long %zu\n\t.long 1\n"
                  "\t.asciz \"pathprof\"\n\t.balign 4\n\t.asciz \"", strlen(dir) + 1);
  for (const unsigned char *p = (const unsigned char *)dir; *p; p++)
    if (*p == '"' || *p == '\\' || *p < 32 || *p > 126) pp_str_addf(&s, "\\%03o", *p);
    else pp_str_addn(&s, (const char *)p, 1);
  pp_str_add(&s, "\"\n\t.balign 4\n\t.section .note.GNU-stack,\"\",%progbits\n");
  return pp_str_take(&s);
}

/* How many of words[0..n) lead as launchers (ccache, distcc, icecc...), not the compiler. */
static size_t launchers(char *const *words, size_t n) {
  static const char *names[] = { "ccache", "sccache", "buildcache", "distcc", "icecc", "pump", 0 };
  size_t k = 0;
  for (; k + 1 < n; k++) {
    int i = 0;
    while (names[i] && strcmp(base_name(words[k]), names[i])) i++;
    if (!names[i]) break;
  }
  return k;
}

void pp_masq_assembler(PPArgs *out, char *const *cc, size_t ncc, char *const *args, size_t n) {
  for (size_t k = launchers(cc, ncc); k < ncc; k++) VEC_PUSH(*out, cc[k]);
  for (size_t i = 0; i < n; i++) {
    const char *x = args[i];
    if (!strncmp(x, "-m", 2) || !strncmp(x, "--target=", 9) || (!strncmp(x, "-B", 2) && x[2])) VEC_PUSH(*out, args[i]);
    if (!strcmp(x, "-target") && i + 1 < n) {
      VEC_PUSH(*out, args[i]);
      VEC_PUSH(*out, args[++i]);
    }
  }
}
