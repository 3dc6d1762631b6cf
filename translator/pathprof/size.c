/* pathprof size: the footprint of path profiling, from the tables and the object: counter RAM
   per function and unit, and the code the probes add per function and unit (the instrumented
   object's function sizes against those of a plain build of the same sources). Reads ELF
   objects and executables of any ELF target (32/64-bit, either byte order). */
#include "commands.h"
#include "model/tables.h"
#include "model/util.h"
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
  char *name, *file;     /* file: the STT_FILE a local symbol follows; NULL for globals */
  uint64_t size;
  int type;              /* 1 object, 2 function */
  bool ram;              /* in a writable or zero-filled section */
} Sym;

typedef struct {
  const char *path;
  VEC(Sym) syms;
  VEC(char *) tables;    /* strings in the image naming a .pp.json */
} Elf;

/* ---- ELF ---- */

typedef struct { const unsigned char *p; size_t n; bool be, is64; } Img;

static uint64_t rd(const Img *m, size_t off, int w) {
  uint64_t v = 0;
  if (off + (size_t)w > m->n) return 0;
  for (int i = 0; i < w; i++) v |= (uint64_t)m->p[off + (size_t)(m->be ? w - 1 - i : i)] << (8 * i);
  return v;
}

/* The tables path a string of the image holds, or NULL: the string is cut after the last
   unprintable byte (other data may run into it) and, if that names no file, from a '/' on. */
static char *tables_name(char *s) {
  if (!pp_ends_with(s, ".pp.json")) return NULL;
  char *t = s;
  for (char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e) t = p + 1;
  struct stat st;
  if (stat(t, &st) == 0 || t[0] == '/') return t;
  for (char *p = strchr(t, '/'); p; p = strchr(p + 1, '/'))
    if (stat(p, &st) == 0) return p;
  return t;
}

