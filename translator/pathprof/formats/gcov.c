/* pathprof coverage --format gcov: the sources annotated with line counts, as gcov writes them;
   in a build with decision tables each decision's MC/DC under its line, as gcov -g writes it. */
#include "formats.h"
#include "mcdcfmt.h"
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

/* Lines an exclusion marker takes out show no count ("-", as for lines without code); a header
   line says how many there are. */
void pp_format_gcov(FILE *o, const PPCoverage *c, const char *profile) {
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    PPCovSum s = {0};
    pp_coverage_sum_file(c, f, &s);
    fprintf(o, "%9s:%5u:Source:%s\n", "-", 0u, f->name);
    fprintf(o, "%9s:%5u:Data:%s\n", "-", 0u, profile);
    if (s.lines_excl || s.br_excl)
      fprintf(o, "%9s:%5u:Excluded:%" PRIu64 " lines, %" PRIu64 " branches\n", "-", 0u, s.lines_excl, s.br_excl);
    unsigned n = f->src ? f->nsrc : f->nlines;
    const PPMcdc *m = c->mcdc;
    size_t d = m ? m->file_start[i] : 0;  /* the file's next decision */
    for (unsigned ln = 1; ln <= n; ln++) {
      const PPCovLine *l = ln <= f->nlines ? &f->lines[ln] : NULL;
      char cnt[32];
      if (!l || !l->exists || l->excluded) strcpy(cnt, "-");
      else if (!l->count) strcpy(cnt, "#####");
      else snprintf(cnt, sizeof cnt, "%" PRIu64 "%s", l->count, l->unexecuted_block ? "*" : "");
      const char *text = f->src && ln <= f->nsrc ? f->src[ln] : "";
      if (!f->src && (!l || !l->exists)) continue;
      fprintf(o, "%9s:%5u:%s\n", cnt, ln, text);
      for (; m && d < m->file_start[i + 1] && m->decs.v[m->by_file[d]].d->line <= ln; d++)
        pp_mcdc_gcov_decision(o, &m->decs.v[m->by_file[d]]);  /* gcov -g: under the decision's line */
    }
  }
}
