/* pathprof coverage: loads a profile, derives the coverage, writes it in the chosen format and
   checks the --fail-under thresholds. */
#include "commands.h"
#include "diffcov.h"
#include "formats/formats.h"
#include "formats/mcdcfmt.h"
#include "formats/primefmt.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int run_coverage(int argc, char **argv);

enum { O_FORMAT, O_OUTPUT, O_ROOT, O_MCDC, O_PRIME, O_NOCODE, O_DIFF, O_TEST, O_STRICT, O_FAIL, O_FAIL_LINE, O_FAIL_BRANCH, O_FAIL_PATH };

static const PPOpt coverage_opts[] = {
  [O_FORMAT] = { "format", 0, "FORMAT", "text (default), json, lcov, cobertura, gcov, html, sonarqube, coveralls or "
                                        "markdown" },
  [O_OUTPUT] = { "output", 'o', "FILE|DIR", "write to FILE (written aside, then renamed) instead of standard output; "
                                            "html writes the directory DIR" },
  [O_ROOT] = { "root", 0, "DIR", "the project's top directory (default: the current one): cobertura, sonarqube, "
                                 "coveralls and markdown name files relative to it, as CI services want" },
  [O_MCDC] = { "mcdc", 0, "[=masking|unique-cause]", "MC/DC per decision instead (builds with "
                                                  "--decisions=conditions): masking (the default, GCC's and DO-178C "
                                                  "practice) or unique-cause (clang's); formats text, json, lcov and gcov. "
                                                  "Without it every format of such a build carries masking MC/DC where it "
                                                  "has a place for it; with cobertura, sonarqube, markdown or html it "
                                                  "names the definition they carry" },
  [O_PRIME] = { "prime-paths", 0, "[=LIMIT]", "prime-path coverage instead: per function its prime paths (maximal "
                                              "simple paths of the CFG, as GCC 15 defines them), which ran and how "
                                              "often; those taking back edges need a kpath build with a large enough "
                                              "k, and are reported undecided otherwise; a function with more than "
                                              "LIMIT simple paths (default 100000) is named, not enumerated. Formats "
                                              "text, json and html" },
  [O_NOCODE] = { "no-code", 0, "gcov|count", "lines GCC emits no code for: count them as they ran (count, the "
                                             "default, as clang does) or leave them out (gcov, as gcov does)" },
  [O_DIFF] = { "diff", 0, "BASE", "differential coverage: only the lines a change added or modified, their branches and "
                                  "every path through them. BASE is a unified diff file (- for stdin) or a git revision, "
                                  "diffed against the working tree (origin/main...HEAD for a pull request's own commits). "
                                  "Formats text, json, markdown, lcov and html; --fail-under applies to the changed code" },
  [O_TEST] = { "test", 0, "NAME", "the coverage of one test's counts (PATHPROF_TEST=NAME runs) instead of the totals" },
  [O_STRICT] = { "strict", 0, NULL, "units without tables (a deleted test program) are an error: exit 1 and write no "
                                    "report to -o (without it they are left out with a warning)" },
  [O_FAIL] = { "fail-under", 0, "N", "exit with status 3 when line coverage is below N percent" },
  [O_FAIL_LINE] = { "fail-under-line", 0, "N", "the same as --fail-under" },
  [O_FAIL_BRANCH] = { "fail-under-branch", 0, "N", "exit with status 3 when branch coverage (outcomes of "
                                                   "decisions taken) is below N percent" },
  [O_FAIL_PATH] = { "fail-under-path", 0, "N", "exit with status 3 when path coverage (executed of static paths, "
                                               "path-mode functions) is below N percent" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_coverage = {
  "coverage", "[--format FORMAT] [--no-code=gcov|count] [-o FILE|DIR] [--root DIR] [--strict] [--diff BASE] [--test NAME] [--mcdc[=masking|unique-cause]] [--prime-paths[=LIMIT]] [--fail-under[-line|-branch|-path] N]... [PROFILE]",
  "line, branch, block, edge and path coverage in nine formats",
  "Coverage derived exactly from the path counts, with no extra instrumentation: per function calls, block, "
  "edge and branch coverage, line counts by gcov's rules and path coverage (executed of static paths). Units built but never run "
  "(their tables beside the others', under $PATHPROF_DB or under --root) are reported at 0%; lines, branches "
  "and paths marked with LCOV_EXCL_* or GCOVR_EXCL_* are counted apart as excluded.\n\n"
  "Formats: text, a summary per file and function; json, doc/coverage-json.md; lcov, a tracefile for genhtml; "
  "cobertura, Cobertura XML (GitLab, Codecov, Jenkins); gcov, annotated source; html, a self-contained report "
  "in -o DIR; sonarqube, SonarQube's generic coverage XML (sonar.coverageReportPaths); coveralls, a Coveralls "
  "job (POST to /api/v1/jobs); markdown, a summary table for a pull-request comment.\n\n"
  "Exit status: 0; 1 when a file cannot be read or written, or with --strict when tables are missing; 2 on a usage error; 3 when "
  "a --fail-under threshold is not met (the report is written all the same).",
  coverage_opts, run_coverage,
};

typedef void (*Writer)(FILE *o, const PPCoverage *c, const char *profile);

static void lcov(FILE *o, const PPCoverage *c, const char *profile) { (void)profile; pp_format_lcov(o, c); }
static void cobertura(FILE *o, const PPCoverage *c, const char *profile) { (void)profile; pp_format_cobertura(o, c); }

static const struct { const char *name; Writer write; } formats[] = {
  { "text", pp_format_text }, { "json", pp_format_json }, { "lcov", lcov }, { "cobertura", cobertura },
  { "gcov", pp_format_gcov }, { "html", NULL }, { "sonarqube", pp_format_sonarqube },
  { "coveralls", pp_format_coveralls }, { "markdown", pp_format_markdown }, { NULL, NULL },
};

/* --diff's writers, by index in formats[] (NULL: the format has none). */
typedef void (*DiffWriter)(FILE *o, const PPCoverage *c, const PPDiff *d, const char *profile);
static void diff_lcov(FILE *o, const PPCoverage *c, const PPDiff *d, const char *profile) { (void)profile; pp_diff_lcov(o, c, d); }
static const DiffWriter diff_writers[] = { pp_diff_text, pp_diff_json, diff_lcov, NULL, NULL, NULL, NULL, NULL, pp_diff_markdown, NULL };

typedef struct {
  int format;                /* index in formats[] */
  int mcdc;                  /* --mcdc: a PPMcdcDef, or -1 */
  size_t prime;              /* --prime-paths: the enumeration limit, or 0 */
  const char *out, *file, *diff, *test, *root;
  bool strict;               /* --strict: units without tables fail the command */
  double fail[3];            /* line, branch, path thresholds in percent; < 0 when not given */
  bool gcov_nocode;          /* --no-code=gcov: lines without code have no count */
} CovOpts;

/* A percentage option's value: a number from 0 to 100. */
static int percent(const char *opt, const char *v, double *out) {
  char *end;
  double x = strtod(v, &end);
  if (!*v || *end || !(x >= 0 && x <= 100)) return pp_cli_bad_value(&pp_command_coverage, opt, "a percentage from 0 to 100", v);
  *out = x;
  return 0;
}

/* Parses the command line into o; returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, CovOpts *o) {
  const char *format = "text", *arg;
  PPCli cli;
  int r, n;
  memset(o, 0, sizeof *o);
  o->fail[0] = o->fail[1] = o->fail[2] = -1;
  o->mcdc = -1;
  pp_cli_begin(&cli, &pp_command_coverage, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) return pp_cli_status(&cli, r);
    if (r == O_FORMAT) format = arg;
    else if (r == O_OUTPUT) o->out = arg;
    else if (r == O_MCDC) {
      if (!arg || !strcmp(arg, "masking")) o->mcdc = PP_MCDC_MASKING;
      else if (!strcmp(arg, "unique-cause")) o->mcdc = PP_MCDC_UNIQUE;
      else { fprintf(stderr, "pathprof coverage: --mcdc is unique-cause or masking, not '%s'\n", arg); return pp_cli_status(&cli, PP_CLI_BAD); }
    }
    else if (r == O_PRIME) {
      unsigned long long n = 100000;
      if (arg && pp_cli_count(&pp_command_coverage, "--prime-paths", arg, 1ULL << 30, &n)) return pp_cli_status(&cli, PP_CLI_BAD);
      o->prime = (size_t)n;
    }
    else if (r == O_NOCODE) {
      if (strcmp(arg, "gcov") && strcmp(arg, "count")) {
        fprintf(stderr, "pathprof coverage: --no-code is gcov or count, not '%s'\n", arg);
        return pp_cli_status(&cli, PP_CLI_BAD);
      }
      o->gcov_nocode = arg[0] == 'g';
    }
    else if (r == O_DIFF) o->diff = arg;
    else if (r == O_TEST) o->test = arg;
    else if (r == O_STRICT) o->strict = true;
    else if (r == O_ROOT) {
      o->root = arg;
      if (pp_report_root_set(arg)) { fprintf(stderr, "pathprof coverage: --root %s: no such directory\n", arg); return pp_cli_status(&cli, PP_CLI_BAD); }
    }
    else {
      int which = r == O_FAIL_BRANCH ? 1 : r == O_FAIL_PATH ? 2 : 0;
      char name[40];
      snprintf(name, sizeof name, "--%s", coverage_opts[r].name);
      if (percent(name, arg, &o->fail[which])) return pp_cli_status(&cli, PP_CLI_BAD);
    }
  }
  char **ops = pp_cli_operands(&cli, &n);
  if (n > 1) { fprintf(stderr, "pathprof coverage: one profile at a time (merge them first: pathprof merge)\n"); return 2; }
  o->file = pp_profile_name(n ? ops[0] : NULL);
  o->format = -1;
  for (int i = 0; formats[i].name; i++)
    if (!strcmp(format, formats[i].name)) o->format = i;
  if (o->format < 0) {
    fprintf(stderr, "pathprof coverage: unknown format '%s' (text, json, lcov, cobertura, gcov, html, sonarqube, coveralls, "
                    "markdown)\n", format);
    return 2;
  }
  if (o->mcdc >= 0 && o->diff) {
    fprintf(stderr, "pathprof coverage: --mcdc and --diff go one at a time\n");
    return 2;
  }
  if (o->mcdc >= 0 && strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "lcov") && strcmp(format, "gcov") &&
      strcmp(format, "cobertura") && strcmp(format, "sonarqube") && strcmp(format, "html") && strcmp(format, "markdown")) {
    fprintf(stderr, "pathprof coverage: --mcdc writes text, json, lcov or gcov, or names the definition cobertura, "
                    "sonarqube, markdown and html carry\n");
    return 2;
  }
  if (o->prime && (o->mcdc >= 0 || o->diff || (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "html")))) {
    fprintf(stderr, "pathprof coverage: --prime-paths writes text, json or html, without --mcdc or --diff\n");
    return 2;
  }
  if (o->diff && !diff_writers[o->format] && formats[o->format].write) {
    fprintf(stderr, "pathprof coverage: --diff writes text, json, markdown, lcov or html, not %s\n", format);
    return 2;
  }
  if (!formats[o->format].write && (!o->out || !strcmp(o->out, "-"))) {
    fprintf(stderr, "pathprof coverage: --format html writes a directory: name it with -o DIR\n");
    return 2;
  }
  return -1;
}

/* What a report holds: the coverage, and with --mcdc its MC/DC, with --diff the change. */
typedef struct {
  const CovOpts *o;
  const PPCoverage *c;
  const PPMcdc *m;
  const PPDiff *d;
  const PPPrimes *p;
} Report;

/* Whether --mcdc replaces the report by the MC/DC document (else the report carries MC/DC). */
static bool mcdc_document(const CovOpts *o) {
  const char *fmt = formats[o->format].name;
  return o->mcdc >= 0 && (!strcmp(fmt, "text") || !strcmp(fmt, "json") || !strcmp(fmt, "lcov") || !strcmp(fmt, "gcov"));
}

/* Whether the report is --diff's lcov tracefile, which carries MC/DC as the plain one does. */
static bool diff_lcov_format(const CovOpts *o) {
  return o->diff && !strcmp(formats[o->format].name, "lcov");
}

static void emit(FILE *f, const Report *r) {
  const char *fmt = formats[r->o->format].name;
  if (r->d) diff_writers[r->o->format](f, r->c, r->d, r->o->file);
  else if (r->p && !strcmp(fmt, "json")) pp_prime_json(f, r->c, r->p, r->o->file);
  else if (r->p) pp_prime_text(f, r->c, r->p, r->o->file);
  else if (!mcdc_document(r->o)) formats[r->o->format].write(f, r->c, r->o->file);
  else if (!strcmp(fmt, "text")) pp_mcdc_text(f, r->c, r->m, r->o->file);
  else if (!strcmp(fmt, "json")) pp_mcdc_json(f, r->c, r->m, r->o->file);
  else if (!strcmp(fmt, "lcov")) pp_mcdc_lcov(f, r->c, r->m);
  else pp_mcdc_gcov(f, r->c, r->m);
}

/* Writes the report to standard output or, safely, to o->out (aside, then renamed); a refused
   report (refused says why: tables missing under --strict, no decisions to show) would replace
   a complete one, so it is not written there. Returns 0 or 1. */
static int write_report(const Report *r, const char *refused) {
  const CovOpts *o = r->o;
  if (!o->out || !strcmp(o->out, "-")) {
    emit(stdout, r);
    return fflush(stdout) ? 1 : 0;
  }
  if (refused) {
    fprintf(stderr, "pathprof coverage: %s not written (%s)\n", o->out, refused);
    return 1;
  }
  /* a regular file is written aside and renamed, so a reader never sees half of it; a device or
     pipe (-o /dev/null with --fail-under, -o /dev/stdout) is written straight through: renamed
     over, /dev/null would become a regular file */
  bool stream = pp_is_stream(o->out);
  char *tmp = stream ? NULL : pp_xasprintf("%s.tmp.%ld", o->out, (long)getpid());
  FILE *f = fopen(stream ? o->out : tmp, "w");
  int rc = 0;
  if (!f) {
    fprintf(stderr, "pathprof coverage: cannot write %s: %s\n", o->out, strerror(errno));
    free(tmp);
    return 1;
  }
  emit(f, r);
  int bad = fflush(f) != 0 || ferror(f);
  if (fclose(f) || bad || (tmp && rename(tmp, o->out))) {
    fprintf(stderr, "pathprof coverage: cannot write %s: %s\n", o->out, strerror(errno));
    if (tmp) remove(tmp);
    rc = 1;
  }
  free(tmp);
  return rc;
}

/* The --fail-under checks on hit/total of lines, branches and paths; nothing to cover passes.
   Returns 3 when one fails (one line on stderr each), else 0. */
int pp_coverage_thresholds(const double fail[3], const uint64_t hit[3], const uint64_t total[3], const char *what) {
  static const char *const kinds[3] = { "line", "branch", "path" };
  int rc = 0;
  for (int k = 0; k < 3; k++) {
    if (fail[k] < 0 || !total[k]) continue;
    double pct = 100.0 * (double)hit[k] / (double)total[k];
    if (pct + 1e-9 >= fail[k]) continue;
    fprintf(stderr, "pathprof coverage: %s coverage of %s is %.2f%% (%" PRIu64 "/%" PRIu64 "), under --fail-under-%s=%g\n",
            kinds[k], what, pct, hit[k], total[k], kinds[k], fail[k]);
    rc = 3;
  }
  return rc;
}

/* Path ends a unit's hash table had no room for (a freestanding target, or an explicit pathcc
   --hash-cap): every format's counts of that unit's hash-mode functions are low, which one
   line per unit on stderr says, naming them. */
static void warn_dropped(const PPLoaded *l) {
  for (size_t i = 0; i < l->units.n; i++) {
    const PPTables *t = &l->units.v[i].tab;
    size_t n = 0;
    if (!l->units.v[i].rec->dropped) continue;
    fprintf(stderr, "pathprof coverage: !! %s: %llu path ends were not counted: the hash table (%lu entries) was full; "
            "the counts of", t->source, l->units.v[i].rec->dropped, t->hash_cap);
    for (size_t k = 0; k < t->funcs.n; k++)
      if (t->funcs.v[k].hash) fprintf(stderr, "%s %s", n++ ? "," : "", t->funcs.v[k].name);
    fprintf(stderr, "%s are low; rebuild with a larger pathcc --hash-cap\n", n ? "" : " its residual paths");
  }
}

static int run_coverage(int argc, char **argv) {
  CovOpts o;
  int rc = parse(argc, argv, &o);
  if (rc >= 0) return rc;
  PPLoaded l;
  if (pp_load_test(o.file, o.test, &l)) return 1;
  pp_load_unrun(&l, o.root);
  /* units whose tables are gone (a deleted test program): named above; an error only with
     --strict, which then writes no report to -o */
  const char *refused = o.strict && l.missing ? "tables missing" : NULL;
  if (l.missing && !o.strict)
    fprintf(stderr, "pathprof coverage: %d unit%s of %s left out (no tables; --strict makes this an error)\n", l.missing,
            l.missing > 1 ? "s" : "", o.file);
  PPCoverage c;
  pp_coverage_build(&l, &c, o.gcov_nocode);
  PPMcdc m;
  PPDiff d;
  PPPrimes primes;
  Report rep = { &o, &c, NULL, NULL, NULL };
  if (o.diff && pp_diff_build(o.diff, &c, &d)) {
    pp_coverage_free(&c);
    pp_loaded_free(&l);
    return 1;
  }
  if (o.diff) rep.d = &d;
  if (mcdc_document(&o)) {
    pp_mcdc_build(&c, (PPMcdcDef)o.mcdc, &m);
    pp_mcdc_explain(&c, &m);
    if ((m.no_decisions.n || m.edge_mode.n) && !m.decs.n && !refused) refused = "no decisions to show";  /* nothing: fail */
    rep.m = &m;
    if (o.diff) c.mcdc = &m;  /* the --diff tracefile's MC/DC records (text and JSON count their own) */
  } else if ((!o.diff || diff_lcov_format(&o)) && (o.mcdc >= 0 || pp_mcdc_possible(&c))) {  /* where the format has room */
    pp_mcdc_build(&c, o.mcdc >= 0 ? (PPMcdcDef)o.mcdc : PP_MCDC_MASKING, &m);
    if (o.mcdc >= 0) pp_mcdc_explain(&c, &m);
    c.mcdc = &m;
    rep.m = &m;
  }
  if (o.prime) {
    pp_primes_build(&c, o.prime, &primes);
    c.primes = &primes;
    rep.p = &primes;
  }
  warn_dropped(&l);
  if (formats[o.format].write) rc = write_report(&rep, refused);
  else if (refused) rc = 1, fprintf(stderr, "pathprof coverage: %s not written (%s)\n", o.out, refused);
  else rc = pp_html_write(&c, o.file, o.out, o.diff ? &d : NULL) ? 1 : 0;
  if (rep.m) pp_mcdc_free(&m);
  if (rep.p) pp_primes_free(&primes);
  if (refused) rc = 1;
  for (size_t i = 0; i < c.funcs.n; i++)
    if (c.funcs.v[i].bad_ids)
      fprintf(stderr, "pathprof coverage: %s: %" PRIu64 " path ends of %s have ids outside its paths and were left out\n",
              o.file, c.funcs.v[i].bad_ids, c.funcs.v[i].f->name);
  PPCovSum s = {0};
  if (o.diff) s = d.sum;
  else
    for (size_t i = 0; i < c.files.n; i++) pp_coverage_sum_file(&c, &c.files.v[i], &s);
  uint64_t hit[3] = { s.lines_hit, s.br_hit, s.paths_hit }, total[3] = { s.lines, s.br, s.paths };
  int th = pp_coverage_thresholds(o.fail, hit, total, o.diff ? "the changed code" : "the program");
  if (!rc) rc = th;
  if (o.diff) pp_diff_free(&d);
  pp_coverage_free(&c);
  pp_loaded_free(&l);
  return rc;
}
