/* pathprof import: recovers profiles from logs holding text dumps (doc/formats.md section 5)
   and from binary profiles, and writes their sum as one profile. Every frame (one unit record of
   one dump) is checked on its own: a damaged line costs only the frame it belongs to, and every
   damaged line and frame is named by its line number in the log. */
#include "commands.h"
#include "profile/profile.h"
#include "model/util.h"
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RECORD (1UL << 30)   /* a frame claiming more bytes than this is damaged */

typedef struct {
  unsigned long dump;       /* the dump's number on the target */
  char *label;              /* NULL when its header line was lost */
  size_t first_line;        /* its header line, or its first line seen */
  size_t last_line;
  unsigned long seen_max;   /* highest frame number seen + 1 */
  VEC(unsigned long) seen;  /* frame numbers seen (intact or damaged) */
  bool ended;               /* its end line was seen */
  int imported, damaged;
} Dump;

typedef struct {
  Dump *d;
  unsigned long frame, bytes, lines, next;
  char enc;                 /* 'x' hex, 'b' base64 */
  bool whole;               /* an X frame: a whole profile (forests, samples), not one unit record */
  size_t first_line, last_line;
  unsigned char *buf;
  size_t n, cap;
  char *why;                /* first reason it is damaged, NULL while intact */
} Frame;

typedef struct {
  const char *file;
  const char *only_label;
  bool verbose;
  struct pp_profile out;
  int frames, damaged_frames, damaged_lines, profiles, errors;
  VEC(Dump *) dumps;
  Frame cur;                /* cur.d == NULL: no frame open */
  Dump *dump;               /* the dump lines attach to */
  VEC(size_t) bad;          /* damaged lines after the last line of the previous frame */
} Importer;

/* ---- line syntax ---- */

