/* One translation unit through the pipeline: parse, cfg, dag, number, place, rewrite, tables. */
#include "instrument.h"
#include "clangload.h"
#include "clangerr.h"
#include "clangview.h"
#include "cfg.h"
#include "dag.h"
#include "derive.h"
#include "execcalls.h"
#include "model/number.h"
#include "place.h"
#include "estimate.h"
#include "profweights.h"
#include "model/ppp.h"
#include "model/prime.h"
#include "rewrite.h"
#include "model/tables.h"
#include <assert.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char unit_struct[] =
#include "prelude.inc"
;

/* libclang sees the .i as C with GCC-only header types mapped to ones it knows; the defines
   shape only clang's view, the real compiler reads the original text (DESIGN.md pitfalls).
   [[attributes]] parse whatever -std the user gave (GCC takes them with -std=c2x): in clang's
   default C they are a syntax error that drops the function they mark without a word.
   -fspell-checking (libclang adds -fno-spell-checking otherwise): an undeclared name then
   leaves a recovery node where it stood (clangerr.c), not a hole where its whole statement was
   (GCC's __builtin_has_attribute (x, aligned)); it costs only units with such errors. */
static const char *clang_args[] = {
  "-x", "c", "-undef", "-ferror-limit=0", "-w", "-Wno-return-type", "-fdouble-square-bracket-attributes", "-fspell-checking",
  "-D_Decimal32=float", "-D_Decimal64=double", "-D_Decimal128=long double",
  "-D_Float32=float", "-D_Float32x=double", "-D_Float64=double", "-D_Float64x=long double",
  "-D_Float128=__float128", "-D__malloc__(...)=__malloc__",
};

typedef struct {
  const PPOptions *o;
  PPSource src;
  CXTranslationUnit tu;
  CXFile main_file;
  PPClangErrors errors;     /* libclang's error diagnostics */
  char *view;               /* the text libclang parsed when not the .i's own (clangview.c) */
  PPTables tab;
  VEC(PPFunc) funcs;
  PPEdits edits;
  PPProfWeights *weights;   /* --placement-profile's counts, or NULL */
  char *weights_err;        /* why they could not be read */
  uint64_t ppp_digest;      /* ppp: FNV-1a of every function's interesting set, for the checksum */
  VEC(char *) changed;      /* ppp: functions whose graph differs from the one SPEC numbers */
  VEC(unsigned) fk;         /* kpath: each planned function's k (--k=auto: picked per function) */
  VEC(double) calls;        /* edge mode: each planned function's estimated entries, for placement */
} Unit;

static bool uses_frames(const Unit *u);

/* Edge mode under --frames=calls: an activation that stops in a call is solved from counts of
   the returns of its block's calls (splits, tables.h PPSplit), as GCC's fake edges do, instead
   of kept in a frame. */
static bool splits_wanted(const Unit *u) { return u->o->mode == PP_MODE_EDGE && u->o->frames == PP_FRAMES_CALLS; }

/* Whether function f counts its stops by splits: a setjmp's function keeps its frame, which
   a longjmp comes back into, and every call needs a site number. */
static bool split_function(const Unit *u, const PPFunc *f) {
  return splits_wanted(u) && !f->calls_setjmp && !f->framed && f->calls.n + 1 < PP_SITE_LAST;
}

static void skip(Unit *u, CXCursor c, const char *why, bool quiet) {
  CXString n = clang_getCursorSpelling(c), fn;
  CXString efn;  /* the last line too: coverage marks the lines in between as not instrumented */
  unsigned line, col, end;
  clang_getPresumedLocation(clang_getCursorLocation(c), &fn, &line, &col);
  clang_getPresumedLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &efn, &end, &col);
  PPTabSkip s = { pp_xstrdup(clang_getCString(n)), pp_source_file(&u->src, clang_getCString(fn)), line, pp_xstrdup(why), quiet,
                  strcmp(clang_getCString(fn), clang_getCString(efn)) || end < line ? line : end };
  VEC_PUSH(u->tab.skipped, s);
  clang_disposeString(n);
  clang_disposeString(fn);
  clang_disposeString(efn);
}

/* k of a kpath-mode build (--k=auto: the most a function may pick), or 0 in path mode (--k=1 is
   path mode). */
static unsigned kpath_k(const PPOptions *o) {
  return o->mode != PP_MODE_KPATH ? 0 : o->k ? o->k : PP_K_MAX;
}

/* --k=auto: the k that holds every prime path of f's CFG (1 + the most back or cut edges one
   takes), so pathprof coverage --prime-paths decides them all; at least 2, at most PP_K_MAX; the
   default 4 when the function has too many simple paths to enumerate. */
#define AUTO_K_LIMIT 100000
static unsigned auto_k(const PPGraph *g) {
  int need = pp_prime_need_k(g, AUTO_K_LIMIT);
  return need < 0 ? 4 : need < 2 ? 2 : need > PP_K_MAX ? PP_K_MAX : (unsigned)need;
}

/* ppp mode: f's interesting paths get compact ids and count in slots when those fit the array
   limit and the register (PPP id above a Ball-Larus field); else every path end goes to the
   hash table. Either way the set is in the tables, for the reporter. */
static void plan_ppp(Unit *u, PPFunc *f, PPTabFunc *t) {
  bool changed;
  const PPIntFunc *in = pp_interesting_find(u->o->interesting, u->src.files.v[f->file], f->name, &f->g, &changed);
  if (changed) VEC_PUSH(u->changed, pp_xstrdup(f->name));
  int failed = pp_ppp_number(&f->g, in ? in->ids.v : NULL, in ? in->ids.n : 0, &t->num);
  int k = pp_ppp_bits(f->g.npaths);
  uint64_t s = t->num.slots;
  t->ppp = true;
  t->ppp_bits = k;
  if (f->g.npaths <= u->o->ppp_keep_array && f->g.npaths <= u->o->array_limit) {
    /* path mode's array, by Ball-Larus id: cheaper at a path end; the reporter tells the
       residual paths from the set */
    pp_place_probes(&f->g);
    t->offset = u->tab.ncounters;
    u->tab.ncounters += f->g.npaths + 1;
  } else if ((t->ppp_array = !failed && s && s <= u->o->array_limit && k < 62 && s <= (1ULL << (62 - k)))) {
    pp_ppp_place(&f->g, &t->num, k);
    t->offset = u->tab.ncounters;
    u->tab.ncounters += s;
  } else {
    t->hash = true;
    pp_place_probes(&f->g);
  }
  u->ppp_digest = pp_fnv1a(u->ppp_digest, f->name, strlen(f->name) + 1);
  u->ppp_digest = pp_fnv1a(u->ppp_digest, t->num.bl, sizeof(uint64_t) * t->num.n);
  u->ppp_digest = pp_fnv1a(u->ppp_digest, &t->num.n, sizeof t->num.n);
}

