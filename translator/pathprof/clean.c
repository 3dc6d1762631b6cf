/* pathprof clean: removes the tables pathcc wrote under directories (as `make clean` leaves them). */
#include "commands.h"
#include "model/util.h"
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
  bool dry;          /* -n: only list them */
  unsigned removed, failed;
} Clean;

/* Whether path is a tables file of pathcc's: named *.pp.json and opening with its format tag
   (a user's own file of that name is left alone). */
static bool is_tables(const char *path) {
  static const char tag[] = "{\"format\":\"pathprof-tables\"";
  char head[sizeof tag];
  FILE *f = pp_ends_with(path, ".pp.json") ? fopen(path, "rb") : NULL;
  size_t n = f ? fread(head, 1, sizeof tag - 1, f) : 0;
  if (f) fclose(f);
  return n == sizeof tag - 1 && !memcmp(head, tag, n);
}

/* Removes (or lists) the tables under dir, depth first; symbolic links are not followed. */
static void clean_dir(Clean *c, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) { fprintf(stderr, "pathprof clean: %s: %s\n", dir, strerror(errno)); c->failed++; return; }
  for (struct dirent *e; (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char *p = pp_xasprintf("%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) clean_dir(c, p);
    else if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && is_tables(p)) {
      if (c->dry) { printf("%s\n", p); c->removed++; }
      else if (unlink(p) == 0) c->removed++;
      else { fprintf(stderr, "pathprof clean: %s: %s\n", p, strerror(errno)); c->failed++; }
    }
    free(p);
  }
  closedir(d);
}

static int run_clean(int argc, char **argv);

static const PPOpt clean_opts[] = {
  { "dry-run", 'n', 0, "only list the tables files that would be removed" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_clean = {
  "clean", "[-n] [DIR]...", "removes the tables pathcc wrote under directories",
  "Removes the tables files pathcc wrote (*.pp.json files that open with its format tag; a user's own file of "
  "that name is left alone) under each DIR, default the current directory, as make clean leaves them. Symbolic "
  "links are not followed.",
  clean_opts, run_clean,
};

static int run_clean(int argc, char **argv) {
  Clean c = { false, 0, 0 };
  const char *arg;
  int r, n;
  PPCli cli;
  pp_cli_begin(&cli, &pp_command_clean, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) return pp_cli_status(&cli, r);
    c.dry = true;
  }
  char **dirs = pp_cli_operands(&cli, &n);
  for (int i = 0; i < n; i++) clean_dir(&c, dirs[i]);
  if (!n) clean_dir(&c, ".");
  fprintf(stderr, "pathprof clean: %u tables files %s\n", c.removed, c.dry ? "would be removed" : "removed");
  return c.failed ? 1 : 0;
}
