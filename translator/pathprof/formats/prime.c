/* Prime-path coverage in the coverage formats (pathprof coverage --prime-paths): text, a summary
   per function and each prime path with its count; JSON (doc/coverage-json.md); the HTML
   function pages' section (html.c calls pp_prime_html). */
#include "formats.h"
#include "primefmt.h"
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *state_name(const PPPrime *x) {
  return x->state == PP_PRIME_RAN ? "ran" : x->state == PP_PRIME_NOT_RUN ? "not run" : "undecided";
}

/* The prime path's source lines, as "a.c:3-5 4". */
static char *lines_of(const PPCoverage *c, const PPPrimeFunc *pf, const PPPrime *x) {
  const PPCovFunc *f = &c->funcs.v[pf->func];
  PPStr s = {0};
  int last = f->f->file;
  pp_blocks_lines(&s, f->t, f->f, x->blocks, x->n, &last);
  if (!s.s) pp_str_add(&s, "");
  return pp_str_take(&s);
}

static const char *mode_name(const PPPrimeFunc *pf, char *buf, size_t n) {
  if (pf->edge) snprintf(buf, n, "edge mode");
  else if (pf->k > 1) snprintf(buf, n, "kpath k=%u", pf->k);
  else snprintf(buf, n, "path mode");
  return buf;
}

/* Why a function's prime paths are not all decided, or NULL when they are. */
static char *why_undecided(const PPPrimes *p, const PPPrimeFunc *pf) {
  char mode[32];
  if (pf->limited)
    return pp_xasprintf("more than %zu simple paths: prime paths not enumerated (raise the limit: --prime-paths=N)", p->limit);
  if (pf->edge) return pp_xasprintf("built with --mode=edge: edge counts hold no paths; rebuild in path mode (or kpath "
                                    "--k=%d to decide them all)", pf->need_k);
  if (!pf->undecided) return NULL;
  return pp_xasprintf("%u take more back edges than this build's profile spans (%s): rebuild with pathcc --mode=kpath "
                      "--k=%d to decide them", pf->undecided, mode_name(pf, mode, sizeof mode), pf->need_k);
}

void pp_prime_text(FILE *o, const PPCoverage *c, const PPPrimes *p, const char *profile) {
  uint64_t total = 0, ran = 0, und = 0;
  fprintf(o, "pathprof coverage --prime-paths: %s: %zu functions\n", profile, p->funcs.n);
  fprintf(o, "%-40s %12s %18s %10s  %s\n", "", "prime paths", "ran", "undecided", "k needed");
  for (size_t i = 0; i < p->funcs.n; i++) {
    const PPPrimeFunc *pf = &p->funcs.v[i];
    const PPCovFunc *f = &c->funcs.v[pf->func];
    char *name = pp_xasprintf("%s:%u %s", f->t->files.v[f->f->file], f->name_line, f->f->name), mode[32];
    if (pf->limited) fprintf(o, "%-40s %12s %18s %10s  -\n", name, "over limit", "-", "-");
    else {
      size_t n = pf->paths.n, decided = n - pf->undecided;
      fprintf(o, "%-40s %12zu %9u/%-5zu%3.0f%% %10u  %d (%s)\n", name, n, pf->ran, decided,
              decided ? 100.0 * pf->ran / (double)decided : 100.0, pf->undecided, pf->need_k, mode_name(pf, mode, sizeof mode));
      total += n; ran += pf->ran; und += pf->undecided;
    }
    free(name);
  }
  fprintf(o, "%-40s %12" PRIu64 " %9" PRIu64 "/%-5" PRIu64 "%3.0f%% %10" PRIu64 "\n", "total", total, ran, total - und,
          total - und ? 100.0 * (double)ran / (double)(total - und) : 100.0, und);
  for (size_t i = 0; i < p->funcs.n; i++) {
    const PPPrimeFunc *pf = &p->funcs.v[i];
    const PPCovFunc *f = &c->funcs.v[pf->func];
    char *why = why_undecided(p, pf);
    fprintf(o, "\n%s (%s:%u): %zu prime paths, %u ran\n", f->f->name, f->t->files.v[f->f->file], f->name_line, pf->paths.n, pf->ran);
    if (why) fprintf(o, "  %s\n", why);
    free(why);
    for (size_t k = 0; k < pf->paths.n; k++) {
      const PPPrime *x = &pf->paths.v[k];
      char *ln = lines_of(c, pf, x), cnt[32];
      if (x->state == PP_PRIME_UNDECIDED) snprintf(cnt, sizeof cnt, "?");
      else snprintf(cnt, sizeof cnt, "%" PRIu64, x->count);
      fprintf(o, "  %4zu %12s  %-9s blocks", k + 1, cnt, state_name(x));
      for (int b = 0; b < x->n; b++) fprintf(o, " %d", x->blocks[b]);
      fprintf(o, "  lines %s\n", ln);
      free(ln);
    }
  }
}

