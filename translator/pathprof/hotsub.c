/* OSP snapshot + tables -> the hottest subpaths with estimated counts and Chernoff error bounds, decoded to source lines (pathprof hot-subpaths). */
#include "commands.h"
#include "model/load.h"
#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One reported subpath. */
typedef struct {
  const struct pp_ospent *e;
  double estimate, bound;   /* estimated count; relative error bound */
} HotSub;

/* Subpaths whose count is known to within a factor of 2 (bound below 100%) first: a subpath
   sampled a few times gets a large estimate by chance now and then, and among thousands of
   rarely sampled long subpaths some always do. Within each group the largest estimate first,
   then the larger sample count, then the id (a stable order for equal ones). */
static int by_estimate(const void *a, const void *b) {
  const HotSub *x = a, *y = b;
  if ((x->bound < 1.0) != (y->bound < 1.0)) return x->bound < 1.0 ? -1 : 1;
  if (x->estimate != y->estimate) return x->estimate > y->estimate ? -1 : 1;
  if (x->e->count != y->e->count) return x->e->count > y->e->count ? -1 : 1;
  return x->e->id < y->e->id ? -1 : x->e->id > y->e->id;
}

/* log2 of a power of two. */
static unsigned log2_of(unsigned long len) {
  unsigned k = 0;
  while ((1UL << k) < len) k++;
  return k;
}

/* The estimate of an entry's count in the run: each occurrence of a subpath of length 2^n was
   sampled with probability P(2^n) / rate, so count / that probability. The relative bound eps
   solves 2 exp(-eps^2 c / 3) = 1 - confidence (two-sided multiplicative Chernoff bound with the
   sampled count c standing for its mean). */
static HotSub estimate(const struct pp_osph *o, const struct pp_ospent *e, double confidence) {
  unsigned n = log2_of(e->len);
  assert(n >= 1 && n <= o->maxlog && o->weight[n] > 0);
  HotSub h = { e, (double)e->count * (double)o->rate * 65536.0 / (double)o->weight[n],
               sqrt(3.0 * log(2.0 / (1.0 - confidence)) / (double)e->count) };
  return h;
}

/* The loaded unit with this checksum, or NULL. */
static const PPLoadedUnit *unit_of(const PPLoaded *l, unsigned long long checksum) {
  for (size_t i = 0; i < l->units.n; i++)
    if (l->units.v[i].rec->checksum == checksum) return &l->units.v[i];
  return NULL;
}

/* "work: 6 7 7 | main: 14-15": the blocks grouped by function, each block as its lines (a block
   without lines of its own, such as a join after a branch, as #its number). */
static char *subpath_lines(const PPLoaded *l, const struct pp_ospent *e) {
  PPStr s = {0};
  if (!e->blocks) return pp_xstrdup("(blocks not kept: sampled once)");
  for (unsigned long i = 0; i < e->len; i++) {
    const struct pp_ospblock *b = &e->blocks[i];
    const PPLoadedUnit *u = unit_of(l, b->unit);
    bool first = i == 0 || e->blocks[i - 1].unit != b->unit || e->blocks[i - 1].fn != b->fn;
    if (!u || b->fn >= u->tab.funcs.n) {
      pp_str_addf(&s, "%sunit %016llx fn %lu block %lu", i ? " | " : "", b->unit, b->fn, b->block);
      continue;
    }
    const PPTabFunc *f = &u->tab.funcs.v[b->fn];
    if (first) pp_str_addf(&s, "%s%s:", i ? " | " : "", f->name);
    pp_str_add(&s, " ");
    int blk = (int)b->block, last_file = f->file;
    size_t before = s.n;
    if (b->block < f->g.blocks.n) pp_blocks_lines(&s, &u->tab, f, &blk, 1, &last_file);
    else pp_str_addf(&s, "block %lu?", b->block);
    if (s.n == before) pp_str_addf(&s, "#%lu", b->block);  /* a block with no lines of its own */
  }
  return pp_str_take(&s);
}

/* The snapshot's parameters, so a reader can judge the figures below. */
static void print_header(const char *file, const struct pp_osph *o, unsigned long long samples, double confidence) {
  printf("OSP snapshot %s: %llu subpaths in the hot list from %llu samples; a block entry starts a sample "
         "with probability 1/%llu (%llu resamplings, %llu samples dropped)\n", file, o->nentries, samples, o->rate,
         o->resamples, o->dropped);
  printf("memory %llu of %llu bytes (peak %llu); subpath lengths:", o->used, o->memory, o->peak);
  for (unsigned long n = 1; n <= o->maxlog; n++) printf(" %lu %.4g%%", 1UL << n, 100.0 * (double)o->weight[n] / 65536.0);
  printf("\nestimate = sampled count x rate / P(length); bound: the estimate is within it with %g%% "
         "confidence (Chernoff)\n", 100.0 * confidence);
}