/* Where GCC ends the block a stop at call `from` (or, from < 0, before any call of block b) is
   in: at the first call from there on that may not return (gcov's counts run up to it), or at
   the end of block b (0). */
static PPStop segment_end(const PPFunc *f, int b, int from) {
  PPStop s = { b, f->file, 0, from >= 0 && f->calls.v[from].builtin_setjmp };
  for (size_t k = from < 0 ? 0 : (size_t)from; k < f->calls.n; k++)
    if (f->calls.v[k].block == b && !f->calls.v[k].nosplit) {
      s.file = f->calls.v[k].file;
      s.line = f->calls.v[k].line;
      break;
    }
  return s;
}

/* The frames' sites for the tables: site 0 stops in the entry block before its first call,
   site k + 1 at call k; each counts its block's lines up to where GCC's block ends. */
static void stops(const PPFunc *f, PPTabFunc *t) {
  PPStop entry = segment_end(f, PP_ENTRY, -1);
  VEC_PUSH(t->stops, entry);
  for (size_t k = 0; k < f->calls.n && k + 1 < PP_SITE_LAST; k++) {
    PPStop s = segment_end(f, f->calls.v[k].block, (int)k);
    VEC_PUSH(t->stops, s);
  }
}

/* dag -> number -> place for one function; on success it joins the unit's tables. */
static void plan(Unit *u, PPFunc *f) {
  PPTabFunc t;
  const char *why;
  memset(&t, 0, sizeof t);
  if (pp_dag_build(&f->g, 1ULL << 62, &why) == 0 && pp_number_paths(&f->g) <= (1ULL << 62)) {
    double calls = 1;
    if (u->o->estimator == PP_EST_LOOP) pp_place_estimate(&f->g);
    else pp_estimate_wu_larus(&f->g);
    pp_profweights_apply(u->weights, f->name, f->line, &f->g, &calls);
    t.name = pp_xstrdup(f->name);
    t.file = f->file;
    t.line = f->line;
    t.end_line = f->end_line;
    t.name_line = f->name_line;
    t.src_hash = f->src_hash;
    t.entry_slot = -1;
    for (size_t i = 0; i < f->g.edges.n; i++) {
      const PPEdge *e = &f->g.edges.v[i];
      t.cfg_edges += !e->dead && e->kind <= EK_CUT;
    }
    if (u->o->mode == PP_MODE_EDGE) {
      VEC_PUSH(u->calls, calls);  /* placed once the unit's calls are marked (place_edges) */
    } else if (u->o->mode == PP_MODE_PPP) {
      plan_ppp(u, f, &t);
      t.wide = pp_rewrite_needs_wide(&f->g) || (t.ppp_array && (pp_ppp_table_size(&t.num) << t.ppp_bits) >= (1ULL << 31));
    } else {
      pp_place_probes(&f->g);
      t.kpath = kpath_k(u->o) != 0;
      t.hash = !t.kpath && (f->g.npaths > u->o->array_limit ||
                            (u->o->array_room && u->tab.ncounters + f->g.npaths + 1 > u->o->array_room));
      t.wide = pp_rewrite_needs_wide(&f->g);
      if (u->o->mode == PP_MODE_OSP) t.hash = false;  /* osp counts no paths: no counters */
      else if (!t.hash && !t.kpath) { t.offset = u->tab.ncounters; u->tab.ncounters += f->g.npaths + 1; }
    }
    stops(f, &t);
    VEC_PUSH(u->fk, !t.kpath ? 0 : u->o->k ? u->o->k : auto_k(&f->g));
    VEC_PUSH(u->tab.funcs, t);
    VEC_PUSH(u->funcs, *f);
    return;
  }
  PPTabSkip s = { pp_xstrdup(f->name), f->file, f->line, pp_xstrdup(why ? why : "too many paths even after cuts"), false,
                  f->end_line };
  VEC_PUSH(u->tab.skipped, s);
  pp_func_free(f);
}

/* Path mode on a hosted target (our runtime linked, constructors run) counts every function in
   the unit's array while the unit's array stays within PP_HOST_ARRAY_ROOM counters: an array
   the OS maps lazily (zero pages, each made real by the first count on it), whose untouched
   pages the exit never reads. Elsewhere, or with --array-limit given, the limit is as given
   (default 4096) and bigger functions count in the hash table. On hosted targets that table
   grows when it fills (rt/core/hash.c), unless --hash-cap was given or the counters live in a
   continuous file. */
void pp_hosted_counters(PPOptions *o, bool array_limit_given, bool hash_cap_given) {
  o->hash_grows = o->ctor && !hash_cap_given && !o->continuous;
  if (array_limit_given || !o->ctor || o->mode != PP_MODE_PATH || o->continuous) return;
  o->array_limit = PP_HOST_ARRAY_ROOM - 1;
  o->array_room = PP_HOST_ARRAY_ROOM;
}

/* The modes' names, as --mode= takes them and the tables and checksums record them. */
static const char *const mode_names[] = { "path", "edge", "kpath", "ppp", "osp" };

const char *pp_mode_name(PPMode m) {
  assert((size_t)m < sizeof mode_names / sizeof *mode_names);
  return mode_names[m];
}

int pp_mode_named(const char *name) {
  for (int m = 0; m < (int)(sizeof mode_names / sizeof *mode_names); m++)
    if (!strcmp(name, mode_names[m])) return m;
  return -1;
}

static bool glob_any(char **globs, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!fnmatch(globs[i], name, 0)) return true;
  return false;
}

/* Function selection by name globs (.pathcc or PATHCC_*_FUNCTIONS). */
static bool wanted(const PPOptions *o, CXCursor c) {
  CXString n = clang_getCursorSpelling(c);
  const char *name = clang_getCString(n);
  bool in = (!o->n_fn_include || glob_any(o->fn_include, o->n_fn_include, name)) &&
            !glob_any(o->fn_exclude, o->n_fn_exclude, name);
  clang_disposeString(n);
  return in;
}

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData d) {
  Unit *u = d;
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c)) return CXChildVisit_Continue;
  if (!u->o->system_headers && clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  if (!wanted(u->o, c)) { skip(u, c, "excluded by the function selection", true); return CXChildVisit_Continue; }
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned from, to;
  clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, &from);
  clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &to);
  const char *err = pp_clang_error_in(&u->errors, &u->src, c, from, to), *why;
  if (err) {
    char *msg = pp_xasprintf("libclang: %s", err);
    skip(u, c, msg, false);
    free(msg);
    return CXChildVisit_Continue;
  }
  PPFunc f;
  int rc = pp_cfg_build(&u->src, c, u->o->conditions, splits_wanted(u), &f, &why);
  if (rc) {
    skip(u, c, why, rc == -2);
    pp_func_free(&f);
    return CXChildVisit_Continue;
  }
  size_t before = u->funcs.n;
  plan(u, &f);
  if (u->funcs.n > before)  /* dump before exec; with our host runtime, the other ways out too,
                               and its crash handler out of sight */
    pp_exec_edits(c, &u->src, &u->edits, (u->o->host && uses_frames(u) ? PP_WRAP_ENDS : 0) |
                                           (u->o->host ? PP_WRAP_SIGNALS : 0));
  return CXChildVisit_Continue;
}

