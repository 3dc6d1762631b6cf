/* masq.h: pathcc run under a compiler's name from a masquerade directory (masq.c). */
#ifndef PP_MASQ_H
#define PP_MASQ_H
#include <stdbool.h>
#include <stddef.h>
#include "respfile.h"

/* "pathcc gcc -c x.c": whether a first argument, neither an option nor an input, names the
   compiler. */
bool pp_masq_names_compiler(const char *a);
/* Appends the words of s ("ccache gcc", "distcc gcc"): the compiler pathcc runs. */
void pp_masq_split_words(PPArgs *out, const char *s);
/* Whether argv0 names pathcc by a compiler's name (gcc, arm-none-eabi-gcc), not as pathcc. */
bool pp_masq_invoked(const char *argv0);
/* The real compiler of argv0's name (allocated): the next of that name on PATH after the
   directory pathcc was run from, skipping every link to pathcc; NULL when there is none. */
char *pp_masq_real(const char *argv0);
/* Takes out of $PATH every directory where one of names[0..n) (a basename is taken) is pathcc,
   so that nothing pathcc runs (ccache, distcc, a c99 script) finds pathcc again. */
void pp_masq_hide(char *const *names, size_t n);
/* `pathcc --masquerade=DIR`: creates DIR with links to this pathcc named cc, gcc, clang, c89,
   c99 and every versioned or target-prefixed gcc and clang on PATH; prints the names. Returns
   the exit status. */
int pp_masq_create(const char *dir);
/* The absolute directory of the program a link writes (-o output, else a.out; libtool's .libs
   stands for the directory above it): its default profile goes there. Allocated. */
char *pp_masq_program_dir(const char *output);
/* The assembly (allocated) of an ELF note ("pathprof", type 1) holding dir, the directory a
   program is linked into: every runtime in the process reads the program's (rt/posix/linkdir.c)
   and writes the default profile there. */
char *pp_masq_link_dir_asm(const char *dir);
/* Appends the command that assembles that note: the compiler words cc[0..ncc) without the
   launchers before them (ccache, distcc: the tiny object is neither cached nor sent away) and
   the options among the link's args[0..n) that choose the target (-m32, --target=, -B). */
void pp_masq_assembler(PPArgs *out, char *const *cc, size_t ncc, char *const *args, size_t n);
#endif
