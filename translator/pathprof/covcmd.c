/* pathprof coverage: loads a profile, derives the coverage and writes it in the chosen format. */
#include "commands.h"
#include "formats/formats.h"
#include "formats/mcdcfmt.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pp_cmd_coverage(int argc, char **argv) {
  const char *format = "text", *out = NULL, *file = NULL;
  int mcdc = -1;  /* --mcdc[=unique-cause|masking]: the MC/DC report instead */
  bool gcov_nocode = false;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--no-code=gcov") || !strcmp(argv[i], "--no-code=count")) gcov_nocode = argv[i][10] == 'g';
    else if (!strcmp(argv[i], "--mcdc") || !strcmp(argv[i], "--mcdc=masking")) mcdc = PP_MCDC_MASKING;
    else if (!strcmp(argv[i], "--mcdc=unique-cause")) mcdc = PP_MCDC_UNIQUE;
    else if (!strncmp(argv[i], "--mcdc=", 7)) { fprintf(stderr, "pathprof coverage: --mcdc is unique-cause or masking, not '%s'\n", argv[i] + 7); return 2; }
    else if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "-o")) {
      if (i + 1 >= argc) { fprintf(stderr, "pathprof coverage: %s needs a value\n", argv[i]); return 2; }
      if (argv[i][1] == 'o') out = argv[++i]; else format = argv[++i];
    } else if (!strncmp(argv[i], "--format=", 9)) format = argv[i] + 9;
    else if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "pathprof coverage: unknown option %s\n", argv[i]); return 2; }
    else if (file) { fprintf(stderr, "pathprof coverage: one profile at a time (merge them first: pathprof merge)\n"); return 2; }
    else file = argv[i];
  }
  static const char *const formats[] = { "text", "json", "lcov", "cobertura", "gcov", "html", 0 };
  int fmt = -1;
  for (int i = 0; formats[i]; i++)
    if (!strcmp(format, formats[i])) fmt = i;
  if (fmt < 0) { fprintf(stderr, "pathprof coverage: unknown format '%s' (text, json, lcov, cobertura, gcov, html)\n", format); return 2; }
  if (mcdc >= 0 && (fmt == 3 || fmt == 5)) { fprintf(stderr, "pathprof coverage: --mcdc writes text, json, lcov or gcov\n"); return 2; }
  if (fmt == 5 && (!out || !strcmp(out, "-"))) { fprintf(stderr, "pathprof coverage: --format html writes a directory: name it with -o DIR\n"); return 2; }
  file = pp_profile_name(file);
  PPLoaded l;
  if (pp_load(file, &l)) return 1;
  PPCoverage c;
  pp_coverage_build_lines(&l, &c, gcov_nocode);
  if (fmt == 5) {
    int rc = pp_html_write(&c, file, out) || l.missing ? 1 : 0;
    pp_coverage_free(&c);
    pp_loaded_free(&l);
    return rc;
  }
  FILE *o = stdout;
  char *tmp = NULL;
  if (out && strcmp(out, "-")) {
    tmp = pp_xasprintf("%s.tmp.%ld", out, (long)getpid());
    if (!(o = fopen(tmp, "w"))) {
      fprintf(stderr, "pathprof coverage: cannot write %s: %s\n", out, strerror(errno));
      free(tmp);
      pp_coverage_free(&c);
      pp_loaded_free(&l);
      return 1;
    }
  }
  PPMcdc m;
  if (mcdc >= 0) {
    pp_mcdc_build(&c, (PPMcdcDef)mcdc, &m);
    pp_mcdc_explain(&c, &m);
    if (fmt == 0) pp_mcdc_text(o, &c, &m, file);
    else if (fmt == 1) pp_mcdc_json(o, &c, &m, file);
    else if (fmt == 2) pp_mcdc_lcov(o, &c, &m);
    else pp_mcdc_gcov(o, &c, &m);
    if (m.no_decisions.n || m.edge_mode.n) l.missing += !m.decs.n;  /* nothing to show: fail */
    pp_mcdc_free(&m);
  } else switch (fmt) {
  case 0: pp_format_text(o, &c, file); break;
  case 1: pp_format_json(o, &c, file); break;
  case 2: pp_format_lcov(o, &c); break;
  case 3: pp_format_cobertura(o, &c); break;
  default: pp_format_gcov(o, &c, file); break;
  }
  int rc = l.missing ? 1 : 0;
  for (size_t i = 0; i < c.funcs.n; i++)
    if (c.funcs.v[i].bad_ids)
      fprintf(stderr, "pathprof coverage: %s: %" PRIu64 " path ends of %s have ids outside its paths and were left out\n", file,
              c.funcs.v[i].bad_ids, c.funcs.v[i].f->name);
  if (tmp && l.missing) {  /* a unit without tables: a partial report would replace the old one */
    fclose(o);
    remove(tmp);
    fprintf(stderr, "pathprof coverage: %s not written (tables missing)\n", out);
    free(tmp);
  } else if (tmp) {
    int bad = fflush(o) != 0 || ferror(o);
    if (fclose(o) || bad || rename(tmp, out)) {
      fprintf(stderr, "pathprof coverage: cannot write %s: %s\n", out, strerror(errno));
      remove(tmp);
      rc = 1;
    }
    free(tmp);
  } else fflush(stdout);
  pp_coverage_free(&c);
  pp_loaded_free(&l);
  return rc;
}
