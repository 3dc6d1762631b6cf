/* pathprof coverage --format lcov: an lcov tracefile (geninfo(1)): functions, branches, lines, and
   in a build with decision tables lcov 2.x's MC/DC records. */
#include "formats.h"
#include "mcdcfmt.h"
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

static bool picked_func(const PPLcovPick *pick, int func) { return !pick || pick->func(pick->arg, func); }
static bool picked_line(const PPLcovPick *pick, unsigned ln) { return !pick || pick->line(pick->arg, ln); }

/* The FN, FNDA, FNF and FNH records of the functions picked; FN lines all come first, as
   geninfo writes them. */
static void lcov_functions(FILE *o, const PPCoverage *c, const PPCovFile *f, const PPLcovPick *pick) {
  unsigned fnh = 0, fnf = 0;
  for (size_t k = 0; k < f->funcs.n; k++) {
    const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
    if (picked_func(pick, f->funcs.v[k])) fprintf(o, "FN:%u,%s\n", fn->name_line, fn->f->name);
  }
  for (size_t k = 0; k < f->funcs.n; k++) {
    const PPCovFunc *fn = &c->funcs.v[f->funcs.v[k]];
    if (!picked_func(pick, f->funcs.v[k])) continue;
    fprintf(o, "FNDA:%" PRIu64 ",%s\n", fn->calls, fn->f->name);
    fnh += fn->calls > 0;
    fnf++;
  }
  fprintf(o, "FNF:%u\nFNH:%u\n", fnf, fnh);
}

/* The BRDA, BRF and BRH records of the branches on picked lines; the block number counts every
   decision of the file, picked or not, so a --diff record numbers them as the full one does. */
static void lcov_branches(FILE *o, const PPCovFile *f, const PPLcovPick *pick) {
  unsigned brf = 0, brh = 0, block = 0;
  for (size_t k = 0; k < f->branches.n; k++) {
    const PPCovBranch *b = &f->branches.v[k];
    if (k && b->arm == 0) block++;
    if (b->excluded || !picked_line(pick, b->line)) continue;
    if (b->reached) fprintf(o, "BRDA:%u,%u,%d,%" PRIu64 "\n", b->line, block, b->arm, b->count);
    else fprintf(o, "BRDA:%u,%u,%d,-\n", b->line, block, b->arm);
    brf++;
    brh += b->count > 0;
  }
  fprintf(o, "BRF:%u\nBRH:%u\n", brf, brh);
}

/* Excluded lines and branches are left out, as lcov's geninfo leaves them out. */
void pp_lcov_file(FILE *o, const PPCoverage *c, int fi, const PPLcovPick *pick) {
  const PPCovFile *f = &c->files.v[fi];
  fprintf(o, "TN:\nSF:%s\n", pp_coverage_file_name(f));
  lcov_functions(o, c, f, pick);
  lcov_branches(o, f, pick);
  if (c->mcdc) pp_mcdc_lcov_file(o, c->mcdc, fi, pick ? pick->line : NULL, pick ? pick->arg : NULL);  /* lcov 2.x */
  unsigned lf = 0, lh = 0;
  for (unsigned ln = 1; ln <= f->nlines; ln++)
    if (pp_line_counted(f, ln) && picked_line(pick, ln)) {
      fprintf(o, "DA:%u,%" PRIu64 "\n", ln, f->lines[ln].count);
      lf++;
      lh += f->lines[ln].count > 0;
    }
  fprintf(o, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
}

/* Every file's record, in the coverage's file order. */
void pp_format_lcov(FILE *o, const PPCoverage *c) {
  for (size_t i = 0; i < c->files.n; i++) pp_lcov_file(o, c, (int)i, NULL);
}