/* A C string literal for a path, with quotes and backslashes escaped. */
static char *c_string(const char *s) {
  PPStr b = {0};
  pp_str_add(&b, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') pp_str_add(&b, "\\");
    pp_str_addn(&b, s, 1);
  }
  pp_str_add(&b, "\"");
  return pp_str_take(&b);
}

/* ppp: per function whose code reads it, the register value each slot counts (holes hold a
   value no path end that indexes them can have), in the register's type. */
static void expect_tables(PPStr *s, const Unit *u, const bool *used, const char *ext) {
  for (size_t i = 0; i < u->funcs.n; i++) {
    const PPTabFunc *t = &u->tab.funcs.v[i];
    if (!used[i]) continue;
    uint64_t *e = pp_ppp_expect(&t->num, t->ppp_bits), n = pp_ppp_table_size(&t->num);
    pp_str_addf(s, "%sstatic const unsigned %s __pathprof_e%zu[%" PRIu64 "] = {", t->wide ? ext : "",
                t->wide ? "long long" : "long", i, n);
    for (uint64_t k = 0; k < n; k++) pp_str_addf(s, "%s%" PRIu64 "%s", k ? ", " : " ", e[k], t->wide ? "ULL" : "UL");
    pp_str_add(s, " };\n");
    free(e);
  }
}

/* The inline caches of the functions that have one, each slot at its dummy entry, and the two
   dummy entries (rewrite.h). */
static void caches(PPStr *s, const Unit *u, const bool *cache, const char *ext) {
  bool any = false;
  for (size_t i = 0; i < u->funcs.n; i++) {
    if (!cache[i]) continue;
    if (!any) pp_str_addf(s, "%sstatic unsigned long long __pathprof_z[6] = { 0, 1, 0, 0, 0, 0 };\n", ext);
    any = true;
    pp_str_addf(s, "%sstatic unsigned long long *__pathprof_k%zu[%u] = {", ext, i, PP_CACHE_SLOTS);
    for (unsigned k = 0; k < PP_CACHE_SLOTS; k++)
      pp_str_addf(s, "%s__pathprof_z + %u", k ? ", " : " ", pp_cache_dummy(k, u->tab.funcs.v[i].wide));
    pp_str_add(s, " };\n");
  }
}

/* Declares the unit's counters and descriptor; the text of struct __pathprof_unit comes
   from rt/core/unit.h at build time, so both sides share one definition. */
/* The 64-bit counter add of targets with 32-bit atomic adds only (Cortex-M3, RV32A): the low
   word first, then the carry into the high one, both relaxed; a reader between the two sees a
   count 2^32 short, never a count lost. Counters are little-endian there (pathcc checks). */
static const char aadd32[] =
  "typedef unsigned int __attribute__((__may_alias__)) __pathprof_w32;\n"
  "static __inline__ void __pathprof_aadd(unsigned long long *p, unsigned long long v) {\n"
  "  __pathprof_w32 *w = (__pathprof_w32 *)p;\n"
  "  unsigned int a = (unsigned int)v, old = __atomic_fetch_add(&w[0], a, 0);\n"
  "  unsigned int hi = (unsigned int)(v >> 32) + ((unsigned int)(old + a) < old);\n"
  "  if (hi) __atomic_fetch_add(&w[1], hi, 0);\n"
  "}\n";

/* Calls of the runtime through its register-keeping entry (rt/core/partial.c), below the red
   zone, in both assembler dialects (-masm=intel): the getter's, with the unit, the slot (in
   %rax) and the flag; a frame stack's growth, with the full stack's end (in %rax). */
#define KEEP_CALL(fn) "{mov " fn "@GOTPCREL(%%rip), %%rax|mov rax, QWORD PTR " fn "@GOTPCREL[rip]}\\n\\t" \
  "call __pathprof_keep_call@PLT\\n\\t"
static const char keep_base[] =
  "{lea -128(%%rsp), %%rsp|lea rsp, [rsp-128]}\\n\\t{push %%rdi|push rdi}\\n\\t{push %%rsi|push rsi}\\n\\t"
  "{push %%rdx|push rdx}\\n\\t{mov %%rax, %%rsi|mov rsi, rax}\\n\\t{lea %1, %%rdi|lea rdi, %1}\\n\\t"
  "{lea %2, %%rdx|lea rdx, %2}\\n\\t" KEEP_CALL("__pathprof_base") "{pop %%rdx|pop rdx}\\n\\t"
  "{pop %%rsi|pop rsi}\\n\\t{pop %%rdi|pop rdi}\\n\\t{lea 128(%%rsp), %%rsp|lea rsp, [rsp+128]}";
static const char keep_grow[] =
  "{lea -128(%%rsp), %%rsp|lea rsp, [rsp-128]}\\n\\t{push %%rdi|push rdi}\\n\\t{mov %%rax, %%rdi|mov rdi, rax}\\n\\t"
  KEEP_CALL("__pathprof_grow") "{pop %%rdi|pop rdi}\\n\\t{lea 128(%%rsp), %%rsp|lea rsp, [rsp+128]}";

/* The frames' helpers (doc/formats.md §1). __pathprof_new takes the thread's next frame; a
   function that keeps its frame from entry calls it there. A call's mark stores through
   __pathprof_at/__pathprof_atr: two marked calls in unsequenced operands (a call's arguments)
   would otherwise be two unsequenced stores to one object, undefined behaviour
   (-Wsequence-point); calls are indeterminately sequenced, and inlined at every -O. A lazy
   frame (PPLayout.lazy_frame) is linked by the activation's first marked call (__pathprof_atl,
   __pathprof_atrl; the link out of line: a mark is a test and a store, the link a call once per
   activation); an end unlinks it when linked, else points it at __pathprof_d, where the marks of
   calls that run after the end (in a return's expression, an exit(...)) go instead of linking
   a frame for an activation already counted. The registration is the entry's or the
   constructor's. */
