/* pathprof coverage --format sonarqube: SonarQube's generic test coverage XML
   (sonar.coverageReportPaths; sonar-generic-coverage.xsd): one lineToCover per line with code,
   with its branches. */
#include "formats.h"
#include <stdlib.h>

/* SonarQube refuses a line past the end of the file it reads, so lines are kept within the
   source when it was found. */
static void file(FILE *o, const PPCoverage *c, const PPCovFile *f) {
  PPLineBranches *lb = pp_line_branches(c, f);
  unsigned last = f->src && f->nsrc < f->nlines ? f->nsrc : f->nlines;
  fputs("  <file path=\"", o);
  pp_fputs_xml(o, pp_report_path(f));
  fputs("\">\n", o);
  for (unsigned ln = 1; ln <= last; ln++) {
    bool code = pp_line_counted(f, ln);  /* excluded lines are left out, as gcovr does */
    if (!code && (!lb[ln].total || f->lines[ln].excluded)) continue;
    bool covered = code ? f->lines[ln].count > 0 : lb[ln].reached;
    fprintf(o, "    <lineToCover lineNumber=\"%u\" covered=\"%s\"", ln, covered ? "true" : "false");
    if (lb[ln].total) fprintf(o, " branchesToCover=\"%u\" coveredBranches=\"%u\"", lb[ln].total, lb[ln].taken);
    fputs("/>\n", o);
  }
  fputs("  </file>\n", o);
  free(lb);
}

void pp_format_sonarqube(FILE *o, const PPCoverage *c, const char *profile) {
  (void)profile;
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<coverage version=\"1\">\n", o);
  for (size_t i = 0; i < c->files.n; i++) file(o, c, &c->files.v[i]);
  fputs("</coverage>\n", o);
}
