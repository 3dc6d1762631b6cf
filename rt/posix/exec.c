/* exec.c: the exec family as instrumented code calls it (pathcc renames the calls): the profile
   is written first, since the new process image will not run our exit handler. */
#define _GNU_SOURCE /* execvpe */
#include "posix.h"
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes the trace and the counts so far, the activations still running as partial paths
   (pathprof_write_file takes them out of memory and takes those prefixes back, so if the exec
   fails and the program goes on, nothing is counted twice). */
static void before_exec(void)
{
  __pathprof_trace_flush();
  if (__pathprof_first())
    pathprof_write_file(0);
}

int __pathprof_execv(const char *path, char *const *argv)
{
  before_exec();
  return execv(path, argv);
}

int __pathprof_execve(const char *path, char *const *argv, char *const *envp)
{
  before_exec();
  return execve(path, argv, envp);
}

int __pathprof_execvp(const char *file, char *const *argv)
{
  before_exec();
  return execvp(file, argv);
}

int __pathprof_execvpe(const char *file, char *const *argv, char *const *envp)
{
  before_exec();
  return execvpe(file, argv, envp);
}

int __pathprof_fexecve(int fd, char *const *argv, char *const *envp)
{
  before_exec();
  return fexecve(fd, argv, envp);
}

/* The argument list of an execl-style call as an argv array (malloc'd), arg0 first, up to and
   including the terminating null pointer; *envp gets the pointer after it when want_env. */
static char **arg_list(const char *arg0, va_list ap, int want_env, char *const **envp)
{
  va_list count;
  size_t n = 1, i;
  char **argv;

  va_copy(count, ap);
  if (arg0)
    while (va_arg(count, char *))
      n++;
  va_end(count);
  argv = malloc((n + 1) * sizeof *argv);
  if (!argv)
    return 0;
  argv[0] = (char *)arg0;
  for (i = 1; arg0 && i <= n; i++)
    argv[i] = va_arg(ap, char *);
  argv[arg0 ? n : 1] = 0;
  if (want_env)
    *envp = va_arg(ap, char *const *);
  return argv;
}

/* An execl-style call: its argument list (ap, after arg0) as an argv, then execv ('v'),
   execvp ('p') or execve with the environment after the list ('e'). */
static int exec_list(const char *path, const char *arg0, va_list ap, int how)
{
  char *const *envp = 0;
  char **argv = arg_list(arg0, ap, how == 'e', &envp);
  int rc;

  if (!argv)
    return -1;
  rc = how == 'p' ? __pathprof_execvp(path, argv)
       : how == 'e' ? __pathprof_execve(path, argv, envp) : __pathprof_execv(path, argv);
  free(argv);
  return rc;
}

int __pathprof_execl(const char *path, const char *arg0, ...)
{
  va_list ap;
  int rc;
  va_start(ap, arg0);
  rc = exec_list(path, arg0, ap, 'v');
  va_end(ap);
  return rc;
}

int __pathprof_execlp(const char *file, const char *arg0, ...)
{
  va_list ap;
  int rc;
  va_start(ap, arg0);
  rc = exec_list(file, arg0, ap, 'p');
  va_end(ap);
  return rc;
}

int __pathprof_execle(const char *path, const char *arg0, ...)
{
  va_list ap;
  int rc;
  va_start(ap, arg0);
  rc = exec_list(path, arg0, ap, 'e');
  va_end(ap);
  return rc;
}
