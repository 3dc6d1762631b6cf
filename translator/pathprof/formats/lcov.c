/* pathprof coverage --format lcov: an lcov tracefile (geninfo(1)): functions, branches, lines, and
   in a build with decision tables lcov 2.x's MC/DC records. */
#include "formats.h"
#include "mcdcfmt.h"
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

/* Excluded lines and branches are left out, as lcov's geninfo leaves them out. */
void pp_format_lcov(FILE *o, const PPCoverage *c) {
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    fprintf(o, "TN:\nSF:%s\n", pp_coverage_file_name(f));
    unsigned fnh = 0, fnf = 0;
    for (size_t k = 0; k < f->funcs.n; k++) {
      const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
      fprintf(o, "FN:%u,%s\n", fn->name_line, fn->f->name);
    }
    for (size_t k = 0; k < f->funcs.n; k++) {
      const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
      fprintf(o, "FNDA:%" PRIu64 ",%s\n", fn->calls, fn->f->name);
      fnh += fn->calls > 0;
      fnf++;
    }
    fprintf(o, "FNF:%u\nFNH:%u\n", fnf, fnh);
    unsigned brf = 0, brh = 0, block = 0;
    for (size_t k = 0; k < f->branches.n; k++) {
      const PPCovBranch *b = &f->branches.v[k];
      /* lcov's block number: one per decision, unique in the file */
      if (k && b->arm == 0) block++;
      if (b->excluded) continue;
      if (b->reached) fprintf(o, "BRDA:%u,%u,%d,%" PRIu64 "\n", b->line, block, b->arm, b->count);
      else fprintf(o, "BRDA:%u,%u,%d,-\n", b->line, block, b->arm);
      brf++;
      brh += b->count > 0;
    }
    fprintf(o, "BRF:%u\nBRH:%u\n", brf, brh);
    if (c->mcdc) pp_mcdc_lcov_file(o, c->mcdc, (int)i);  /* lcov 2.x MC/DC records */
    unsigned lf = 0, lh = 0;
    for (unsigned ln = 1; ln <= f->nlines; ln++)
      if (f->lines[ln].exists && !f->lines[ln].excluded) {
        fprintf(o, "DA:%u,%" PRIu64 "\n", ln, f->lines[ln].count);
        lf++;
        lh += f->lines[ln].count > 0;
      }
    fprintf(o, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
  }
}