static uint32_t crc32_text(const char *s, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= (unsigned char)s[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* A hex field of at most 16 digits, lower case, no leading zero; advances *p past it. */
static bool hex_field(const char **p, const char *end, unsigned long *v) {
  const char *s = *p;
  uint64_t x = 0;
  int n = 0;
  while (s < end && hexval(*s) >= 0 && n < 17) x = x * 16 + (uint64_t)hexval(*s++), n++;
  if (n == 0 || n > 16 || (n > 1 && (*p)[0] == '0') || x > ULONG_MAX) return false;
  *v = (unsigned long)x;
  *p = s;
  return true;
}

static bool space(const char **p, const char *end) {
  if (*p >= end || **p != ' ') return false;
  (*p)++;
  return true;
}

typedef struct {
  char kind;
  unsigned long dump, a, b, c;
  char enc;
  const char *text;  /* H: label; D: data */
  size_t textlen;
} Line;

/* Finds a "PP1 <kind> " marker in s. */
static const char *find_marker(const char *s, const char *end) {
  for (const char *p = s; p + 6 <= end; p++)
    if (p[0] == 'P' && p[1] == 'P' && p[2] == '1' && p[3] == ' ' && strchr("HUDEX", p[4]) && p[4] && p[5] == ' ') return p;
  return NULL;
}

/* Parses the fields of a line whose CRC matched; false if they are malformed. */
static bool parse_fields(const char *p, const char *end, Line *l) {
  l->kind = p[4];
  p += 6;
  if (!hex_field(&p, end, &l->dump)) return false;
  switch (l->kind) {
  case 'H':
    if (!space(&p, end) || p == end) return false;
    l->text = p;
    l->textlen = (size_t)(end - p);
    for (; p < end; p++) if (*p <= ' ' || *p >= 0x7f) return false;
    return true;
  case 'U': case 'X':
    if (!space(&p, end) || !hex_field(&p, end, &l->a) || !space(&p, end) || !hex_field(&p, end, &l->b) ||
        !space(&p, end) || !hex_field(&p, end, &l->c) || !space(&p, end) || end - p != 1 || (*p != 'x' && *p != 'b'))
      return false;
    l->enc = *p;
    return true;
  case 'D':
    if (!space(&p, end) || !hex_field(&p, end, &l->a) || !space(&p, end) || !hex_field(&p, end, &l->b) ||
        !space(&p, end) || p == end)
      return false;
    l->text = p;
    l->textlen = (size_t)(end - p);
    return true;
  case 'E':
    return space(&p, end) && hex_field(&p, end, &l->a) && p == end;
  }
  return false;
}

/* Classifies one log line: 0 not a pathprof line, 1 a valid one in *l, -1 a damaged one. */
static int parse_line(const char *s, size_t n, Line *l) {
  const char *end = s + n, *m, *from = s;
  while (end > s && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t')) end--;
  bool any = false;
  while ((m = find_marker(from, end))) {
    any = true;
    /* the CRC is the last field: " xxxxxxxx" */
    if (end - m >= 6 + 1 + 9 && end[-9] == ' ') {
      uint32_t want = 0;
      bool ok = true;
      for (const char *c = end - 8; c < end; c++) {
        int v = hexval(*c);
        if (v < 0) { ok = false; break; }
        want = want * 16 + (uint32_t)v;
      }
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
      want = crc32_text(m, (size_t)(end - 9 - m)); /* fuzz builds parse lines with any CRC */
#endif
      if (ok && crc32_text(m, (size_t)(end - 9 - m)) == want) return parse_fields(m, end - 9, l) ? 1 : -1;
    }
    from = m + 1;
  }
  return any ? -1 : 0;
}

/* ---- data ---- */

static int b64val(int c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* Decodes a data field into out (room for 64 bytes); returns the byte count or -1. */
static int decode(char enc, const char *s, size_t n, unsigned char *out) {
  int k = 0;
  if (enc == 'x') {
    if (n % 2 || n > 128) return -1;
    for (size_t i = 0; i < n; i += 2) {
      int hi = hexval(s[i]), lo = hexval(s[i + 1]);
      if (hi < 0 || lo < 0) return -1;
      out[k++] = (unsigned char)(hi * 16 + lo);
    }
    return k;
  }
  if (n % 4 || n > 88) return -1;
  for (size_t i = 0; i < n; i += 4) {
    int v[4], pad = 0;
    for (int j = 0; j < 4; j++) {
      if (s[i + j] == '=' && i + 4 == n && j >= 2) { v[j] = 0; pad++; continue; }
      if (pad || (v[j] = b64val(s[i + j])) < 0) return -1;
    }
    unsigned long w = (unsigned long)v[0] << 18 | (unsigned long)v[1] << 12 | (unsigned long)v[2] << 6 | (unsigned long)v[3];
    out[k++] = (unsigned char)(w >> 16);
    if (pad < 2) out[k++] = (unsigned char)(w >> 8);
    if (pad < 1) out[k++] = (unsigned char)w;
  }
  return k;
}

/* ---- frames and dumps ---- */

static const char *label_of(const Dump *d) { return d->label ? d->label : "?"; }

static void frame_damage(Frame *f, char *why) {
  if (!f->why) f->why = why;
  else free(why);
}

static Dump *new_dump(Importer *im, unsigned long id, const char *label, size_t labellen, size_t line) {
  Dump *d = pp_xcalloc(1, sizeof *d);
  d->dump = id;
  if (label) {
    d->label = pp_xmalloc(labellen + 1);
    memcpy(d->label, label, labellen);
    d->label[labellen] = 0;
  }
  d->first_line = d->last_line = line;
  VEC_PUSH(im->dumps, d);
  return d;
}

static void mark_seen(Dump *d, unsigned long frame) {
  for (size_t i = 0; i < d->seen.n; i++) if (d->seen.v[i] == frame) return;
  VEC_PUSH(d->seen, frame);
  if (frame + 1 > d->seen_max) d->seen_max = frame + 1;
}

/* Whether frames of dump d go into the output. */
static bool wanted(const Importer *im, const Dump *d) {
  return !im->only_label || (d->label && !strcmp(d->label, im->only_label));
}

/* Adds a frame's bytes to the output: a U frame's unit record wrapped as a whole profile, an X
   frame's profile as it is; NULL or why not. */
static char *import_record(Importer *im, const unsigned char *rec, size_t n, bool whole) {
  size_t total = whole ? n : 16 + n + 16;
  unsigned char *b = pp_xmalloc(total + 1);
  if (whole && n) memcpy(b, rec, n);
  if (!whole) {
    memcpy(b, "PATHPROF\1\0\0\0\0\0\0\0", 16);
    if (n) memcpy(b + 16, rec, n);
    static const unsigned char end[8] = {'E', 'N', 'D', 0, 1, 0, 0, 0};
    memcpy(b + 16 + n, end, 8);
    uint64_t h = pp_fnv1a(PP_FNV_BASIS, b, 16 + n + 8);
    for (int i = 0; i < 8; i++) b[16 + n + 8 + i] = (unsigned char)(h >> (8 * i));
  }
  struct pp_profile p;
  char err[512];
  char *why = NULL;
  if (pp_profile_parse(b, total, "frame", &p, err, sizeof err)) {
    const char *e = strncmp(err, "frame: ", 7) ? err : err + 7;
    why = pp_xasprintf("its record does not parse (%s)", e);
  } else if (pp_profile_merge(&im->out, &p, err, sizeof err)) {
    why = pp_xasprintf("it does not add up with the other frames (%s)", err);
  }
  pp_profile_free(&p);
  free(b);
  return why;
}

/* Closes the open frame: imports it if it is whole, else reports it. */
static void close_frame(Importer *im) {
  Frame *f = &im->cur;
  if (!f->d) return;
  if (!f->why && f->next != f->lines)
    f->why = pp_xasprintf("it has %lu of its %lu data lines (line %lu is missing)", f->next, f->lines, f->next);
  if (!f->why && f->n != f->bytes)
    f->why = pp_xasprintf("its data lines hold %zu bytes, its header says %lu", f->n, f->bytes);
  if (!f->why && wanted(im, f->d)) f->why = import_record(im, f->buf, f->n, f->whole);
  if (f->why) {
    PPStr bad = {0};
    for (size_t i = 0; i < im->bad.n; i++)
      pp_str_addf(&bad, "%s%zu", i ? ", " : "; damaged lines since the previous frame: ", im->bad.v[i]);
    fprintf(stderr, "%s:%zu-%zu: damaged frame %lu of dump %lu '%s': %s%s; not imported\n", im->file, f->first_line,
            f->last_line, f->frame, f->d->dump, label_of(f->d), f->why, bad.s ? bad.s : "");
    free(bad.s);
    f->d->damaged++;
    im->damaged_frames++;
  } else if (wanted(im, f->d)) {
    f->d->imported++;
    im->frames++;
  }
  size_t keep = 0; /* damaged lines after its last line may belong to the next frame */
  for (size_t i = 0; i < im->bad.n; i++)
    if (im->bad.v[i] > f->last_line) im->bad.v[keep++] = im->bad.v[i];
  im->bad.n = keep;
  free(f->why);
  free(f->buf);
  memset(f, 0, sizeof *f);
}

static void open_frame(Importer *im, Dump *d, unsigned long frame, size_t line) {
  close_frame(im);
  Frame *f = &im->cur;
  f->d = d;
  f->frame = frame;
  f->first_line = f->last_line = line;
  mark_seen(d, frame);
}

/* Closes the current dump: frames it announced but that never came are damaged. */
static void close_dump(Importer *im, unsigned long announced, bool ended, size_t line) {
  Dump *d = im->dump;
  close_frame(im);
  if (!d) return;
  if (ended) {
    d->ended = true;
    d->last_line = line;
    /* frames announced but never seen: the first few by number, then how many more (a
       damaged end line may announce billions) */
    unsigned long seen_below = 0, missing, named = 0;
    for (size_t i = 0; i < d->seen.n; i++) seen_below += d->seen.v[i] < announced;
    missing = announced - seen_below;
    for (unsigned long k = 0; k < announced && named < 5 && named < missing; k++) {
      bool seen = false;
      for (size_t i = 0; i < d->seen.n && !seen; i++) seen = d->seen.v[i] == k;
      if (seen) continue;
      fprintf(stderr, "%s:%zu-%zu: damaged frame %lu of dump %lu '%s': all its lines are missing; not imported\n",
              im->file, d->first_line, line, k, d->dump, label_of(d));
      named++;
    }
    if (missing > named)
      fprintf(stderr, "%s:%zu-%zu: dump %lu '%s': %lu more frames are missing; not imported\n", im->file,
              d->first_line, line, d->dump, label_of(d), missing - named);
    d->damaged += (int)(missing < 1000000 ? missing : 1000000);
    im->damaged_frames += (int)(missing < 1000000 ? missing : 1000000);
    if (d->seen_max > announced)
      fprintf(stderr, "%s:%zu: dump %lu '%s' ends after %lu frames but frame %lu was seen\n", im->file, line, d->dump,
              label_of(d), announced, d->seen_max - 1);
  } else {
    fprintf(stderr, "%s:%zu: dump %lu '%s' has no end line: frames after frame %lu may be missing\n", im->file,
            d->last_line, d->dump, label_of(d), d->seen_max ? d->seen_max - 1 : 0);
  }
  if (im->verbose)
    printf("dump %lu '%s' (lines %zu-%zu): %d frames imported, %d damaged\n", d->dump, label_of(d), d->first_line,
           d->last_line, d->imported, d->damaged);
  im->dump = NULL;
}

/* The dump a U, D or E line of dump number id belongs to. */
static Dump *dump_for(Importer *im, unsigned long id, size_t line) {
  if (im->dump && im->dump->dump == id) return im->dump;
  if (im->dump) close_dump(im, 0, false, line);
  fprintf(stderr, "%s:%zu: dump %lu: its header line is damaged or missing; its label is unknown\n", im->file, line, id);
  return im->dump = new_dump(im, id, NULL, 0, line);
}

static void handle(Importer *im, const Line *l, size_t line) {
  Frame *f = &im->cur;
  Dump *d;
  switch (l->kind) {
  case 'H':
    if (im->dump) close_dump(im, 0, false, line);
    im->dump = new_dump(im, l->dump, l->text, l->textlen, line);
    return;
  case 'U': case 'X':
    d = dump_for(im, l->dump, line);
    d->last_line = line;
    open_frame(im, d, l->a, line);
    f->bytes = l->b;
    f->lines = l->c;
    f->enc = l->enc;
    f->whole = l->kind == 'X';
    if (f->bytes > MAX_RECORD || f->lines > f->bytes || f->lines < (f->bytes + 63) / 64)
      f->why = pp_xasprintf("its header claims %lu bytes in %lu lines", f->bytes, f->lines);
    return;
  case 'D':
    d = dump_for(im, l->dump, line);
    d->last_line = line;
    if (!f->d || f->d != d || f->frame != l->a) {
      open_frame(im, d, l->a, line);
      f->why = pp_xasprintf("its header line is damaged or missing");
    }
    f->last_line = line;
    if (f->why) return;
    if (l->b != f->next) {
      frame_damage(f, l->b > f->next ? pp_xasprintf("data line %lu is missing", f->next)
                                     : pp_xasprintf("data line %lu appears twice", l->b));
      return;
    }
    unsigned char tmp[96];
    int k = decode(f->enc, l->text, l->textlen, tmp);
    if (k < 0 || f->n + (size_t)k > f->bytes) {
      frame_damage(f, pp_xasprintf("data line %lu (log line %zu) does not decode to its bytes", l->b, line));
      return;
    }
    if (f->n + (size_t)k > f->cap) {  /* grown as data comes: a header's claim costs nothing */
      f->cap = f->n + (size_t)k > 2 * f->cap ? f->n + (size_t)k : 2 * f->cap;
      f->buf = pp_xrealloc(f->buf, f->cap);
    }
    memcpy(f->buf + f->n, tmp, (size_t)k);
    f->n += (size_t)k;
    f->next++;
    return;
  case 'E':
    dump_for(im, l->dump, line);
    close_dump(im, l->a, true, line);
    return;
  }
}

static void import_text(Importer *im, const char *path, const char *text, size_t len);

/* Reads one input and imports it. */
static void import_file(Importer *im, const char *path) {
  size_t len;
  char *text;
  if (!strcmp(path, "-")) {
    PPStr s = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) pp_str_addn(&s, chunk, n);
    len = s.n;
    text = s.s ? s.s : pp_xstrdup("");
    path = "<stdin>";
  } else if (!(text = pp_read_file(path, &len))) {
    fprintf(stderr, "pathprof import: %s: %s\n", path, strerror(errno));
    im->errors++;
    return;
  }
  import_text(im, path, text, len);
  free(text);
}

/* Imports one input's bytes (text[len] is 0): a binary profile (by its magic) or a log. */
static void import_text(Importer *im, const char *path, const char *text, size_t len) {
  im->file = path;
  if (len >= 8 && !memcmp(text, "PATHPROF", 8)) {
    struct pp_profile p;
    char err[512];
    if (pp_profile_parse((const unsigned char *)text, len, path, &p, err, sizeof err) ||
        pp_profile_merge(&im->out, &p, err, sizeof err)) {
      fprintf(stderr, "pathprof import: %s; not imported\n", err);
      im->errors++;
    } else {
      im->profiles++;
    }
    pp_profile_free(&p);
    return;
  }
  size_t lineno = 0;
  for (size_t i = 0; i < len;) {
    size_t j = i;
    while (j < len && text[j] != '\n') j++;
    lineno++;
    Line l;
    memset(&l, 0, sizeof l);
    int r = parse_line(text + i, j - i, &l);
    if (r > 0) {
      handle(im, &l, lineno);
    } else if (r < 0) {
      fprintf(stderr, "%s:%zu: damaged pathprof line (its CRC or fields do not check)\n", path, lineno);
      im->damaged_lines++;
      VEC_PUSH(im->bad, lineno);
    }
    i = j < len ? j + 1 : j;
  }
  if (im->dump) close_dump(im, 0, false, lineno);
  close_frame(im);
}

/* Frees what the importer holds. */
static void importer_free(Importer *im) {
  for (size_t i = 0; i < im->dumps.n; i++) {
    free(im->dumps.v[i]->label);
    VEC_FREE(im->dumps.v[i]->seen);
    free(im->dumps.v[i]);
  }
  VEC_FREE(im->dumps);
  VEC_FREE(im->bad);
  pp_profile_free(&im->out);
}

static int run_import(int argc, char **argv);

static const PPOpt import_opts[] = {
  { "output", 'o', "PROFILE", "the profile written (default $PATHPROF_FILE, else pathprof.out); it is replaced, "
                              "so list it as an INPUT too to add to it" },
  { "label", 0, "L", "only frames whose label is L (the label pathprof_dump_text was given)" },
  { "verbose", 'v', 0, "say what each frame held and why a damaged one was left out" },
  { 0, 0, 0, 0 },
};

const PPCommand pp_command_import = {
  "import", "[-v] [--label L] [-o PROFILE] LOG|PROFILE...", "text dumps recovered from logs, added up into a profile",
  "Recovers the text dumps (pathprof_dump_text) in logs, UART captures and the like, and binary profiles, "
  "and adds the counts of every intact frame up into PROFILE; - reads stdin. Damaged lines and frames are "
  "named by line number and left out; the exit status is then 1.",
  import_opts, run_import,
};

static int run_import(int argc, char **argv) {
  Importer im;
  memset(&im, 0, sizeof im);
  const char *out = NULL, *arg;
  VEC(const char *) inputs = {0};
  int r, n;
  PPCli cli;
  pp_cli_begin(&cli, &pp_command_import, argc, argv);
  while ((r = pp_cli_next(&cli, &arg)) != PP_CLI_END) {
    if (r < 0) return pp_cli_status(&cli, r);
    if (r == 0) out = arg;
    else if (r == 1) im.only_label = arg;
    else im.verbose = true;
  }
  char **ops = pp_cli_operands(&cli, &n);
  for (int i = 0; i < n; i++) VEC_PUSH(inputs, ops[i]);
  if (!inputs.n) {
    fprintf(stderr, "usage: pathprof import %s\n", pp_command_import.synopsis);
    return 2;
  }
  out = pp_profile_name(out);
  for (size_t i = 0; i < inputs.n; i++) import_file(&im, inputs.v[i]);
  int rc = 0;
  if (!im.frames && !im.profiles) {
    fprintf(stderr, "pathprof import: no intact frame%s found; %s not written\n", im.only_label ? " with that label" : "", out);
    rc = 1;
  } else {
    char err[1024];
    if (pp_profile_save(&im.out, out, err, sizeof err)) {
      fprintf(stderr, "pathprof import: %s\n", err);
      rc = 1;
    } else {
      printf("pathprof import: %s: %zu units from %d frames and %d profiles; %d damaged frames, %d damaged lines\n",
             out, im.out.nunits, im.frames, im.profiles, im.damaged_frames, im.damaged_lines);
    }
  }
  if (im.damaged_frames || im.damaged_lines || im.errors) rc = 1;
  importer_free(&im);
  VEC_FREE(inputs);
  return rc;
}

/* Imports one log or profile held in memory into *out (the fuzz harness's entry); returns the
   number of damaged lines, frames and errors, 0 when everything was intact. */
int pp_import_buffer(const char *name, const char *buf, size_t len, struct pp_profile *out) {
  Importer im;
  memset(&im, 0, sizeof im);
  char *text = pp_xmalloc(len + 1);  /* the line scanner wants a terminated copy */
  memcpy(text, buf, len);
  text[len] = 0;
  import_text(&im, name, text, len);
  free(text);
  int bad = im.damaged_frames + im.damaged_lines + im.errors;
  *out = im.out;
  memset(&im.out, 0, sizeof im.out);  /* *out owns units, osp list and forests now */
  importer_free(&im);
  return bad;
}
