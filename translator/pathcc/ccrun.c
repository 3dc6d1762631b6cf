/* ccrun: running the real compiler (spawn) and reading what it said (its saved stderr). */
#include "ccrun.h"
#include "model/util.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Runs argv (NULL-terminated); stdout goes to out, stderr to err when given. Returns the exit
   status (or 127/128+sig). posix_spawnp, not fork: a fork of a process that has libclang loaded
   (a compile server's worker) copies its page tables and faults them back, twice a unit. */
int pp_spawn(char **argv, const char *out, const char *err, bool verbose) {
  if (verbose) {  /* one write: a compile server's worker and its client share this stderr */
    PPStr line = {0};
    pp_str_add(&line, "pathcc:");
    for (size_t i = 0; argv[i]; i++) pp_str_addf(&line, " %s", argv[i]);
    pp_str_add(&line, "\n");
    char *text = pp_str_take(&line);
    fputs(text, stderr);
    free(text);
  }
  fflush(NULL);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out) posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (err) posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid;
  int e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  if (e == ENOEXEC) {  /* a script without #!: the shell runs it, as execvp (and make) would */
    size_t n = 0;
    while (argv[n]) n++;
    char **sh = pp_xcalloc(n + 4, sizeof *sh);
    sh[0] = "/bin/sh", sh[1] = "-c", sh[2] = "exec \"$0\" \"$@\"";
    memcpy(sh + 3, argv, (n + 1) * sizeof *sh);
    e = posix_spawn(&pid, "/bin/sh", &fa, NULL, sh, environ);
    free(sh);
  }
  posix_spawn_file_actions_destroy(&fa);
  if (e) {  /* said where the compiler's own stderr would have gone */
    FILE *to = err ? fopen(err, "w") : stderr;
    if (to) fprintf(to, "pathcc: error: cannot run %s: %s\n", argv[0], strerror(e));
    if (to && to != stderr) fclose(to);
    return 127;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) { st = 127 << 8; break; }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Copies a file (a compiler's saved stderr) to our stderr. */
void pp_copy_to_stderr(const char *path) {
  size_t n;
  char *s = pp_read_file(path, &n);
  if (s) fwrite(s, 1, n, stderr);
  free(s);
}

/* Writes n bytes to path; 0, or -1 on any failure. */
int pp_write_file(const char *path, const char *s, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(s, 1, n, f);
  return (fclose(f) == 0 && w == n) ? 0 : -1;
}

/* The compiler's first error line, to name the cause in our one warning. */
char *pp_first_error(const char *errfile) {
  char *text = pp_read_file(errfile, NULL), *line = NULL;
  for (char *l = text ? strtok(text, "\n") : NULL; l && !line; l = strtok(NULL, "\n"))
    if (strstr(l, "error")) line = pp_xstrdup(l);
  if (!line) line = pp_xasprintf("exit status without a message");
  free(text);
  return line;
}

/* Were all the compiler's errors warnings made errors (-Werror, -Werror=x)? Compiled from
   preprocessed text, a unit loses the macro context in which GCC keeps some warnings quiet
   (-Waddress on a macro's test of an array against NULL): the user's source compiles clean,
   the instrumented unit does not. */
bool pp_only_werror(const char *errfile) {
  char *text = pp_read_file(errfile, NULL);
  bool any = false, other = false;
  for (char *l = text ? strtok(text, "\n") : NULL; l; l = strtok(NULL, "\n")) {
    if (!strstr(l, "error:")) continue;
    if (strstr(l, "[-Werror")) any = true;
    else other = true;
  }
  free(text);
  return any && !other;
}