static void frame_helpers(PPStr *s, const Unit *u, const char *ext) {
  const char *fn = *ext ? "static __inline__ __attribute__((__always_inline__, __unused__))" : "static";
  const char *unit = u->o->counter_bits == 32 ? "&__pathprof_u.base" : "&__pathprof_u";
  if (u->o->keep_calls && *ext)  /* the growth through the register-keeping entry, as the getter */
    pp_str_addf(s, "%s struct __pathprof_frame *__pathprof_grown(struct __pathprof_frame *e) {"
                " __asm__ __volatile__ (\"%s\" : \"+a\" (e) : : \"cc\", \"memory\"); return e; }\n", fn, keep_grow);
  pp_str_addf(s, "%s struct __pathprof_frame *__pathprof_new(void) {"
              " struct __pathprof_frame *e = ~__pathprof_sp->fs ? __pathprof_sp : __pathprof_grow%s(__pathprof_sp);"
              " __pathprof_sp = e + 1; e->unit = %s; e->r = 0; return e; }\n", fn,
              u->o->keep_calls && *ext ? "n" : "", unit);
  pp_str_addf(s, "%s void __pathprof_at(struct __pathprof_frame *e, unsigned long fs) { e->fs = fs; }\n", fn);
  pp_str_addf(s, "%s%s void __pathprof_atr(struct __pathprof_frame *e, unsigned long fs, unsigned long long r)"
              " { e->fs = fs; e->r = r; }\n", ext, fn);
  pp_str_add(s, "static struct __pathprof_frame __pathprof_d;\n");
  pp_str_addf(s, "%sstruct __pathprof_frame *__pathprof_link(void) { return __pathprof_new(); }\n",
              *ext ? "static __attribute__((__noinline__, __unused__)) " : "static ");
  pp_str_addf(s, "%s struct __pathprof_frame *__pathprof_push(struct __pathprof_frame **pe) {"
              " return *pe ? *pe : (*pe = __pathprof_link()); }\n", fn);
  pp_str_addf(s, "%s void __pathprof_atl(struct __pathprof_frame **pe, unsigned long fs) { __pathprof_push(pe)->fs = fs; }\n", fn);
  pp_str_addf(s, "%s%s void __pathprof_atrl(struct __pathprof_frame **pe, unsigned long fs, unsigned long long r)"
              " { struct __pathprof_frame *e = __pathprof_push(pe); e->fs = fs; e->r = r; }\n", ext, fn);
  pp_str_addf(s, "%s void __pathprof_pop(struct __pathprof_frame **pe) { if (*pe) __pathprof_sp = *pe; else *pe = &__pathprof_d; }\n", fn);
}

/* How a unit declares a thread-local of the host runtime: initial-exec in an executable (a
   %fs-relative access with no call), the compiler's default model in a shared object (with
   initial-exec, glibc would load only a few instrumented objects by dlopen). */
static const char *tls_decl(const Unit *u, const char *ext) {
  if (!*ext) return "_Thread_local ";
  return u->o->dynamic_tls ? "__thread " : "__thread __attribute__((tls_model(\"initial-exec\"))) ";
}

/* The attribute that puts an array of `bytes` bytes in .lbss where the options allow it (GCC on
   the x86-64 host) and it is big: x86-64 ELF linkers place .lbss after every .bss, so the
   pages a short run touches (the program's own .bss, the runtime's state, small units'
   counters) stay together, and a big array's pages, mapped lazily as zero pages, become real
   only where a path on them runs. Else nothing (plain .bss). */
static const char *big(const Unit *u, uint64_t bytes) {
  return u->o->lbss && bytes >= PP_LBSS_BYTES ? " __attribute__((__section__(\".lbss\")))" : "";
}

static char *prelude(const Unit *u, bool any_hash, const char *ext, const char *tls, const bool *used, int how, const bool *cache,
                     bool frames) {
  char *tables = c_string(u->o->tables_key ? u->o->tables_key : u->o->tables);
  unsigned long hcap = any_hash ? u->o->hash_cap : 0;
  PPStr s = {0};
  pp_str_add(&s, "# 1 \"<pathprof>\"\n");
  /* the prelude's macros: __PATHPROF_EXT -> ext, the others -> their attribute (GNU) or nothing */
  const char *const macros[] = { "__PATHPROF_EXT", "__PATHPROF_COLD", "__PATHPROF_NORETURN" };
  const char *const gnu_text[] = { ext, "__attribute__((__cold__))", "__attribute__((__noreturn__))" };
  for (const char *p = unit_struct; *p;) {
    const char *m = NULL;
    int which = -1;
    for (int i = 0; i < 3; i++) {
      const char *x = strstr(p, macros[i]);
      if (x && (!m || x < m)) { m = x; which = i; }
    }
    if (!m) { pp_str_add(&s, p); break; }
    pp_str_addn(&s, p, (size_t)(m - p));
    pp_str_add(&s, *ext ? gnu_text[which] : "");
    p = m + strlen(macros[which]);
  }
  if (frames)  /* the thread's stack of frames: per thread where our host runtime is linked */
    pp_str_addf(&s, "extern %sstruct __pathprof_frame *__pathprof_sp;\n", !u->o->host ? "" : tls_decl(u, ext));
  uint64_t n = u->tab.ncounters ? u->tab.ncounters : 1;
  if (how == PP_COUNT_ATOMIC_CARRY) pp_str_add(&s, aadd32);
  if (how == PP_COUNT_ATOMIC_MASKED) pp_str_add(&s, "void __pathprof_add_masked(unsigned long long *, unsigned long long);\n");
  if (kpath_k(u->o) && pp_kpath_atomic(how))
    pp_str_addf(&s, "%svoid __pathprof_kpath_id_atomic(struct __pathprof_ka *, unsigned long long);\n", ext);
  if (how == PP_COUNT_THREAD || (how == PP_COUNT_BASE_TESTED && any_hash))  /* as <sys/single_threaded.h> */
    pp_str_add(&s, "extern char " PP_ONE_THREAD ";\n");
  if (any_hash) pp_str_addf(&s, "%sstatic unsigned long long __pathprof_h[%lu]%s;\n", ext, 3 * hcap, big(u, 24 * (uint64_t)hcap));
  if (tls)  /* this thread's counter base, and 1 until a thread takes the unit's own array (set,
    so that it sits in .data with the descriptors, not alone on a page beside the counters) */
    pp_str_addf(&s, "%sstatic %s unsigned long long *__pathprof_t;\nstatic char __pathprof_o = 1;\n", ext, tls);
  expect_tables(&s, u, used, ext);
  if (u->o->progmem && *ext) {  /* AVR: the name in flash, not copied to RAM (the runtime reads it with lpm) */
    pp_str_addf(&s, "static const char __pathprof_n[] __attribute__((__progmem__)) = %s;\n", tables);
    free(tables);
    tables = pp_xstrdup("__pathprof_n");
  }
  caches(&s, u, cache, ext);
  /* the layout version, and PATHPROF_UNIT_GROWS (rt/core/unit.h) when the hash table may grow */
  char *base = pp_xasprintf("0, %s%d, 0x%016" PRIx64 "ULL, %s, %" PRIu64 "UL, %s, %luUL, %s, 0",
                            any_hash && u->o->hash_grows ? "0x100 | " : "", u->o->counter_bits == 32 ? 2 : 1, u->tab.checksum, tables, u->tab.ncounters,
                            u->o->counter_bits == 32 ? "0" : "__pathprof_c", hcap, any_hash ? "__pathprof_h" : "0");
  if (u->o->counter_bits == 32) {
    /* the unit does not compile where int is narrower than 32 bits (pathcc checks before) */
    pp_str_add(&s, "typedef char __pathprof_int_has_32_bits[(unsigned int)-1 >= 0xffffffffUL ? 1 : -1];\n");
    pp_str_addf(&s, "static unsigned int __pathprof_c[%" PRIu64 "]%s;\n", n, big(u, 4 * n));
    pp_str_addf(&s, "%sstatic struct __pathprof_unit_width __pathprof_u = { { %s }, 32UL, __pathprof_c };\n", ext, base);
  } else {
    pp_str_addf(&s, "%sstatic unsigned long long __pathprof_c[%" PRIu64 "]%s;\n", ext, n, big(u, 8 * n));
    pp_str_addf(&s, "%sstatic struct __pathprof_unit __pathprof_u = { %s };\n", ext, base);
  }
  free(base);
  if (tls && u->o->keep_calls && *ext)  /* as below, its first call per thread through asm that
    keeps every register but %rax, so that callers need not save theirs around it */
    pp_str_addf(&s, "%sstatic __attribute__((__const__, __noinline__, __unused__)) unsigned long long *__pathprof_g(void) "
                "{ void *t = __pathprof_t; if (__builtin_expect(t != 0, 1)) return t; t = &__pathprof_t; "
                "__asm__ __volatile__ (\"%s\" : \"+a\" (t) : \"m\" (__pathprof_u), \"m\" (__pathprof_o) : \"cc\", \"memory\"); "
                "return t; }\n", ext, keep_base);
  else if (tls)  /* the thread's base (64-bit counters only): const, so one activation's reads are one */
    pp_str_addf(&s, "%sstatic %sunsigned long long *__pathprof_g(void) { return __pathprof_t ? __pathprof_t : "
                "__pathprof_base(&__pathprof_u, &__pathprof_t, &__pathprof_o); }\n", ext,
                *ext ? "__attribute__((__const__, __noinline__, __unused__)) " : "");
  if (frames) frame_helpers(&s, u, ext);
  if (u->o->mode == PP_MODE_OSP)  /* the runtime's skip counter, per thread where the host runtime is linked */
    pp_str_addf(&s, "extern %sunsigned long __pathprof_osp_skip;\n", u->o->osp_tls && *ext ? tls_decl(u, ext) : "");
  free(tables);
  return pp_str_take(&s);
}

