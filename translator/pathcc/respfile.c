/* Response files: the user's @file arguments read as gcc reads them, long commands written back into one. */
#include "respfile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One argument, expanded at depth (gcc gives up past 8 nested @files and passes the rest on):
   whitespace separates words, quotes and backslashes escape. */
static void expand(PPArgs *out, const char *a, int depth) {
  if (a[0] != '@' || depth > 8) { VEC_PUSH(*out, (char *)a); return; }
  size_t n;
  char *text = pp_read_file(a + 1, &n);
  if (!text) { VEC_PUSH(*out, (char *)a); return; }  /* gcc passes a missing @file on as is */
  PPStr w = {0};
  bool in = false;
  char q = 0;
  for (size_t i = 0; i <= n; i++) {
    char c = i < n ? text[i] : ' ';
    if (c == '\\' && i + 1 < n) { pp_str_addn(&w, &text[++i], 1); in = true; }
    else if (q) { if (c == q) q = 0; else pp_str_addn(&w, &c, 1); }
    else if (c == '\'' || c == '"') { q = c; in = true; }
    else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in) expand(out, pp_str_take(&w), depth + 1);
      in = false;
    } else { pp_str_addn(&w, &c, 1); in = true; }
  }
  free(text);
}

void pp_args_expand(PPArgs *out, const char *a) { expand(out, a, 0); }

/* gcc and clang both read a response file of quoted words, so every word is quoted and its
   quotes and backslashes escaped. */
int pp_args_shorten(PPArgs *argv, size_t keep, char **rsp) {
  size_t total = 0;
  for (size_t i = 0; i < argv->n; i++) total += strlen(argv->v[i]) + 1;
  if (total < 100000) return 0;
  const char *t = getenv("TMPDIR");
  *rsp = pp_xasprintf("%s/pathcc-args-XXXXXX", t && *t ? t : "/tmp");
  int fd = mkstemp(*rsp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) return -1;
  for (size_t i = keep; i < argv->n; i++) {
    fputc('"', f);
    for (const char *c = argv->v[i]; *c; c++) {
      if (*c == '"' || *c == '\\') fputc('\\', f);
      fputc(*c, f);
    }
    fputs("\"\n", f);
  }
  if (fclose(f)) return -1;
  argv->n = keep;
  VEC_PUSH(*argv, pp_xasprintf("@%s", *rsp));
  return 0;
}
