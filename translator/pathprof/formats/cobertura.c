/* pathprof coverage --format cobertura: Cobertura XML (coverage-04.dtd), as CI services read it. */
#include "formats.h"
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <time.h>

static double rate(uint64_t hit, uint64_t total) { return total ? (double)hit / (double)total : 1.0; }

/* The decisions on line ln of file f: outcomes taken and outcomes in all. */
static void line_branches(const PPCovFile *f, unsigned ln, unsigned *taken, unsigned *total) {
  *taken = *total = 0;
  for (size_t k = 0; k < f->branches.n; k++)
    if (f->branches.v[k].line == ln) { (*total)++; *taken += f->branches.v[k].count > 0; }
}

static void xml_line(FILE *o, const char *indent, const PPCovFile *f, unsigned ln) {
  unsigned taken, total;
  line_branches(f, ln, &taken, &total);
  fprintf(o, "%s<line number=\"%u\" hits=\"%" PRIu64 "\"", indent, ln, f->lines[ln].count);
  if (total)
    fprintf(o, " branch=\"true\" condition-coverage=\"%u%% (%u/%u)\"", 100u * taken / total, taken, total);
  else fputs(" branch=\"false\"", o);
  fputs("/>\n", o);
}

void pp_format_cobertura(FILE *o, const PPCoverage *c) {
  PPCovSum all = {0};
  for (size_t i = 0; i < c->files.n; i++) pp_coverage_sum_file(c, &c->files.v[i], &all);
  const char *sde = getenv("SOURCE_DATE_EPOCH");
  long long ts = sde && *sde ? atoll(sde) : (long long)time(NULL);
  fprintf(o, "<?xml version=\"1.0\" ?>\n<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n");
  fprintf(o, "<coverage line-rate=\"%.4f\" branch-rate=\"%.4f\" lines-covered=\"%" PRIu64 "\" lines-valid=\"%" PRIu64
          "\" branches-covered=\"%" PRIu64 "\" branches-valid=\"%" PRIu64 "\" complexity=\"0\" version=\"pathprof-1\" timestamp=\"%lld\">\n",
          rate(all.lines_hit, all.lines), rate(all.br_hit, all.br), all.lines_hit, all.lines, all.br_hit, all.br, ts);
  fputs(" <sources>\n  <source>/</source>\n </sources>\n <packages>\n", o);
  /* one package per directory */
  for (size_t i = 0; i < c->files.n;) {
    const char *n = pp_coverage_file_name(&c->files.v[i]), *slash = strrchr(n, '/');
    size_t dl = slash ? (size_t)(slash - n) : 0;
    size_t j = i;
    PPCovSum ps = {0};
    for (; j < c->files.n; j++) {
      const char *m = pp_coverage_file_name(&c->files.v[j]), *s2 = strrchr(m, '/');
      if ((s2 ? (size_t)(s2 - m) : 0) != dl || strncmp(m, n, dl)) break;
      pp_coverage_sum_file(c, &c->files.v[j], &ps);
    }
    fputs("  <package name=\"", o);
    char *dir = pp_xasprintf("%.*s", (int)dl, n);
    pp_fputs_xml(o, *dir ? dir : ".");
    free(dir);
    fprintf(o, "\" line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\">\n   <classes>\n", rate(ps.lines_hit, ps.lines),
            rate(ps.br_hit, ps.br));
    for (size_t k = i; k < j; k++) {
      const PPCovFile *f = &c->files.v[k];
      PPCovSum s = {0};
      pp_coverage_sum_file(c, f, &s);
      const char *path = pp_coverage_file_name(f);
      fputs("    <class name=\"", o);
      pp_fputs_xml(o, slash ? strrchr(path, '/') + 1 : path);
      fputs("\" filename=\"", o);
      pp_fputs_xml(o, path[0] == '/' ? path + 1 : path);
      fprintf(o, "\" line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\">\n     <methods>\n", rate(s.lines_hit, s.lines),
              rate(s.br_hit, s.br));
      for (size_t m = 0; m < f->funcs.n; m++) {
        const PPCovFunc *fn = &c->funcs.v[f->funcs.v[m]];
        fputs("      <method name=\"", o);
        pp_fputs_xml(o, fn->f->name);
        fprintf(o, "\" signature=\"\" line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\">\n       <lines>\n",
                rate(fn->lines_hit, fn->lines_total), rate(fn->branches_hit, fn->branches_total));
        for (unsigned ln = fn->f->line; ln <= fn->f->end_line && ln <= f->nlines; ln++)
          if (f->lines[ln].exists) xml_line(o, "        ", f, ln);
        fputs("       </lines>\n      </method>\n", o);
      }
      fputs("     </methods>\n     <lines>\n", o);
      for (unsigned ln = 1; ln <= f->nlines; ln++)
        if (f->lines[ln].exists) xml_line(o, "      ", f, ln);
      fputs("     </lines>\n    </class>\n", o);
    }
    fputs("   </classes>\n  </package>\n", o);
    i = j;
  }
  fputs(" </packages>\n</coverage>\n", o);
}
