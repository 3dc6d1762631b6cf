/* bench workload: a switch-driven state machine called once per character.
   A tokenizer for a small configuration language (identifiers, integers, decimals with
   exponents, strings with escapes, line and block comments, punctuation) in the style of
   CoreMark's core_state_transition: lex_step() takes the state and one character and returns
   the next state, counting tokens as they end.  The input is generated with known token counts,
   which every scan must reproduce.  Usage: fsm [SCALE]  (passes over 1 MiB, default 40) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum state { S_START, S_IDENT, S_INT, S_DOT, S_FRAC, S_EXP, S_EXPSIGN, S_EXPDIG, S_STRING, S_ESCAPE,
             S_SLASH, S_LINECOMMENT, S_BLOCK, S_BLOCKSTAR, S_BAD };
enum kind { K_IDENT, K_INT, K_DEC, K_STRING, K_COMMENT, K_PUNCT, K_BAD, NKINDS };

struct counts { unsigned long n[NKINDS]; unsigned long chars, lines; };

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static int is_punct(int c) { return c && strchr("=;,{}[]()+-*:", c) != NULL; }

/* The state after character c in state s; a token that ends here is counted in t. A character
   that ends a token and starts another is handled from S_START again (the loop below). */
int lex_step(enum state s, int c, struct counts *t, int *again)
{
  *again = 0;
  t->chars++;
  if (c == '\n')
    t->lines++;
  switch (s) {
  case S_START:
    if (is_space(c) || c == 0) return S_START;
    if (is_alpha(c)) return S_IDENT;
    if (is_digit(c)) return S_INT;
    if (c == '"') return S_STRING;
    if (c == '/') return S_SLASH;
    if (c == '.') return S_DOT;
    if (is_punct(c)) { t->n[K_PUNCT]++; return S_START; }
    t->n[K_BAD]++;
    return S_START;
  case S_IDENT:
    if (is_alpha(c) || is_digit(c)) return S_IDENT;
    t->n[K_IDENT]++;
    *again = 1;
    return S_START;
  case S_INT:
    if (is_digit(c)) return S_INT;
    if (c == '.') return S_DOT;
    if (c == 'e' || c == 'E') return S_EXP;
    t->n[K_INT]++;
    *again = 1;
    return S_START;
  case S_DOT:
    if (is_digit(c)) return S_FRAC;
    t->n[K_BAD]++;
    *again = 1;
    return S_START;
  case S_FRAC:
    if (is_digit(c)) return S_FRAC;
    if (c == 'e' || c == 'E') return S_EXP;
    t->n[K_DEC]++;
    *again = 1;
    return S_START;
  case S_EXP:
    if (c == '+' || c == '-') return S_EXPSIGN;
    if (is_digit(c)) return S_EXPDIG;
    t->n[K_BAD]++;
    *again = 1;
    return S_START;
  case S_EXPSIGN:
    if (is_digit(c)) return S_EXPDIG;
    t->n[K_BAD]++;
    *again = 1;
    return S_START;
  case S_EXPDIG:
    if (is_digit(c)) return S_EXPDIG;
    t->n[K_DEC]++;
    *again = 1;
    return S_START;
  case S_STRING:
    if (c == '\\') return S_ESCAPE;
    if (c == '"') { t->n[K_STRING]++; return S_START; }
    if (c == '\n' || c == 0) { t->n[K_BAD]++; return S_START; }
    return S_STRING;
  case S_ESCAPE:
    if (c == 'n' || c == 't' || c == '"' || c == '\\') return S_STRING;
    t->n[K_BAD]++;
    return S_STRING;
  case S_SLASH:
    if (c == '/') return S_LINECOMMENT;
    if (c == '*') return S_BLOCK;
    t->n[K_PUNCT]++;   /* a lone slash is division */
    *again = 1;
    return S_START;
  case S_LINECOMMENT:
    if (c == '\n') { t->n[K_COMMENT]++; return S_START; }
    return S_LINECOMMENT;
  case S_BLOCK:
    if (c == '*') return S_BLOCKSTAR;
    return S_BLOCK;
  case S_BLOCKSTAR:
    if (c == '/') { t->n[K_COMMENT]++; return S_START; }
    if (c == '*') return S_BLOCKSTAR;
    return S_BLOCK;
  default:
    t->n[K_BAD]++;
    return S_START;
  }
}