/* Prints the top subpaths, as a table or (raw) as machine-readable lines. */
static void print_top(const PPLoaded *l, const HotSub *h, size_t n, size_t top, bool raw) {
  if (!raw) printf("\n  %4s %14s %9s %8s %4s  %s\n", "rank", "estimate", "bound", "sampled", "len", "subpath (function: lines)");
  for (size_t i = 0; i < n && i < top; i++) {
    const struct pp_ospent *e = h[i].e;
    if (raw) {
      printf("S %zu %.0f %.0f %.0f %llu %lu ", i + 1, h[i].estimate, fmax(0.0, h[i].estimate * (1.0 - h[i].bound)),
             h[i].estimate * (1.0 + h[i].bound), e->count, e->len);
      for (unsigned long k = 0; e->blocks && k < e->len; k++)
        printf("%s%016llx:%lu:%lu", k ? "," : "", e->blocks[k].unit, e->blocks[k].fn, e->blocks[k].block);
      if (!e->blocks) printf("-");
      printf("\n");
      continue;
    }
    char *lines = subpath_lines(l, e);
    printf("  %4zu %14.0f %8.1f%% %8llu %4lu  %s\n", i + 1, h[i].estimate, 100.0 * h[i].bound, e->count, e->len, lines);
    free(lines);
  }
  if (!raw && n > top) printf("  ... %zu more subpaths in the hot list\n", n - top);
}

/* The snapshot file: the argument, else $PATHPROF_OSP_FILE (without %p), else pathprof.osp. */
static const char *snapshot_name(const char *arg) {
  if (arg) return arg;
  const char *e = getenv("PATHPROF_OSP_FILE");
  return e && *e && !strchr(e, '%') ? e : "pathprof.osp";
}

static int run_hot_subpaths(int argc, char **argv);

static const PPOpt hotsub_opts[] = {
  { "top", 0, "K", "list the K hottest subpaths (default 10)" },
  { "confidence", 0, "P", "the confidence of the error bounds, between 0 and 1 (default 0.95)" },
  { "min-sampled", 0, "N", "leave out subpaths sampled fewer than N times (default 2)" },
  { "raw", 0, 0, "machine-readable lines: S rank estimate low high sampled length checksum:fn:block,..." },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_hot_subpaths = {
  "hot-subpaths", "[--top K] [--confidence P] [--min-sampled N] [--raw] [SNAPSHOT]",
  "hottest subpaths of an osp snapshot, with error bounds",
  "The hottest subpaths of an online subpath profiling snapshot (pathcc --mode=osp), with estimated "
  "counts, two-sided relative error bounds and their source lines. SNAPSHOT defaults to "
  "$PATHPROF_OSP_FILE, else pathprof.osp.",
  hotsub_opts, run_hot_subpaths,
};

/* Reads one option's number into *out; returns 0, or 2 after an error line. */
static int option_value(const char *name, const char *v, double lo, double hi, double *out) {
  char *end;
  double x = strtod(v, &end);
  if (*end || !*v || !(x > lo && x < hi)) {
    char want[96];
    snprintf(want, sizeof want, "a number between %g and %g", lo, hi);
    return pp_cli_bad_value(&pp_command_hot_subpaths, name, want, v);
  }
  *out = x;
  return 0;
}

static int run_hot_subpaths(int argc, char **argv) {
  double top = 10, confidence = 0.95, min_sampled = 2;
  const char *file = NULL, *arg;
  bool raw = false;
  int r, nops;
  PPCli cli;
  pp_cli_begin(&cli, &pp_command_hot_subpaths, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    int bad = 0;
    if (r < 0) return pp_cli_status(&cli, r);
    if (r == 0) bad = option_value("--top", arg, 0, 1e9, &top);
    else if (r == 1) bad = option_value("--confidence", arg, 0, 1, &confidence);
    else if (r == 2) bad = option_value("--min-sampled", arg, 0, 1e18, &min_sampled);
    else raw = true;
    if (bad) return pp_cli_status(&cli, PP_CLI_BAD);
  }
  char **ops = pp_cli_operands(&cli, &nops);
  if (nops > 1) { fprintf(stderr, "pathprof hot-subpaths: one snapshot at a time\n"); return 2; }
  if (nops) file = ops[0];
  file = snapshot_name(file);
  PPLoaded l;
  if (pp_load(file, &l)) return 1;
  const struct pp_osph *o = l.prof.osp;
  if (!o) {
    fprintf(stderr, "pathprof: %s: no OSPH record: not a snapshot of an osp build (pathcc --mode=osp)\n", file);
    pp_loaded_free(&l);
    return 1;
  }
  HotSub *h = pp_xcalloc(o->nentries + 1, sizeof *h);
  unsigned long long samples = 0;
  size_t n = 0;
  for (unsigned long long i = 0; i < o->nentries; i++) {
    if ((double)o->entries[i].count >= min_sampled) h[n++] = estimate(o, &o->entries[i], confidence);
    samples += o->entries[i].count;
  }
  pp_sort(h, n, sizeof *h, by_estimate);
  if (raw)
    printf("# osp %s: rate %llu, %llu samples, %llu subpaths, confidence %g\n", file, o->rate, samples, o->nentries,
           confidence);
  else
    print_header(file, o, samples, confidence);
  print_top(&l, h, n, (size_t)top, raw);
  free(h);
  int rc = l.missing ? 1 : 0;
  pp_loaded_free(&l);
  return rc;
}
