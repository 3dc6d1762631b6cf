/* Running the real compiler and reading its saved stderr (translator/pathcc/ccrun.c). */
#ifndef PP_CCRUN_H
#define PP_CCRUN_H
#include <stdbool.h>
#include <stddef.h>

/* Runs argv (NULL-terminated); stdout to out, stderr to err when given; the command line to
   stderr when verbose. Returns the exit status (or 127/128+sig). */
int pp_spawn(char **argv, const char *out, const char *err, bool verbose);
/* Copies a file (a compiler's saved stderr) to our stderr. */
void pp_copy_to_stderr(const char *path);
/* Writes n bytes to path; 0, or -1 on any failure. */
int pp_write_file(const char *path, const char *s, size_t n);
/* The compiler's first error line in errfile (the caller's to free). */
char *pp_first_error(const char *errfile);
/* Were all of errfile's errors warnings made errors (-Werror, -Werror=x)? */
bool pp_only_werror(const char *errfile);
#endif
