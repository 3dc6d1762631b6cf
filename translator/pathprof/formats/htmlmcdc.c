/* htmlmcdc.c: MC/DC on the HTML report's pages, in a build with decision tables (c->mcdc): each
   decision's line has a badge with its shown conditions, a condition not yet shown is marked on
   the source, and the file page lists per decision its truth table of executed vectors with
   counts, the vectors that show each condition and which value of which condition is missing. */
#include "formats.h"
#include "htmlmcdc.h"
#include "mcdcfmt.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VECTORS 200   /* truth table rows shown per decision */

/* A condition that MC/DC has not shown both values of, where it is written. */
typedef struct { unsigned line, col; int dec, k; } Miss;

struct PPHtmlMcdc {
  const PPCoverage *c;
  int file;
  size_t next;          /* the file's next decision (by line) for badges */
  VEC(Miss) miss;       /* by line and column */
  size_t next_miss;
};

static int by_place(const void *a, const void *b) {
  const Miss *x = a, *y = b;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return x->col < y->col ? -1 : x->col > y->col;
}

PPHtmlMcdc *pp_html_mcdc_open(const PPCoverage *c, int file) {
  const PPMcdc *m = c->mcdc;
  if (!m || m->file_start[file] == m->file_start[file + 1]) return NULL;
  PPHtmlMcdc *h = pp_xcalloc(1, sizeof *h);
  h->c = c;
  h->file = file;
  h->next = m->file_start[file];
  for (size_t i = m->file_start[file]; i < m->file_start[file + 1]; i++) {
    const PPMcdcDecision *d = &m->decs.v[m->by_file[i]];
    for (int k = 0; k < d->d->n; k++)
      if (!d->res[k].shown[0] || !d->res[k].shown[1]) {
        Miss x = { d->conds[k].line, d->conds[k].col, m->by_file[i], k };
        VEC_PUSH(h->miss, x);
      }
  }
  if (h->miss.n) qsort(h->miss.v, h->miss.n, sizeof *h->miss.v, by_place);
  return h;
}

void pp_html_mcdc_close(PPHtmlMcdc *h) {
  if (!h) return;
  VEC_FREE(h->miss);
  free(h);
}

/* The anchor of decision dec (an index into decs) on its file's page. */
static void dec_anchor(FILE *o, int file, int dec) { fprintf(o, "s%d.html#d%d", file, dec); }

/* What a condition lacks, as "true not shown, false never evaluated". */
static void lacks(FILE *o, const PPMcdcCond *r) {
  bool first = true;
  for (int v = 1; v >= 0; v--)
    if (!r->shown[v]) {
      fprintf(o, "%s%s %s", first ? "" : ", ", v ? "true" : "false", r->seen[v] ? "not shown" : "never evaluated");
      first = false;
    }
}

bool pp_html_mcdc_row_missing(const PPHtmlMcdc *h, unsigned ln) {
  if (!h) return false;
  for (size_t i = h->next_miss; i < h->miss.n && h->miss.v[i].line <= ln; i++)
    if (h->miss.v[i].line == ln) return true;
  return false;
}

void pp_html_mcdc_source(FILE *o, PPHtmlMcdc *h, const PPCovFile *f, unsigned ln) {
  const PPMcdc *m = h->c->mcdc;
  const char *s = f->src && ln <= f->nsrc ? f->src[ln] : "";
  size_t len = strlen(s), at = 0;
  while (h->next_miss < h->miss.n && h->miss.v[h->next_miss].line < ln) h->next_miss++;
  /* each missing condition whose text is written at its column here is marked; its title says what it lacks */
  for (size_t i = h->next_miss; i < h->miss.n && h->miss.v[i].line == ln; i++) {
    const Miss *x = &h->miss.v[i];
    const PPMcdcDecision *d = &m->decs.v[x->dec];
    const char *text = d->conds[x->k].text;
    size_t tl = strlen(text);
    if (tl >= 3 && !strcmp(text + tl - 3, "...")) tl -= 3;
    size_t col = x->col ? x->col - 1 : 0;
    if (col < at || col + tl > len || !tl || strncmp(s + col, text, tl)) continue;  /* written otherwise (a macro) */
    char *before = pp_xasprintf("%.*s", (int)(col - at), s + at);
    pp_fputs_xml(o, before);
    free(before);
    fprintf(o, "<a class=\"cmiss\" href=\"");
    dec_anchor(o, h->file, x->dec);
    fprintf(o, "\" title=\"condition %d: ", x->k);
    lacks(o, &d->res[x->k]);
    fputs("\">", o);
    char *cond = pp_xasprintf("%.*s", (int)tl, s + col);
    pp_fputs_xml(o, cond);
    free(cond);
    fputs("</a>", o);
    at = col + tl;
  }
  pp_fputs_xml(o, s + at);
  /* the decisions starting on this line: a badge with their shown conditions */
  while (h->next < m->file_start[h->file + 1] && m->decs.v[m->by_file[h->next]].d->line < ln) h->next++;
  for (; h->next < m->file_start[h->file + 1] && m->decs.v[m->by_file[h->next]].d->line == ln; h->next++) {
    const PPMcdcDecision *d = &m->decs.v[m->by_file[h->next]];
    fprintf(o, " <a class=\"mcdc%s\" href=\"", d->covered == d->d->n ? "" : " part");
    dec_anchor(o, h->file, m->by_file[h->next]);
    fprintf(o, "\">MC/DC %d/%d</a>", d->covered, d->d->n);
  }
}