/* Reads the symbols and the tables names of an ELF file; -1 with a message on stderr. */
static int elf_read(const char *path, Elf *e) {
  size_t len;
  unsigned char *buf = (unsigned char *)pp_read_file(path, &len);
  memset(e, 0, sizeof *e);
  e->path = path;
  if (!buf) { fprintf(stderr, "pathprof size: %s: %s\n", path, strerror(errno)); return -1; }
  Img m = {buf, len, false, false};
  if (len < 52 || memcmp(buf, "\177ELF", 4) || (buf[4] != 1 && buf[4] != 2) || (buf[5] != 1 && buf[5] != 2)) {
    fprintf(stderr, "pathprof size: %s: not an ELF file\n", path);
    free(buf);
    return -1;
  }
  m.is64 = buf[4] == 2;
  m.be = buf[5] == 2;
  int W = m.is64 ? 8 : 4;
  uint64_t shoff = rd(&m, m.is64 ? 0x28 : 0x20, W);
  unsigned shentsize = (unsigned)rd(&m, m.is64 ? 0x3a : 0x2e, 2), shnum = (unsigned)rd(&m, m.is64 ? 0x3c : 0x30, 2);
  if (!shoff || shoff > len || shentsize < (m.is64 ? 64u : 40u) || shoff + (uint64_t)shentsize * shnum > len) {
    fprintf(stderr, "pathprof size: %s: no readable section headers\n", path);
    free(buf);
    return -1;
  }
  /* section fields: type, flags, offset, size, link, entsize */
#define SH(i, f) (shoff + (uint64_t)(i) * shentsize + (f))
  for (unsigned i = 0; i < shnum; i++) {
    uint32_t type = (uint32_t)rd(&m, SH(i, 4), 4);
    uint64_t flags = rd(&m, SH(i, 8), W);
    uint64_t off = rd(&m, SH(i, m.is64 ? 0x18 : 0x10), W), size = rd(&m, SH(i, m.is64 ? 0x20 : 0x14), W);
    if (type == 8 /* NOBITS */ || !(flags & 2) /* ALLOC */ || off + size > len) continue;
    for (uint64_t a = off; a < off + size;) { /* NUL-terminated strings naming tables */
      uint64_t b = a;
      while (b < off + size && buf[b]) b++;
      if (b < off + size && b - a > 8 && b - a < 4096) {
        char *s = pp_xmalloc((size_t)(b - a) + 1);
        memcpy(s, buf + a, (size_t)(b - a));
        s[b - a] = 0;
        char *t = tables_name(s);
        bool dup = false;
        for (size_t k = 0; t && k < e->tables.n && !dup; k++) dup = !strcmp(e->tables.v[k], t);
        if (t && !dup) VEC_PUSH(e->tables, pp_xstrdup(t));
        free(s);
      }
      a = b + 1;
    }
  }
  for (unsigned i = 0; i < shnum; i++) {
    if (rd(&m, SH(i, 4), 4) != 2 /* SYMTAB */) continue;
    uint64_t off = rd(&m, SH(i, m.is64 ? 0x18 : 0x10), W), size = rd(&m, SH(i, m.is64 ? 0x20 : 0x14), W);
    unsigned link = (unsigned)rd(&m, SH(i, m.is64 ? 0x28 : 0x18), 4);
    uint64_t ent = rd(&m, SH(i, m.is64 ? 0x38 : 0x24), W);
    if (link >= shnum || ent < (m.is64 ? 24u : 16u) || off + size > len) continue;
    uint64_t stroff = rd(&m, SH(link, m.is64 ? 0x18 : 0x10), W), strsize = rd(&m, SH(link, m.is64 ? 0x20 : 0x14), W);
    if (stroff + strsize > len) continue;
    char *file = NULL;
    for (uint64_t s = off; s + ent <= off + size; s += ent) {
      uint32_t name = (uint32_t)rd(&m, s, 4);
      unsigned info = m.is64 ? buf[s + 4] : buf[s + 12];
      unsigned shndx = (unsigned)rd(&m, s + (m.is64 ? 6 : 14), 2);
      uint64_t ssize = rd(&m, s + (m.is64 ? 16 : 8), W);
      if (name >= strsize) continue;
      const char *nm = (const char *)buf + stroff + name;
      if (!memchr(nm, 0, (size_t)(strsize - name))) continue;
      int type = (int)(info & 0xf), bind = (int)(info >> 4);
      if (type == 4 /* FILE */) { file = (char *)nm; continue; }
      if ((type != 1 && type != 2) || shndx == 0 || shndx >= 0xff00 || shndx >= shnum) continue;
      uint32_t stype = (uint32_t)rd(&m, SH(shndx, 4), 4);
      uint64_t sflags = rd(&m, SH(shndx, 8), W);
      Sym y = {pp_xstrdup(nm), bind == 0 && file ? pp_xstrdup(file) : NULL, ssize, type,
               stype == 8 || (sflags & 1) /* WRITE */};
      VEC_PUSH(e->syms, y);
    }
  }
#undef SH
  free(buf);
  return 0;
}

static void elf_free(Elf *e) {
  for (size_t i = 0; i < e->syms.n; i++) { free(e->syms.v[i].name); free(e->syms.v[i].file); }
  for (size_t i = 0; i < e->tables.n; i++) free(e->tables.v[i]);
  VEC_FREE(e->syms);
  VEC_FREE(e->tables);
}

/* Whether symbol name y is name or a copy the compiler made of it (name.constprop.0, ...). */
static bool same_name(const char *y, const char *name) {
  size_t n = strlen(name);
  return !strncmp(y, name, n) && (y[n] == 0 || y[n] == '.');
}

/* The symbol of that name and type defined in file (a local there), else a global one. */
static const Sym *find_sym(const Elf *e, const char *name, const char *file, int type) {
  const Sym *global = NULL;
  for (size_t i = 0; i < e->syms.n; i++) {
    const Sym *y = &e->syms.v[i];
    if (y->type != type || strcmp(y->name, name)) continue;
    if (y->file && file && !strcmp(y->file, file)) return y;
    if (!y->file && !global) global = y;
  }
  return global;
}

/* Code bytes of function name of file, its compiler-made copies included; false if it has no
   symbol (inlined everywhere, or removed). */
static bool func_size(const Elf *e, const char *name, const char *file, uint64_t *size) {
  bool local = false, found = false;
  uint64_t sum = 0;
  for (size_t i = 0; i < e->syms.n && !local; i++) /* a local of that file hides globals */
    local = e->syms.v[i].type == 2 && e->syms.v[i].file && file && !strcmp(e->syms.v[i].file, file) &&
            same_name(e->syms.v[i].name, name);
  for (size_t i = 0; i < e->syms.n; i++) {
    const Sym *y = &e->syms.v[i];
    if (y->type != 2 || !same_name(y->name, name)) continue;
    if (local ? !(y->file && !strcmp(y->file, file)) : y->file != NULL) continue;
    sum += y->size;
    found = true;
  }
  *size = sum;
  return found;
}