/* Runs the machine over buf, one call per character (twice where a token ends on it). */
static void scan(const char *buf, size_t n, struct counts *t)
{
  enum state s = S_START;
  int again;
  for (size_t i = 0; i <= n; i++) {   /* the final NUL ends the last token */
    int c = i < n ? (unsigned char)buf[i] : 0;
    s = (enum state)lex_step(s, c, t, &again);
    if (again)
      s = (enum state)lex_step(s, c, t, &again);
  }
}

static unsigned long long seed = 0x9E3779B97F4A7C15ULL;
static unsigned rnd(unsigned n) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return (unsigned)(seed % n); }

/* Appends random tokens separated by blanks, counting what it wrote in want. */
static size_t generate(char *buf, size_t cap, struct counts *want)
{
  static const char *const words[] = { "width", "height", "name", "enable_cache", "path", "x1", "retry_limit", "mode" };
  static const char punct[] = "=;,{}[]()+-*:";
  size_t n = 0;
  memset(want, 0, sizeof *want);
  while (n + 200 < cap) {
    unsigned r = rnd(100), k;
    if (r < 30) {
      n += (size_t)sprintf(buf + n, "%s", words[rnd(8)]);
      want->n[K_IDENT]++;
    } else if (r < 48) {
      n += (size_t)sprintf(buf + n, "%u", rnd(1000000));
      want->n[K_INT]++;
    } else if (r < 58) {
      unsigned whole = rnd(1000), frac = rnd(100000), exp = rnd(40), plain = rnd(2);   /* in this order, whatever the compiler */
      n += (size_t)sprintf(buf + n, plain ? "%u.%u" : "%u.%ue-%u", whole, frac, exp);
      want->n[K_DEC]++;
    } else if (r < 68) {
      buf[n++] = '"';
      for (k = rnd(30); k > 0; k--) {
        if (rnd(10) == 0) { buf[n++] = '\\'; buf[n++] = "nt\"\\"[rnd(4)]; }
        else buf[n++] = (char)('a' + rnd(26));
      }
      buf[n++] = '"';
      want->n[K_STRING]++;
    } else if (r < 74) {
      unsigned line = rnd(2), note = rnd(100);
      n += (size_t)sprintf(buf + n, line ? "// note %u\n" : "/* block ** %u */", note);
      want->n[K_COMMENT]++;
    } else {
      buf[n++] = punct[rnd(sizeof punct - 1)];
      want->n[K_PUNCT]++;
    }
    buf[n++] = rnd(8) ? ' ' : '\n';
  }
  buf[n] = 0;
  return n;
}

int main(int argc, char **argv)
{
  int passes = argc > 1 ? atoi(argv[1]) : 40, bad = 0;
  size_t cap = 1 << 20, n;
  char *buf = malloc(cap + 1);
  struct counts want, got, total;
  memset(&total, 0, sizeof total);
  n = generate(buf, cap, &want);   /* once: the scans are what is measured */
  for (int p = 0; p < passes; p++) {
    memset(&got, 0, sizeof got);
    scan(buf, n, &got);
    for (int k = 0; k < NKINDS; k++) {
      if (got.n[k] != want.n[k] && bad++ < 5)
        printf("pass %d kind %d: %lu tokens, %lu written\n", p, k, got.n[k], want.n[k]);
      total.n[k] += got.n[k];
    }
    total.lines += got.lines;
  }
  printf("fsm: %d passes, %lu identifiers, %lu integers, %lu decimals, %lu strings, %lu comments, %lu punctuation, %lu lines\n",
         passes, total.n[K_IDENT], total.n[K_INT], total.n[K_DEC], total.n[K_STRING], total.n[K_COMMENT],
         total.n[K_PUNCT], total.lines);
  printf("%s\n", bad ? "FAIL" : "PASS");
  free(buf);
  return bad != 0;
}
