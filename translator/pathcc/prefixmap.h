/* The user's -ffile-prefix-map, -fdebug-prefix-map and -fmacro-prefix-map, applied as GCC does;
   the paths of sources, objects and tables. */
#ifndef PP_PREFIXMAP_H
#define PP_PREFIXMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* OLD=NEW pairs in the order given (the last that matches a path wins). */
typedef struct {
  char **from, **to;
  size_t n;
} PPPrefixMaps;

/* Collects the maps among the compiler arguments args[0..n). */
void pp_prefix_maps_read(PPPrefixMaps *m, char *const *args, size_t n);
/* path with its mapped prefix replaced (allocated), or NULL when no map applies. */
char *pp_prefix_map_path(const PPPrefixMaps *m, const char *path);
/* FNV-1a from h over text[0..len) as the maps would show it: every OLD prefix it holds hashed
   as its NEW (the line markers name sources by the paths the build gave). m may be NULL. */
uint64_t pp_prefix_map_hash(const PPPrefixMaps *m, uint64_t h, const char *text, size_t len);

/* A path's last component without its extension (dir/foo.c -> foo), allocated. */
char *pp_base_noext(const char *path);
/* path made absolute against the working directory, allocated. */
char *pp_absolute(const char *path);
/* Whether absolute path abs is a program a configure script or CMake builds to learn about the
   compiler (conftest.c, a try-compile scratch directory): the build system deletes its tables,
   and a profile it writes would name units nobody can report on. */
bool pp_try_compile(const char *abs);
#endif