/* GCC and clang name "<built-in>" in the line markers of their -E output; their code may
   carry __extension__, which keeps long long quiet under -std=c89 -pedantic. */
static bool gnu_output(const PPSource *src) {
  size_t n = src->len < 4096 ? src->len : 4096;
  for (size_t i = 0; i + 12 <= n; i++)
    if (!memcmp(src->text + i, "\"<built-in>\"", 12)) return true;
  return false;
}

/* The checksum covers the input text and every option that changes the counters' meaning. */
static uint64_t checksum(const Unit *u) {
  char opts[160];
  snprintf(opts, sizeof opts, "pathprof-1 mode=%s trace=%d hash=%lu sys=%d cond=%d bits=%u",
           pp_mode_name(u->o->mode), u->o->trace, u->o->hash_cap,
           u->o->system_headers, u->o->conditions, u->o->counter_bits);
  if (kpath_k(u->o) && !u->o->k) snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " k=auto");
  else if (kpath_k(u->o)) snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " k=%u", kpath_k(u->o));
  uint64_t h = pp_prefix_map_hash(u->o->maps, PP_FNV_BASIS, u->src.text, u->src.len);
  h = pp_fnv1a(h, opts, strlen(opts));
  /* where each function counts (what --array-limit decided: two limits that give one layout
     give one checksum, so a hosted build and a --continuous one of a unit match) */
  for (size_t i = 0; i < u->tab.funcs.n; i++) {
    const PPTabFunc *t = &u->tab.funcs.v[i];
    uint64_t w[3] = { t->hash, t->ppp_array, t->offset };
    h = pp_fnv1a(h, w, sizeof w);
  }
  /* the placement too: edge mode's counters sit where it put them */
  for (size_t i = 0; i < u->funcs.n; i++)
    for (size_t k = 0; k < u->funcs.v[i].g.edges.n; k++) {
      const PPEdge *e = &u->funcs.v[i].g.edges.v[k];
      int64_t p[2] = { (int64_t)e->inc, e->slot };
      h = pp_fnv1a(h, p, sizeof p);
    }
  for (size_t i = 0; i < u->tab.funcs.n; i++) {  /* derived functions have no counters */
    unsigned char d = u->tab.funcs.v[i].derived;
    h = pp_fnv1a(h, &d, 1);
  }
  if (u->o->interesting) {  /* the interesting sets decide what each counter means */
    snprintf(opts, sizeof opts, " mode=ppp %016" PRIx64 " keep=%" PRIu64, u->ppp_digest, u->o->ppp_keep_array);
    h = pp_fnv1a(h, opts, strlen(opts));
  }
  return h;
}

static char *warning_line(const Unit *u) {
  size_t n = 0;
  for (size_t i = 0; i < u->tab.skipped.n; i++) n += !u->tab.skipped.v[i].quiet;
  if (u->weights_err) return pp_xasprintf("%s: %s; probes placed by the static estimate", u->o->source, u->weights_err);
  if (!n && !u->changed.n) return NULL;
  PPStr s = {0};
  if (n) pp_str_addf(&s, "%s: %zu function%s left uninstrumented:", u->o->source, n, n > 1 ? "s" : "");
  for (size_t i = 0, k = 0; i < u->tab.skipped.n; i++)
    if (!u->tab.skipped.v[i].quiet)
      pp_str_addf(&s, "%s %s (line %u): %s", k++ ? ";" : "", u->tab.skipped.v[i].name, u->tab.skipped.v[i].line,
                  u->tab.skipped.v[i].why);
  if (u->changed.n) pp_str_addf(&s, "%s%s: %zu function%s changed since %s, all %s paths count as residual:", n ? "; " : "",
                                u->o->source, u->changed.n, u->changed.n > 1 ? "s" : "", u->o->interesting->spec,
                                u->changed.n > 1 ? "their" : "its");
  for (size_t i = 0; i < u->changed.n; i++) pp_str_addf(&s, "%s %s", i ? "," : "", u->changed.v[i]);
  return pp_str_take(&s);
}

