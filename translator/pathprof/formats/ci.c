/* ci.c: what the formats for CI services share: file names relative to the project root (--root,
   else the current directory), since GitLab, Coveralls and SonarQube match reports to the files
   of the repository, not to where a CI runner checked it out; and branch totals line by line
   (with MC/DC, a condition's outcome counts when MC/DC shows it). */
#include "formats.h"
#include "pathprof/mcdc.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static char *root;  /* realpath of the root, without a trailing slash; NULL: not found */

int pp_report_root_set(const char *dir) {
  char buf[PATH_MAX];
  free(root);
  root = NULL;
  if (!realpath(dir ? dir : ".", buf)) return -1;
  size_t n = strlen(buf);
  while (n > 1 && buf[n - 1] == '/') buf[--n] = 0;
  root = pp_xstrdup(buf);
  return 0;
}

const char *pp_report_root(void) {
  if (!root) pp_report_root_set(NULL);
  return root ? root : ".";
}

const char *pp_report_path(const PPCovFile *f) {
  const char *p = pp_coverage_file_name(f), *r = pp_report_root();
  size_t n = strlen(r);
  if (!strcmp(r, "/")) return p[0] == '/' ? p + 1 : p;
  if (!strncmp(p, r, n) && p[n] == '/') return p + n + 1;
  return p;
}

PPLineBranches *pp_line_branches(const PPCoverage *c, const PPCovFile *f) {
  PPLineBranches *lb = pp_xcalloc(f->nlines + 1, sizeof *lb);
  for (size_t k = 0; k < f->branches.n; k++) {
    const PPCovBranch *b = &f->branches.v[k];
    if (b->line < 1 || b->line > f->nlines || b->excluded) continue;
    int shown = c->mcdc ? pp_mcdc_edge_shown(c->mcdc, c, b->func, b->edge) : -1;
    lb[b->line].total++;
    lb[b->line].taken += shown >= 0 ? shown : b->count > 0;
    lb[b->line].reached |= b->reached;
  }
  return lb;
}

