/* Builds the hosted runtime for a target other than pathcc's own from its sources, once, into the cache. */
#include "rtbuild.h"
#include "model/util.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

typedef VEC(char *) Names;

char *pp_exe_dir(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return NULL;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (slash) *slash = 0;
  return pp_xstrdup(exe);
}

/* The runtime's source folder (rt/ of the build tree, share/pathprof/rt when installed) and the
   folder of pathprof.h; false when neither is there. */
static bool source_dirs(char **rt, char **inc) {
  char *bin = pp_exe_dir();
  if (!bin) return false;
  const char *rts[] = { "%s/../rt", "%s/../share/pathprof/rt" };
  *rt = NULL;
  for (int k = 0; k < 2 && !*rt; k++) {
    char *dir = pp_xasprintf(rts[k], bin), *probe = pp_xasprintf("%s/core/core.h", dir);
    if (access(probe, R_OK) == 0) *rt = dir;
    else free(dir);
    free(probe);
  }
  *inc = pp_xasprintf("%s/../include", bin);
  free(bin);
  return *rt != NULL;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The hosted runtime's files ending in suffix: its core, POSIX back end and profile format, as the
   Makefile's libpathprof.a, in name order so that the archive and the hash do not depend on readdir. */
static void list_files(const char *rt, const char *suffix, Names *out) {
  static const char *parts[] = { "core", "posix", "profile" };
  for (int k = 0; k < 3; k++) {
    char *dir = pp_xasprintf("%s/%s", rt, parts[k]);
    DIR *dp = opendir(dir);
    for (struct dirent *e; dp && (e = readdir(dp));)
      if (pp_ends_with(e->d_name, suffix)) VEC_PUSH(*out, pp_xasprintf("%s/%s", dir, e->d_name));
    if (dp) closedir(dp);
    free(dir);
  }
  pp_sort(out->v, out->n, sizeof *out->v, by_name);
}

/* The sources' identity (every file of the runtime's folders and pathprof.h: name, size,
   time), so that another pathprof's runtime is built anew, never taken from the cache. */
static uint64_t sources_hash(const char *rt, const char *inc, bool notls) {
  uint64_t h = pp_fnv1a(PP_FNV_BASIS, notls ? "notls" : "tls", 5);
  Names files = {0};
  list_files(rt, ".c", &files);
  list_files(rt, ".h", &files);
  VEC_PUSH(files, pp_xasprintf("%s/pathprof.h", inc));
  for (size_t i = 0; i < files.n; i++) {
    struct stat st;
    long long id[2] = { -1, -1 };
    if (stat(files.v[i], &st) == 0) id[0] = (long long)st.st_size, id[1] = (long long)st.st_mtime;
    h = pp_fnv1a(h, pp_base_name(files.v[i]), strlen(pp_base_name(files.v[i])));
    h = pp_fnv1a(h, id, sizeof id);
    free(files.v[i]);
  }
  VEC_FREE(files);
  return h;
}

/* The user's flags that the runtime is built with: those choosing the target, its ABI and its
   libraries (-m*, --target, --sysroot, -B, char and enum layout). Not the language level,
   warnings, sanitizers or link options, which are for the user's code and would make a runtime
   per program. The runtime is always position-independent, so it serves objects of any kind. */
static void runtime_flags(char **flags, size_t n, Names *out) {
  static const char *keep[] = { "-m", "--target", "-target", "--sysroot", "-isysroot", "-B", "--gcc-toolchain",
                                "-fshort-", "-funsigned-", "-fsigned-", "-fpack-struct", "-fno-short-", 0 };
  for (size_t i = 0; i < n; i++) {
    int k = 0;
    while (keep[k] && strncmp(flags[i], keep[k], strlen(keep[k]))) k++;
    if (!keep[k]) continue;
    VEC_PUSH(*out, flags[i]);
    bool pair = !strcmp(flags[i], "-target") || !strcmp(flags[i], "--sysroot") || !strcmp(flags[i], "-isysroot") ||
                !strcmp(flags[i], "-B");
    if (pair && i + 1 < n) VEC_PUSH(*out, flags[++i]);
  }
}

/* The archiver for the compiler named cc: a cross compiler's own (arm-linux-gnueabihf-ar beside
   arm-linux-gnueabihf-gcc), which knows its object format, else the host's ar. */
static char *archiver(const char *cc) {
  const char *base = pp_base_name(cc), *dash = strrchr(base, '-');
  while (dash && dash > base && strncmp(dash, "-gcc", 4) && strncmp(dash, "-clang", 6) && strncmp(dash, "-cc", 3)) {
    const char *p = dash - 1;
    while (p > base && *p != '-') p--;
    dash = *p == '-' ? p : NULL;
  }
  if (dash && dash > base) {
    char *ar = pp_xasprintf("%.*sar", (int)(dash - base + 1), base), *found = pp_cc_which(ar);
    free(found);
    if (found) return ar;
    free(ar);
  }
  return pp_xstrdup("ar");
}

/* The first line of the file err, for a message ("" when empty). */
static char *first_line(const char *err) {
  char *text = pp_read_file(err, NULL);
  char *line = pp_xasprintf("%.*s", text ? (int)strcspn(text, "\n") : 0, text ? text : "");
  free(text);
  return line;
}

/* Compiles every source into objs/ and archives them as lib; NULL, or why not. */
static char *compile_all(char **words, size_t nwords, char **flags, size_t nflags, bool notls, const char *rt,
                         const char *inc, const char *objs, const char *lib, PPRunFn run, void *ctx) {
  Names src = {0}, argv = {0}, ar = {0};
  list_files(rt, ".c", &src);
  char *why = NULL, *err = pp_xasprintf("%s/err", objs), *incf = pp_xasprintf("-I%s", inc), *rtf = pp_xasprintf("-I%s", rt);
  char *arch = archiver(words[nwords - 1]);
  VEC_PUSH(ar, arch);
  VEC_PUSH(ar, "rcs");
  VEC_PUSH(ar, (char *)lib);
  for (size_t i = 0; i < src.n && !why; i++) {
    char *obj = pp_xasprintf("%s/%zu-%s.o", objs, i, pp_base_name(src.v[i]));
    argv.n = 0;
    for (size_t k = 0; k < nwords; k++) VEC_PUSH(argv, words[k]);
    for (size_t k = 0; k < nflags; k++) VEC_PUSH(argv, flags[k]);
    char *fixed[] = { "-std=c99", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", "-O2", "-fPIC", "-w", incf, rtf,
                      notls ? "-DPATHPROF_FRAME_TLS=0" : "-DPATHPROF_FRAME_TLS=1", "-c", src.v[i], "-o", obj, NULL };
    for (int k = 0; fixed[k]; k++) VEC_PUSH(argv, fixed[k]);
    VEC_PUSH(argv, NULL);
    if (run(argv.v, NULL, err, ctx)) {
      char *line = first_line(err);
      why = pp_xasprintf("%s does not compile with %s: %s", src.v[i], words[nwords - 1], line);
      free(line);
    }
    VEC_PUSH(ar, obj);
  }
  VEC_PUSH(ar, NULL);
  if (!why && run(ar.v, NULL, err, ctx)) {
    char *line = first_line(err);
    why = pp_xasprintf("%s cannot make the runtime's archive: %s", arch, line);
    free(line);
  }
  for (size_t i = 3; ar.v[i]; i++) { unlink(ar.v[i]); free(ar.v[i]); }
  for (size_t i = 0; i < src.n; i++) free(src.v[i]);
  unlink(err);
  VEC_FREE(src); VEC_FREE(argv); VEC_FREE(ar);
  free(err); free(incf); free(rtf); free(arch);
  return why;
}

/* Under the entry's lock: the archive when an earlier build made it, its reason when one failed,
   else builds it now (the objects in a scratch folder, the archive renamed into place). */
static char *build_locked(const char *entry, char **words, size_t nwords, char **flags, size_t nflags, bool notls,
                          const char *rt, const char *inc, const char *tmp, PPRunFn run, void *ctx, char **why) {
  char *lib = pp_xasprintf("%s/libpathprof.a", entry), *failed = pp_xasprintf("%s/failed", entry);
  if (access(lib, R_OK) == 0) { free(failed); return lib; }
  if ((*why = pp_read_file(failed, NULL))) { free(lib); free(failed); return NULL; }
  char *objs = pp_xasprintf("%s/rt-objs", tmp), *part = pp_xasprintf("%s.%ld", lib, (long)getpid());
  mkdir(objs, 0755);
  *why = compile_all(words, nwords, flags, nflags, notls, rt, inc, objs, part, run, ctx);
  rmdir(objs);
  if (!*why && rename(part, lib)) *why = pp_xasprintf("cannot rename %s: %s", part, strerror(errno));
  unlink(part);
  if (*why) {
    FILE *f = fopen(failed, "w");
    if (f) { fputs(*why, f); fclose(f); }
  }
  free(objs); free(part); free(failed);
  if (*why) { free(lib); return NULL; }
  return lib;
}

char *pp_rt_build(char **words, size_t nwords, char **flags, size_t nflags, bool notls, const char *tmp, PPRunFn run,
                  void *ctx, char **why) {
  char *rt = NULL, *inc = NULL;
  *why = NULL;
  if (!source_dirs(&rt, &inc)) {
    free(inc);
    *why = pp_xstrdup("the runtime's sources are not next to pathcc (../rt or ../share/pathprof/rt)");
    return NULL;
  }
  Names kept = {0};
  runtime_flags(flags, nflags, &kept);
  flags = kept.v, nflags = kept.n;
  char *entry = pp_cc_cache_path("rt", sources_hash(rt, inc, notls), words, nwords, flags, nflags), *lib = NULL;
  int fd = -1;
  if (!entry) *why = pp_xstrdup("no cache directory to build it in (PATHCC_CACHE_DIR is empty)");
  else if (mkdir(entry, 0755) && errno != EEXIST) *why = pp_xasprintf("cannot make %s: %s", entry, strerror(errno));
  else {
    char *lock = pp_xasprintf("%s/lock", entry);
    fd = open(lock, O_RDWR | O_CREAT, 0644);
    if (fd < 0 || flock(fd, LOCK_EX)) *why = pp_xasprintf("cannot lock %s: %s", lock, strerror(errno));
    else lib = build_locked(entry, words, nwords, flags, nflags, notls, rt, inc, tmp, run, ctx, why);
    free(lock);
  }
  if (fd >= 0) close(fd);  /* releases the lock */
  free(entry); free(rt); free(inc);
  VEC_FREE(kept);
  return lib;
}