/* ---- report ---- */

static bool runtime_file(const char *f) {
  static const char *const rt[] = {"core.c", "textdump.c", "semihost.c", "freestanding.c", "posix.c", "profile.c"};
  for (size_t i = 0; f && i < sizeof rt / sizeof *rt; i++) if (!strcmp(f, rt[i])) return true;
  return false;
}

static bool runtime_sym(const Sym *y) {
  if (y->file) return runtime_file(y->file);
  return !strncmp(y->name, "pathprof_", 9) || !strncmp(y->name, "__pathprof_", 11);
}

static void signed_bytes(char *out, size_t n, bool have, int64_t d) {
  if (!have) snprintf(out, n, "-");
  else snprintf(out, n, "%+" PRId64, d);
}

/* The counter cells function f owns in its unit's array, by the mode it was built in: edge mode
   a cell per chord, ppp its slots (or path mode's array when it kept it), path mode a cell per
   path and one for bad ids. Functions that count elsewhere get *kind instead: "hash", "forest"
   (kpath's k-slab forest) or "none" (osp samples subpaths and counts no paths). */
static uint64_t func_cells(const PPTables *t, const PPTabFunc *f, const char **kind) {
  *kind = NULL;
  if (pp_tables_edge_mode(t)) return (uint64_t)f->counters;
  if (f->hash) { *kind = "hash"; return 0; }
  if (f->kpath) { *kind = "forest"; return 0; }
  if (t->mode && !strcmp(t->mode, "osp")) { *kind = "none"; return 0; }
  if (f->ppp_array) return f->num.slots;
  return f->g.npaths + 1;
}

static int run_size(int argc, char **argv);