/* --update=auto: each thread counts through its own base (exact, no test per count) where our
   hosted runtime is linked and the compiler has thread-local storage, hash-mode path ends
   plainly while glibc says one thread runs (else atomically); kpath and continuous units keep
   thread mode (plain until a second thread starts), as do targets without thread-local storage
   where glibc says; the rest (32-bit counters, bare metal, other C libraries) plain. */
static int auto_counting(const Unit *u, bool gnu) {
  bool tested = gnu && u->o->libc_threads && u->o->atomic == PP_ATOMIC_64;
  if (u->o->counter_bits == 32) return PP_COUNT_PLAIN;
  if (u->o->ctor && (gnu || u->o->c11) && !u->o->continuous && !kpath_k(u->o))
    return tested ? PP_COUNT_BASE_TESTED : PP_COUNT_BASE;
  return tested ? PP_COUNT_THREAD : PP_COUNT_PLAIN;
}

/* The counting form the update policy gives with this compiler (doc/runtime.md, "Threads"): atomic is
   a relaxed GNU atomic add (of 64 bits, or 32 with a carry, or masked where the target has no
   atomic adds: PPOptions.atomic), else a C11 atomic, else (tcc has neither) the runtime's add
   (atomic where the runtime was built with atomics); prefer-atomic counts through the thread's
   base (GNU __thread or C11 _Thread_local), else atomic; auto is base mode too where our hosted
   runtime is linked (what auto_counting says). */
static int counting(const Unit *u, bool gnu, char **warning) {
  int want = u->o->update;
  if (want == PP_UPDATE_SINGLE) return PP_COUNT_PLAIN;
  if (want == PP_UPDATE_AUTO) return auto_counting(u, gnu);
  if (u->o->counter_bits == 32) {  /* saturating 32-bit counters have no atomic form */
    *warning = pp_xasprintf("%s: --update=%s: 32-bit counters are updated singly (counts may be lost "
                            "between threads)", u->o->source, want == PP_UPDATE_ATOMIC ? "atomic" : "prefer-atomic");
    return PP_COUNT_PLAIN;
  }
  /* bases live in malloc'd memory, so continuous builds count atomically in the mapping */
  if (want == PP_UPDATE_PREFER_ATOMIC && (gnu || u->o->c11) && !u->o->continuous) return PP_COUNT_BASE;
  if (gnu) return u->o->atomic == PP_ATOMIC_64 ? PP_COUNT_GNU_ATOMIC
                : u->o->atomic == PP_ATOMIC_32_CARRY ? PP_COUNT_ATOMIC_CARRY : PP_COUNT_ATOMIC_MASKED;
  if (u->o->c11) return PP_COUNT_C11_ATOMIC;
  return PP_COUNT_ATOMIC_MASKED;
}

/* Appends line to the unit's warning (lines joined by newlines). */
static void add_warning(PPResult *res, char *line) {
  if (!line) return;
  char *w = res->warning ? pp_xasprintf("%s\npathcc: warning: %s", res->warning, line) : line;
  if (res->warning) { free(res->warning); free(line); }
  res->warning = w;
}

/* Whether a constructor registers the unit: the target runs them (pathcc says), the compiler
   takes GNU attributes, and the unit is not continuous (whose hash table may only move before
   its first count, which a lazy registration guarantees even when other constructors run
   instrumented code first). osp units never register. */
static bool ctor_registers(const Unit *u, bool gnu) {
  return u->o->ctor && gnu && !u->o->continuous && u->o->mode != PP_MODE_OSP;
}

/* Whether hash-mode function f looks up its path ends in an inline cache first: not when its
   table may move (continuous mode), nor with C11 atomics or on targets without 64-bit atomic
   adds (the atomic forms need GNU atomics of 64 bits), nor in setjmp callers (whose locals a
   longjmp may leave stale). */
static bool cached(const Unit *u, const PPTabFunc *t, const PPFunc *f, int how, bool gnu) {
  if (!t->hash || t->ppp || u->o->continuous || f->calls_setjmp) return false;
  return how == PP_COUNT_PLAIN || (gnu && u->o->atomic == PP_ATOMIC_64 &&
                                   (how == PP_COUNT_GNU_ATOMIC || pp_count_base(how) || how == PP_COUNT_THREAD));
}


/* Whether activations keep frames, so that those that never finish leave partial paths: not in
   osp mode (no paths), and on the host only where the compiler can say __thread or
   _Thread_local (our runtime's chain is per thread). */
static bool uses_frames(const Unit *u) {
  return u->o->mode != PP_MODE_OSP && u->o->frames != PP_FRAMES_NONE && !u->o->no_tls &&
         (!u->o->host || gnu_output(&u->src) || u->o->c11);
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const PPFunc *const *)a)[0]->name, ((const PPFunc *const *)b)[0]->name);
}

/* The instrumented function of this unit a call names, or -1 (a pointer, another unit's). */
static int local_callee(const Unit *u, PPFunc **sorted, const PPCall *c) {
  if (!c->callee) return -1;
  PPFunc key, *kp = &key, **hit;
  key.name = c->callee;
  hit = bsearch(&kp, sorted, u->funcs.n, sizeof *sorted, by_name);
  return hit ? (int)(*hit - u->funcs.v) : -1;
}

/* Which calls the frames mark (--frames=calls): those an activation may stop in, a setjmp, a
   call through a pointer or to another unit's function (exit, abort, longjmp, a fatal signal,
   a cancellation point), or to a function of this unit that makes such a call (a fixpoint over
   the unit's call graph); not GCC's nothrow builtins. A function marks no call keeps no frame:
   what it runs ends with it, except by a fault (--frames=all marks every call). */
static void mark_calls(Unit *u) {
  size_t n = u->funcs.n;
  PPFunc **sorted = pp_xcalloc(n + 1, sizeof *sorted);
  bool *stops = pp_xcalloc(n + 1, sizeof(bool)), all = u->o->frames == PP_FRAMES_ALL, changed = true;
  for (size_t i = 0; i < n; i++) sorted[i] = &u->funcs.v[i];
  pp_sort(sorted, n, sizeof *sorted, by_name);
  while (changed) {
    changed = false;
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < u->funcs.v[i].calls.n; k++) {
        PPCall *c = &u->funcs.v[i].calls.v[k];
        int j = c->mark ? -1 : local_callee(u, sorted, c);
        if (c->mark || !(all || c->setjmp || (!c->quiet && (j < 0 || stops[j])))) continue;
        c->mark = true;  /* a setjmp stops nothing: its function keeps a frame for the longjmp */
        if (!c->setjmp && !stops[i]) stops[i] = changed = true;
      }
  }
  free(sorted);
  free(stops);
}

