/* pathprof coverage --format cobertura: Cobertura XML (coverage-04.dtd), as CI services read it. */
#include "formats.h"
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <time.h>

static double rate(uint64_t hit, uint64_t total) { return total ? (double)hit / (double)total : 1.0; }

static void xml_line(FILE *o, const PPCovFile *f, const PPLineBranches *lb, unsigned ln) {
  unsigned taken = lb[ln].taken, total = lb[ln].total;
  /* one line element per line of code, so the least bytes (GitLab reads 10 MiB at most): no
     indentation, and branch left to its default, false, when the line has no decision */
  fprintf(o, "<line number=\"%u\" hits=\"%" PRIu64 "\"", ln, f->lines[ln].count);
  if (total)
    fprintf(o, " branch=\"true\" condition-coverage=\"%u%% (%u/%u)\"", 100u * taken / total, taken, total);
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
  /* one source, the project root, and file names relative to it: GitLab matches them to the
     repository's files (it reads at most 100 sources), Codecov and Jenkins too */
  fputs(" <sources>\n  <source>", o);
  pp_fputs_xml(o, pp_report_root());
  fputs("</source>\n </sources>\n <packages>\n", o);
  /* one package per directory */
  for (size_t i = 0; i < c->files.n;) {
    const char *n = pp_report_path(&c->files.v[i]), *slash = strrchr(n, '/');
    size_t dl = slash ? (size_t)(slash - n) : 0;
    size_t j = i;
    PPCovSum ps = {0};
    for (; j < c->files.n; j++) {
      const char *m = pp_report_path(&c->files.v[j]), *s2 = strrchr(m, '/');
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
      const char *path = pp_report_path(f);
      PPLineBranches *lb = pp_line_branches(c, f);
      fputs("    <class name=\"", o);
      pp_fputs_xml(o, slash ? strrchr(path, '/') + 1 : path);
      fputs("\" filename=\"", o);
      pp_fputs_xml(o, path);
      fprintf(o, "\" line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\">\n     <methods>\n", rate(s.lines_hit, s.lines),
              rate(s.br_hit, s.br));
      for (size_t m = 0; m < f->funcs.n; m++) {
        const PPCovFunc *fn = &c->funcs.v[f->funcs.v[m]];
        fputs("      <method name=\"", o);
        pp_fputs_xml(o, fn->f->name);
        fprintf(o, "\" signature=\"\" line-rate=\"%.4f\" branch-rate=\"%.4f\" complexity=\"0\">\n       <lines>\n",
                rate(fn->lines_hit, fn->lines_total), rate(fn->branches_hit, fn->branches_total));
        /* a method's lines would repeat its class's (GitLab reads 10 MiB at most): its first
           line with code stands for it */
        for (unsigned ln = fn->f->line; ln <= fn->f->end_line && ln <= f->nlines; ln++)
          if (pp_line_counted(f, ln)) { xml_line(o, f, lb, ln); break; }
        fputs("       </lines>\n      </method>\n", o);
      }
      fputs("     </methods>\n     <lines>\n", o);
      for (unsigned ln = 1; ln <= f->nlines; ln++)
        if (pp_line_counted(f, ln)) xml_line(o, f, lb, ln);
      fputs("     </lines>\n    </class>\n", o);
      free(lb);
    }
    fputs("   </classes>\n  </package>\n", o);
    i = j;
  }
  fputs(" </packages>\n</coverage>\n", o);
}