void pp_prime_json(FILE *o, const PPCoverage *c, const PPPrimes *p, const char *profile) {
  json_t *funcs = json_array();
  for (size_t i = 0; i < p->funcs.n; i++) {
    const PPPrimeFunc *pf = &p->funcs.v[i];
    const PPCovFunc *f = &c->funcs.v[pf->func];
    json_t *paths = json_array();
    for (size_t k = 0; k < pf->paths.n; k++) {
      const PPPrime *x = &pf->paths.v[k];
      json_t *blocks = json_array();
      for (int b = 0; b < x->n; b++) json_array_append_new(blocks, json_integer(x->blocks[b]));
      char *ln = lines_of(c, pf, x);
      json_t *cnt = x->state == PP_PRIME_UNDECIDED ? json_null() : pp_json_count(x->count);
      json_array_append_new(paths, json_pack("{s:o, s:s, s:i, s:s, s:o}", "blocks", blocks, "lines", ln, "back_edges",
                                             x->crossings, "state", state_name(x), "count", cnt));
      free(ln);
    }
    char *why = why_undecided(p, pf);
    json_t *fo = json_pack("{s:s, s:s, s:i, s:i, s:b, s:i, s:i, s:i, s:o, s:o}", "function", f->f->name, "file",
                           f->t->files.v[f->f->file], "line", (int)f->f->line, "k", (int)pf->k, "limited", pf->limited,
                           "need_k", pf->need_k, "ran", (int)pf->ran, "undecided", (int)pf->undecided,
                           "why", why ? json_string(why) : json_null(), "prime_paths", pf->limited ? json_null() : paths);
    if (pf->limited) json_decref(paths);
    free(why);
    json_array_append_new(funcs, fo);
  }
  json_t *doc = json_pack("{s:s, s:i, s:s, s:i, s:o}", "format", "pathprof-prime-paths", "version", 1, "profile", profile,
                          "limit", (int)(p->limit > INT32_MAX ? INT32_MAX : p->limit), "functions", funcs);
  json_dumpf(doc, o, JSON_COMPACT | JSON_PRESERVE_ORDER);
  fputc('\n', o);
  json_decref(doc);
}

void pp_prime_html(FILE *o, const PPCoverage *c, const PPPrimes *p, int func) {
  const PPPrimeFunc *pf = NULL;
  for (size_t i = 0; i < p->funcs.n; i++)
    if (p->funcs.v[i].func == func) pf = &p->funcs.v[i];
  if (!pf) return;
  char *why = why_undecided(p, pf);
  fprintf(o, "<section id=\"prime\" data-prime=\"%zu\" data-ran=\"%u\" data-undecided=\"%u\"><h2>Prime paths: %u of %zu ran",
          pf->paths.n, pf->ran, pf->undecided, pf->ran, pf->paths.n);
  if (pf->undecided) fprintf(o, ", %u undecided", pf->undecided);
  fputs("</h2>\n", o);
  if (why) {
    fputs("<p>", o);
    pp_fputs_xml(o, why);
    fputs("</p>\n", o);
  }
  free(why);
  if (pf->paths.n) fputs("<table class=\"prime\"><tr><th>#</th><th>count</th><th class=\"name\">lines</th><th>back edges</th></tr>\n", o);
  for (size_t k = 0; k < pf->paths.n; k++) {
    const PPPrime *x = &pf->paths.v[k];
    char *ln = lines_of(c, pf, x);
    fprintf(o, "<tr class=\"%s\"><td>%zu</td><td>", x->state == PP_PRIME_RAN ? "hit" : x->state == PP_PRIME_NOT_RUN ? "miss" : "undecided", k + 1);
    if (x->state == PP_PRIME_UNDECIDED) fputs("?", o);
    else fprintf(o, "%" PRIu64, x->count);
    fputs("</td><td class=\"name\">", o);
    pp_fputs_xml(o, ln);
    fprintf(o, "</td><td>%d</td></tr>\n", x->crossings);
    free(ln);
  }
  if (pf->paths.n) fputs("</table>\n", o);
  fputs("</section>\n", o);
}