/* One decision: where, its truth table, then each condition's verdict. */
static void decision(FILE *o, const PPCoverage *c, int dec) {
  const PPMcdcDecision *d = &c->mcdc->decs.v[dec];
  const PPCovFunc *fn = &c->funcs.v[d->func];
  int n = d->d->n;
  fprintf(o, "<div class=\"dec\" id=\"d%d\" data-conditions=\"%d\" data-covered=\"%d\" data-vectors=\"%zu\">\n<h3>"
          "<a href=\"#L%u\">line %u:%u</a> in <a href=\"f%d.html\">", dec, n, d->covered, d->vecs.n, d->d->line, d->d->line,
          d->d->col, d->func);
  pp_fputs_xml(o, fn->f->name);
  fprintf(o, "</a>: %d of %d condition%s shown, %" PRIu64 " evaluation%s</h3>\n", d->covered, n, n == 1 ? "" : "s",
          d->evaluations, d->evaluations == 1 ? "" : "s");
  if (d->partial)
    fprintf(o, "<p>%" PRIu64 " evaluations that a cut edge splits are left out.</p>\n", d->partial);
  if (!d->vecs.n) fputs("<p>The decision never ran.</p>\n", o);
  else {
    fputs("<table class=\"tt\"><tr><th>vector</th>", o);
    for (int k = 0; k < n; k++) {
      fprintf(o, "<th title=\"");
      pp_fputs_xml(o, d->conds[k].text);
      fprintf(o, "\">c%d</th>", k);
    }
    fputs("<th>outcome</th><th>count</th></tr>\n", o);
    for (size_t v = 0; v < d->vecs.n && v < MAX_VECTORS; v++) {
      fprintf(o, "<tr class=\"vec\" id=\"d%dv%zu\"><td>%zu</td>", dec, v + 1, v + 1);
      for (int k = 0; k < n; k++) {
        int x = d->vecs.v[v].vals[k];
        fprintf(o, "<td class=\"%s\">%s</td>", x < 0 ? "x" : x ? "t" : "f", x < 0 ? "-" : x ? "T" : "F");
      }
      fprintf(o, "<td class=\"%s\">%s</td><td>%" PRIu64 "</td></tr>\n", d->vecs.v[v].outcome ? "t" : "f",
              d->vecs.v[v].outcome ? "T" : "F", d->vecs.v[v].count);
    }
    fputs("</table>\n", o);
    if (d->vecs.n > MAX_VECTORS)
      fprintf(o, "<p>%zu more vectors: <code>pathprof coverage --mcdc</code> lists them all.</p>\n", d->vecs.n - MAX_VECTORS);
  }
  fputs("<table class=\"conds\"><tr><th>condition</th><th class=\"name\">text</th><th>line</th><th class=\"name\">"
        "shown by</th></tr>\n", o);
  for (int k = 0; k < n; k++) {
    const PPMcdcCond *r = &d->res[k];
    bool both = r->shown[0] && r->shown[1];
    fprintf(o, "<tr class=\"cond %s\"><td>c%d</td><td class=\"name\"><code>", both ? "shown" : "missing", k);
    pp_fputs_xml(o, d->conds[k].text);
    fprintf(o, "</code></td><td><a href=\"#L%u\">%u</a></td><td class=\"name\">", d->conds[k].line, d->conds[k].line);
    if (c->mcdc->def == PP_MCDC_UNIQUE && both)
      fprintf(o, "the pair of vectors %d and %d", r->pair[1] + 1, r->pair[0] + 1);
    else {
      const char *sep = "";
      for (int v = 1; v >= 0; v--)
        if (r->shown[v]) { fprintf(o, "%s%s: vector %d", sep, v ? "true" : "false", r->pair[v] + 1); sep = "; "; }
      if (!both) {
        fprintf(o, "%s<b>", sep);
        lacks(o, r);
        fputs("</b>", o);
      }
    }
    fputs("</td></tr>\n", o);
  }
  fputs("</table></div>\n", o);
}

void pp_html_mcdc_section(FILE *o, const PPCoverage *c, int file) {
  const PPMcdc *m = c->mcdc;
  if (!m || m->file_start[file] == m->file_start[file + 1]) return;
  PPMcdcSum s = {0};
  pp_mcdc_sum_file(m, file, &s);
  fprintf(o, "<section id=\"mcdc\" data-definition=\"%s\"><h2>MC/DC (%s): %" PRIu64 " of %" PRIu64 " decisions, %" PRIu64
          " of %" PRIu64 " conditions shown</h2>\n", pp_mcdc_def_name(m->def), pp_mcdc_def_name(m->def), s.dec_hit, s.dec,
          s.cond_hit, s.cond);
  fprintf(o, "<p>%s</p>\n", m->def == PP_MCDC_UNIQUE
                              ? "Unique-cause: a condition is shown by two executed vectors with different outcomes "
                                "whose evaluated conditions differ in it alone. T true, F false, - not evaluated."
                              : "Masking: a value of a condition is shown by an executed vector in which no other "
                                "condition masks it. T true, F false, - not evaluated.");
  for (size_t i = m->file_start[file]; i < m->file_start[file + 1]; i++) decision(o, c, m->by_file[i]);
  fputs("</section>\n", o);
}