/* Whether function i keeps a frame: it marks a call, or --frames=all. */
static bool keeps_frame(const Unit *u, size_t i) {
  if (u->o->frames == PP_FRAMES_ALL) return true;
  if (split_function(u, &u->funcs.v[i])) return false;  /* its splits count what frames would keep */
  for (size_t k = 0; k < u->funcs.v[i].calls.n; k++)
    if (u->funcs.v[i].calls.v[k].mark) return true;
  return false;
}

/* Whether call c runs before the code edge e puts on its way out of c's block: code at a
   statement, or before a condition, goes before its text; an outcome's after it. */
static bool runs_before(const PPFunc *f, const PPCall *c, const PPEdge *e) {
  if (e->site < 0) return true;  /* no place for code: a tree edge */
  const PPSite *s = &f->sites.v[e->site];
  bool after = e->arm == ARM_TRUE || e->arm == ARM_FALSE || e->arm == ARM_POST;
  return c->end <= (after ? s->end : s->off);
}

static int by_split_site(const void *a, const void *b) {
  const PPSplit *x = a, *y = b;
  return x->slot != y->slot ? x->slot - y->slot : x->site - y->site;
}

/* The entry block's calls (the body's leading declarations) may stop, the first being c: the
   entries are counted before them, before the initializer c is in (f->entry_init); false when
   c is in none that takes code (a braced list). */
static bool entry_init(PPFunc *f, const PPCall *c) {
  for (size_t i = 0; i < f->inits.n; i++) {
    const PPSite *s = &f->sites.v[f->inits.v[i]];
    if (s->off <= c->off && c->end <= s->end) { f->entry_init = f->inits.v[i]; return true; }
  }
  return false;
}

/* Edge mode's splits of f (tables.h PPSplit): per block, its marked calls grouped by split
   site, in text order, each group named by its first call's stop site; the calls of the
   block's last statement form its last group when they run before every way out's code (a
   return's value or a call that never returns runs after it: a stop there counts as the way
   out taken, as before). The slot field holds the split site until placement. */
static bool group_splits(PPFunc *f, PPTabFunc *t) {
  const PPGraph *g = &f->g;
  for (size_t b = 0; b < g->blocks.n; b++) {
    size_t first = t->splits.n;
    bool last = false;
    int last_site = 0;
    for (size_t k = 0; k < f->calls.n; k++) {
      const PPCall *c = &f->calls.v[k];
      if (!c->mark || c->block != (int)b) continue;
      if (c->split < 0) {
        bool before = true;
        for (size_t i = 0; i < g->edges.n && before; i++)
          if (g->edges.v[i].src == (int)b && !g->edges.v[i].dead && g->edges.v[i].kind <= EK_CUT)
            before = runs_before(f, c, &g->edges.v[i]);
        if (before && !last) { last = true; last_site = (int)k + 1; }
        continue;
      }
      size_t j;
      for (j = first; j < t->splits.n && t->splits.v[j].slot != c->split; j++) {}
      if (j == t->splits.n) { PPSplit s = { (int)k + 1, c->split }; VEC_PUSH(t->splits, s); }
    }
    /* split sites are numbered in text order; groups by their site, each named by its first call */
    pp_sort(t->splits.v + first, t->splits.n - first, sizeof(PPSplit), by_split_site);
    if (last) { PPSplit s = { last_site, PP_SPLIT_LAST }; VEC_PUSH(t->splits, s); }
    if (b == PP_ENTRY && t->splits.n > first && !entry_init(f, &f->calls.v[t->splits.v[first].site - 1])) return false;
  }
  return true;
}

/* Edge mode: each function's chords and counters, once the calls that may stop are known. */
static void place_edges(Unit *u) {
  for (size_t i = 0; i < u->funcs.n; i++) {
    PPFunc *f = &u->funcs.v[i];
    PPTabFunc *t = &u->tab.funcs.v[i];
    f->framed = split_function(u, f) && !group_splits(f, t);
    t->counters = f->framed ? -1 : pp_place_edges(&f->g, u->calls.v[i], t->stops.v, t->splits.v, t->splits.n, &t->entry_slot);
    if (t->counters < 0) {  /* splits that cannot be solved: the function keeps frames */
      f->framed = true;
      f->entry_init = -1;
      VEC_FREE(t->splits);
      t->counters = pp_place_edges(&f->g, u->calls.v[i], t->stops.v, NULL, 0, &t->entry_slot);
    }
    t->offset = u->tab.ncounters;
    u->tab.ncounters += (uint64_t)t->counters;
  }
}

static void rewrite_all(Unit *u, PPResult *res) {
  bool any_hash = false, gnu = gnu_output(&u->src), *used = pp_xcalloc(u->funcs.n, sizeof(bool));
  bool *cache = pp_xcalloc(u->funcs.n, sizeof(bool));
  bool frames = uses_frames(u);
  const char *ext = gnu ? "__extension__ " : "";
  char *why = NULL;
  int how = counting(u, gnu, &why);
  add_warning(res, why);
  for (size_t i = 0; i < u->funcs.n; i++) {
    PPTabFunc *t = &u->tab.funcs.v[i];
    PPGraph *g = &u->funcs.v[i].g;
    if (t->derived) continue;  /* compiled as written: its callers' paths count it */
    bool *probe = pp_xcalloc(g->edges.n + 1, sizeof(bool));
    uint64_t *expect = t->ppp_array ? pp_ppp_expect(&t->num, t->ppp_bits) : NULL;
    PPLayout lay = { (int)i, t->hash, t->offset, t->wide, u->o->trace, u->o->counter_bits, u->o->mode == PP_MODE_OSP, ext, how,
                     u->o->continuous, u->o->mode == PP_MODE_EDGE, t->entry_slot, probe, u->fk.v[i], t->ppp_array,
                     t->num.slots, t->ppp_bits, pp_ppp_table_size(&t->num), expect, &used[i],
                     /* promoted loops settle into 64-bit array counters (path mode's, ppp's slots,
                        edge mode's chords or kept arrays), and not under continuous mode, which
                        promises that even SIGKILL loses no count */
                     (u->o->mode == PP_MODE_PATH || u->o->mode == PP_MODE_PPP || u->o->mode == PP_MODE_EDGE) && !t->hash &&
                         u->o->counter_bits == 64 && !u->o->continuous,
                     u->o->fallthrough_attr ? "__attribute__((__fallthrough__)); " : "/* fallthrough */ ",
                     ctor_registers(u, gnu), cache[i] = cached(u, t, &u->funcs.v[i], how, gnu),
                     frames && keeps_frame(u, i),
                     /* --frames=all promises a frame to a fault in the function's own code; a
                        setjmp's function keeps the frame its longjmp comes back to */
                     u->o->frames != PP_FRAMES_ALL && !u->funcs.v[i].calls_setjmp, t->splits.v, t->splits.n };
    bool *zero = pp_place_zero(g);
    t->probes = pp_rewrite_function(&u->edits, &u->funcs.v[i], &lay, zero);
    for (size_t k = 0; k < g->edges.n; k++) g->edges.v[k].probe = probe[k];
    free(zero);
    free(probe);
    free(expect);
    any_hash |= t->hash || t->ppp;  /* ppp: any function may meet a residual path */
  }
  char *pre = prelude(u, any_hash, ext, pp_count_base(how) ? (gnu ? "__thread" : "_Thread_local") : NULL, used, how, cache,
                      frames);
  free(cache);
  if (ctor_registers(u, gnu)) {  /* after the descriptor it names */
    char *with = pp_xasprintf("%sstatic void __pathprof_init(void) __attribute__((__constructor__));\n"
                              "static void __pathprof_init(void) { __pathprof_register(&__pathprof_u%s); }\n",
                              pre, u->o->counter_bits == 32 ? ".base" : "");
    free(pre);
    pre = with;
  }
  free(used);
  res->out = pp_rewrite_apply(u->src.text, u->src.len, &u->edits, pre, &res->outlen);
  free(pre);
}