static const PPOpt size_opts[] = {
  { "baseline", 0, "PLAIN", "the same object or program built without pathcc: sizes are shown against it" },
  { "tables", 0, "T.pp.json", "a unit's tables, when the paths the object records are gone; may repeat" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_size = {
  "size", "[--baseline PLAIN] [--tables T.pp.json]... OBJECT", "counter RAM and probe code per function and unit",
  "Counter RAM and probe code per function and unit of an instrumented ELF object or program; tables "
  "are found through the paths the object records, or given with --tables.",
  size_opts, run_size,
};

static int run_size(int argc, char **argv) {
  const char *obj = NULL, *base = NULL, *arg;
  VEC(const char *) extra = {0};
  int r, n;
  PPCli cli;
  pp_cli_begin(&cli, &pp_command_size, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) { VEC_FREE(extra); return pp_cli_status(&cli, r); }
    if (r == 0) base = arg;
    else VEC_PUSH(extra, arg);
  }
  char **ops = pp_cli_operands(&cli, &n);
  if (n == 1) obj = ops[0];
  if (!obj) {
    fprintf(stderr, "usage: pathprof size %s\n", pp_command_size.synopsis);
    VEC_FREE(extra);
    return 2;
  }
  Elf e, b;
  bool have_base = false;
  if (elf_read(obj, &e)) { VEC_FREE(extra); return 1; }
  if (base) {
    if (elf_read(base, &b)) { elf_free(&e); VEC_FREE(extra); return 1; }
    have_base = true;
  }
  for (size_t i = 0; i < extra.n; i++) VEC_PUSH(e.tables, pp_xstrdup(extra.v[i]));
  printf("pathprof size: %s%s%s\n", obj, have_base ? " against " : "", have_base ? base : "");
  int rc = 0, units = 0;
  uint64_t all_ram = 0, all_flash = 0;
  int64_t all_probe = 0;
  for (size_t t = 0; t < e.tables.n; t++) {
    PPTables tab;
    char *err = NULL;
    struct stat st;
    fflush(stdout);
    if (stat(e.tables.v[t], &st)) { fprintf(stderr, "pathprof size: %s: tables missing\n", e.tables.v[t]); rc = 1; continue; }
    if (pp_tables_read(e.tables.v[t], &tab, &err)) { fprintf(stderr, "pathprof size: %s\n", err); free(err); rc = 1; continue; }
    const char *file = pp_base_name(tab.source);
    const Sym *c = find_sym(&e, "__pathprof_c", file, 1), *h = find_sym(&e, "__pathprof_h", file, 1),
              *u = find_sym(&e, "__pathprof_u", file, 1);
    uint64_t width = c && tab.ncounters && c->size % tab.ncounters == 0 ? c->size / tab.ncounters : 8;
    bool any_hash = false;
    units++;
    printf("\nunit %s  (tables %s)\n", tab.source, e.tables.v[t]);
    printf("  %-28s %8s %10s %9s %9s %9s\n", "function", "paths", "counters", "code", "plain", "probes");
    int64_t unit_probe = 0;
    uint64_t unit_code = 0, unit_plain = 0;
    bool inlined = false;
    for (size_t k = 0; k < tab.funcs.n; k++) {
      const PPTabFunc *f = &tab.funcs.v[k];
      char cnt[32], probe[32], plain[32], code[32];
      const char *kind = NULL;
      uint64_t cells = func_cells(&tab, f, &kind);
      if (kind) { snprintf(cnt, sizeof cnt, "%s", kind); any_hash |= f->hash; }
      else snprintf(cnt, sizeof cnt, "%" PRIu64, cells * width);
      uint64_t fsz = 0, psz = 0;
      bool fs = func_size(&e, f->name, file, &fsz), ps = have_base && func_size(&b, f->name, file, &psz);
      if (fs) { snprintf(code, sizeof code, "%" PRIu64, fsz); unit_code += fsz; }
      else snprintf(code, sizeof code, "inl.");
      if (ps) { snprintf(plain, sizeof plain, "%" PRIu64, psz); unit_plain += psz; }
      else snprintf(plain, sizeof plain, have_base ? "inl." : "-");
      signed_bytes(probe, sizeof probe, fs && ps, (int64_t)fsz - (int64_t)psz);
      if (fs && ps) unit_probe += (int64_t)fsz - (int64_t)psz;
      if (!fs || (have_base && !ps)) inlined = true;
      printf("  %-28s %8" PRIu64 " %10s %9s %9s %9s\n", f->name, f->g.npaths, cnt, code, plain, probe);
    }
    uint64_t counters = c ? c->size : tab.ncounters * width;
    uint64_t hash = h ? h->size : any_hash ? 24 * (uint64_t)tab.hash_cap : 0;
    uint64_t desc = u ? u->size : 0, name = strlen(e.tables.v[t]) + 1;
    uint64_t ram = counters + hash + desc;
    printf("  unit: counter RAM %" PRIu64 " B (counters %" PRIu64 " in %" PRIu64 "-bit words, hash table %" PRIu64
           ", descriptor %" PRIu64 "%s), tables path %" PRIu64 " B of read-only data\n",
           ram, counters, width * 8, hash, desc, u ? "" : " not found", name);
    if (have_base) {
      if (inlined) unit_probe = (int64_t)unit_code - (int64_t)unit_plain;
      printf("  unit: code %" PRIu64 " B instrumented, %" PRIu64 " B plain, probes %+" PRId64 " B%s\n", unit_code,
             unit_plain, unit_probe, inlined ? " (inl.: inlined into its callers, whose sizes include it)" : "");
    }
    else
      printf("  unit: code %" PRIu64 " B instrumented (give --baseline for the probes' share)\n", unit_code);
    all_ram += ram;
    all_flash += name;
    all_probe += unit_probe;
    pp_tables_free(&tab);
  }
  uint64_t rt_code = 0, rt_ram = 0;
  for (size_t i = 0; i < e.syms.n; i++)
    if (runtime_sym(&e.syms.v[i])) {
      if (e.syms.v[i].type == 2) rt_code += e.syms.v[i].size;
      else if (e.syms.v[i].ram) rt_ram += e.syms.v[i].size;
    }
  printf("\ntotal: %d units, counter RAM %" PRIu64 " B", units, all_ram);
  if (have_base) printf(", probe code %+" PRId64 " B", all_probe);
  if (rt_code || rt_ram) printf(", runtime code %" PRIu64 " B and RAM %" PRIu64 " B", rt_code, rt_ram);
  printf(", tables paths %" PRIu64 " B\n", all_flash);
  if (!units) { fprintf(stderr, "pathprof size: %s: no tables found (is it built with pathcc?)\n", obj); rc = 1; }
  elf_free(&e);
  if (have_base) elf_free(&b);
  VEC_FREE(extra);
  return rc;
}
