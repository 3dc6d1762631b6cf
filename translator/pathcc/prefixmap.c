/* The user's prefix maps: the object names its tables and hashes its source paths through them,
   as GCC writes debug info and __FILE__, so one tree built in two directories gives bit-identical
   objects (reproducible builds). And the other paths the driver makes: base names, absolute
   paths, the build systems' test programs. */
#include "prefixmap.h"
#include "model/util.h"
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

void pp_prefix_maps_read(PPPrefixMaps *m, char *const *args, size_t n) {
  static const char *const opts[] = { "-ffile-prefix-map=", "-fdebug-prefix-map=", "-fmacro-prefix-map=" };
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < 3; k++) {
      size_t len = strlen(opts[k]);
      const char *a = args[i], *eq;
      if (strncmp(a, opts[k], len) || !(eq = strchr(a + len, '='))) continue;
      m->from = pp_xrealloc(m->from, sizeof *m->from * (m->n + 1));
      m->to = pp_xrealloc(m->to, sizeof *m->to * (m->n + 1));
      m->from[m->n] = pp_xasprintf("%.*s", (int)(eq - a - len), a + len);
      m->to[m->n++] = pp_xstrdup(eq + 1);
    }
}

char *pp_prefix_map_path(const PPPrefixMaps *m, const char *path) {
  for (size_t k = m->n; k-- > 0;) {
    size_t n = strlen(m->from[k]);
    if (n && !strncmp(path, m->from[k], n)) return pp_xasprintf("%s%s", m->to[k], path + n);
  }
  return NULL;
}

uint64_t pp_prefix_map_hash(const PPPrefixMaps *m, uint64_t h, const char *text, size_t len) {
  size_t from = 0;
  for (size_t i = 0; m && m->n && i < len; i++) {
    for (size_t k = m->n; k-- > 0;) {  /* the last map given wins */
      size_t n = strlen(m->from[k]);
      if (!n || n > len - i || memcmp(text + i, m->from[k], n)) continue;
      h = pp_fnv1a(h, text + from, i - from);
      h = pp_fnv1a(h, m->to[k], strlen(m->to[k]));
      from = i + n;
      i = from - 1;
      break;
    }
  }
  return pp_fnv1a(h, text + from, len - from);
}

/* ---- the paths of sources, objects and tables ---- */

char *pp_base_noext(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strrchr(b, '.');
  return dot && dot != b ? pp_xasprintf("%.*s", (int)(dot - b), b) : pp_xstrdup(b);
}

char *pp_absolute(const char *path) {
  if (path[0] == '/') return pp_xstrdup(path);
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) return pp_xstrdup(path);
  return pp_xasprintf("%s/%s", cwd, path);
}

bool pp_try_compile(const char *abs) {
  const char *base = strrchr(abs, '/');
  return !strcmp(base ? base + 1 : abs, "conftest.c") || strstr(abs, "/CMakeFiles/CMakeScratch/") ||
         strstr(abs, "/CMakeFiles/CMakeTmp/") || strstr(abs, "/CompilerIdC/");
}