static void unit_free(Unit *u) {
  pp_clang_errors_free(&u->errors);
  for (size_t i = 0; i < u->funcs.n; i++) {
    memset(&u->tab.funcs.v[i].g, 0, sizeof(PPGraph));  /* a view of the function's own graph */
    pp_func_free(&u->funcs.v[i]);
  }
  VEC_FREE(u->funcs);
  for (size_t i = 0; i < u->changed.n; i++) free(u->changed.v[i]);
  VEC_FREE(u->changed);
  VEC_FREE(u->fk);
  VEC_FREE(u->calls);
  pp_edits_free(&u->edits);
  pp_profweights_free(u->weights);
  free(u->weights_err);
  pp_tables_free(&u->tab);
  free((char *)u->src.text);
  free(u->view);
}

/* Where the first parse's errors show C that GCC takes and clang 14 refuses (clangview.c), the
   unit is parsed again from the patched view, same offsets; the source text stays as it is.
   Only units with such errors pay the second parse. */
static void reparse_view(Unit *u, CXIndex idx, const char *ipath) {
  char *view = pp_clang_view(u->src.text, u->src.len, &u->errors);
  if (!view) return;
  struct CXUnsavedFile f = { ipath, view, (unsigned long)u->src.len };
  CXTranslationUnit tu = NULL;
  if (clang_parseTranslationUnit2(idx, ipath, clang_args, sizeof clang_args / sizeof *clang_args, &f, 1,
                                  CXTranslationUnit_KeepGoing, &tu) == CXError_Success && tu) {
    clang_disposeTranslationUnit(u->tu);
    u->tu = tu;
    u->main_file = clang_getFile(tu, ipath);
    pp_clang_errors_free(&u->errors);
    pp_clang_errors(tu, u->main_file, &u->errors);
  }
  u->view = view;  /* libclang may read its unsaved file until the unit is disposed of */
}

int pp_instrument(const PPOptions *o, const char *ipath, PPResult *res, char **err) {
  Unit u;
  memset(&u, 0, sizeof u);
  memset(res, 0, sizeof *res);
  u.o = o;
  if (pp_clang_load(err)) return -1;  /* the caller compiles the unit as written */
  u.src.text = pp_read_file(ipath, &u.src.len);
  if (!u.src.text) { *err = pp_xasprintf("%s: cannot read preprocessed file", ipath); return -1; }
  CXIndex idx = clang_createIndex(0, 0);
  enum CXErrorCode ec = clang_parseTranslationUnit2(idx, ipath, clang_args, sizeof clang_args / sizeof *clang_args,
                                                    NULL, 0, CXTranslationUnit_KeepGoing, &u.tu);
  if (ec != CXError_Success || !u.tu) {
    *err = pp_xasprintf("libclang could not parse the unit (error %d)", (int)ec);
    clang_disposeIndex(idx);
    unit_free(&u);
    return -1;
  }
  u.main_file = clang_getFile(u.tu, ipath);
  pp_clang_errors(u.tu, u.main_file, &u.errors);
  reparse_view(&u, idx, ipath);
  if (o->placement_profile) u.weights = pp_profweights_load(o->placement_profile, o->source, &u.weights_err);
  clang_visitChildren(clang_getTranslationUnitCursor(u.tu), visit_top, &u);
  if (o->derive && o->mode == PP_MODE_PATH && !o->trace && u.funcs.n)
    pp_derive(u.tu, u.funcs.v, u.tab.funcs.v, u.funcs.n, &u.tab.ncounters);
  u.tab.checksum = checksum(&u);
  u.tab.source = pp_xstrdup(o->source);
  u.tab.mode = pp_xstrdup(pp_mode_name(o->mode));
  char cwd[4096];
  u.tab.cwd = getcwd(cwd, sizeof cwd) ? pp_xstrdup(cwd) : NULL;
  u.tab.k = o->k || !kpath_k(o) ? kpath_k(o) : 0;
  for (size_t i = 0; i < u.fk.n; i++)  /* --k=auto: the largest any function picked */
    if (u.fk.v[i] > u.tab.k) u.tab.k = u.fk.v[i];
  u.tab.conditions = o->conditions;
  u.tab.continuous = o->continuous;
  u.tab.update = o->update == PP_UPDATE_ATOMIC ? "atomic" : o->update == PP_UPDATE_PREFER_ATOMIC ? "prefer-atomic"
               : o->update == PP_UPDATE_AUTO ? "auto" : "single";
  u.tab.array_limit = o->array_limit;
  u.tab.hash_cap = o->hash_cap;
  u.tab.counter_bits = o->counter_bits;
  res->instrumented = (int)u.funcs.n;
  for (size_t i = 0; i < u.funcs.n; i++) res->recheck |= u.funcs.v[i].indent_check;
  res->warning = warning_line(&u);
  if (u.funcs.n && (uses_frames(&u) || splits_wanted(&u))) mark_calls(&u);
  if (u.funcs.n && o->mode == PP_MODE_EDGE) place_edges(&u);
  if (u.funcs.n) rewrite_all(&u, res);
  for (size_t i = 0; i < u.funcs.n; i++) u.tab.funcs.v[i].g = u.funcs.v[i].g;
  u.tab.files.v = u.src.files.v;  /* the tables own the file names from here on */
  u.tab.files.n = u.src.files.n;
  u.tab.files.cap = u.src.files.cap;
  int rc = pp_tables_write(&u.tab, o->tables, err);
  clang_disposeTranslationUnit(u.tu);
  clang_disposeIndex(idx);
  unit_free(&u);
  return rc;
}
