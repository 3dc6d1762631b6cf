/* bench workload: a tokenizer and a recursive-descent parser.
   A generator writes a program in a small expression language (let/print statements,
   C-like operators with precedence, ?:, calls to min/max/abs, hex and decimal literals,
   comments) and records the value every print must produce.  The program text is then
   tokenized, parsed into an AST and evaluated SCALE times; every printed value is checked.
   Arithmetic is unsigned 32-bit (x / 0 and x % 0 are 0) so all of it is well defined.
   Usage: parse [SCALE]  (rounds, default 175) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

typedef unsigned int u32;

/* ---------- generator ---------- */
static unsigned long long rng = 0x9e3779b97f4a7c15ULL;
static u32 rnd(u32 n)
{
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (u32)(rng >> 33) % n;
}

static char *src;
static size_t srclen, srccap;
static void put(const char *s)
{
  size_t n = strlen(s);
  if (srclen + n + 1 > srccap) {
    srccap = (srccap + n) * 2 + 4096;
    src = realloc(src, srccap);
    if (!src) exit(2);
  }
  memcpy(src + srclen, s, n + 1);
  srclen += n;
}

#define NVARS 64
static char varname[NVARS][16];
static u32 varval[NVARS];
static int nvars;

static u32 divu(u32 a, u32 b) { return b ? a / b : 0; }
static u32 modu(u32 a, u32 b) { return b ? a % b : 0; }
static u32 absu(u32 a) { return (int)a < 0 ? 0u - a : a; }

static int budget;              /* primaries left for the current statement: bounds its size */
static u32 gen_expr(int depth);
static u32 gen_primary(int depth)
{
  char buf[64];
  u32 v, w;
  int k = depth <= 0 || budget <= 0 ? (int)rnd(3) : (int)rnd(9);
  budget--;
  switch (k) {
  case 0: v = rnd(1000); sprintf(buf, "%u", v); put(buf); return v;
  case 1: v = rnd(1u << 20); sprintf(buf, "0x%X", v); put(buf); return v;
  case 2:
    if (!nvars) { put("7"); return 7; }
    k = (int)rnd((u32)nvars); put(varname[k]); return varval[k];
  case 3: put("("); v = gen_expr(depth - 1); put(")"); return v;
  case 4: put("-"); v = gen_primary(depth - 1); return 0u - v;
  case 5: put("!"); v = gen_primary(depth - 1); return !v;
  case 6:
    put("min("); v = gen_expr(depth - 1); put(", "); w = gen_expr(depth - 1); put(")");
    return v < w ? v : w;
  case 7:
    put("max("); v = gen_expr(depth - 1); put(","); w = gen_expr(depth - 1); put(")");
    return v > w ? v : w;
  default: put("abs( "); v = gen_expr(depth - 1); put(" )"); return absu(v);
  }
}

/* binary operators grouped by precedence level, lowest first */
static const char *const levels[][6] = {
  {"||", 0}, {"&&", 0}, {"|", 0}, {"^", 0}, {"&", 0}, {"==", "!=", 0},
  {"<", "<=", ">", ">=", 0}, {"<<", ">>", 0}, {"+", "-", 0}, {"*", "/", "%", 0},
};
#define NLEVELS 10

static u32 apply(const char *op, u32 a, u32 b)
{
  switch (op[0]) {
  case '|': return op[1] ? (a || b) : (a | b);
  case '&': return op[1] ? (a && b) : (a & b);
  case '^': return a ^ b;
  case '=': return a == b;
  case '!': return a != b;
  case '<': return op[1] == '<' ? a << (b & 31) : op[1] == '=' ? a <= b : a < b;
  case '>': return op[1] == '>' ? a >> (b & 31) : op[1] == '=' ? a >= b : a > b;
  case '+': return a + b;
  case '-': return a - b;
  case '*': return a * b;
  case '/': return divu(a, b);
  default: return modu(a, b);
  }
}

/* Writes an expression at precedence level lvl (left-associative) and returns its value. */
static u32 gen_level(int lvl, int depth)
{
  const char *const *ops;
  int nops, i, n;
  u32 v;
  if (lvl == NLEVELS) return gen_primary(depth);
  ops = levels[lvl];
  for (nops = 0; ops[nops]; nops++) {}
  v = gen_level(lvl + 1, depth);
  n = depth > 0 && budget > 0 && rnd(3) == 0 ? 1 + (int)rnd(2) : 0;
  for (i = 0; i < n; i++) {
    const char *op = ops[rnd((u32)nops)];
    u32 w;
    put(rnd(4) ? " " : ""); put(op); put(rnd(4) ? " " : "");
    w = gen_level(lvl + 1, depth - 1);
    v = apply(op, v, w);
  }
  return v;
}

static u32 gen_expr(int depth)
{
  u32 c, a, b;
  c = gen_level(0, depth);
  if (depth > 1 && budget > 0 && rnd(8) == 0) {
    put(" ? "); a = gen_expr(depth - 1); put(" : "); b = gen_expr(depth - 1);
    return c ? a : b;
  }
  return c;
}

static u32 *expect;
static size_t nexpect;

static void generate(int nstmts)
{
  int i;
  char buf[64];
  expect = malloc((size_t)nstmts * sizeof *expect);
  if (!expect) exit(2);
  for (i = 0; i < nstmts; i++) {
    int kind = (int)rnd(10);
    if (kind == 0) put("/* block comment * with / stars */\n");
    else if (kind == 1) put("// line comment: let x = 1;\n");
    if (nvars < 8 || rnd(3) == 0) {
      int k, fresh = nvars < NVARS;
      if (fresh) {
        k = nvars;
        int first = 'a' + (int)rnd(26);               /* one rnd() per statement: arguments */
        const char *mid = rnd(2) ? "_v" : "";         /* are evaluated in no fixed order */
        sprintf(varname[k], "%c%s%d", first, mid, k);
      } else
        k = (int)rnd(NVARS);
      sprintf(buf, "let %s = ", varname[k]);
      put(buf);
      budget = 8 + (int)rnd(16);
      varval[k] = gen_expr(4);          /* a new variable is not in scope in its own definition */
      nvars += fresh;
      put(";\n");
    } else {
      budget = 12 + (int)rnd(24);
      put("print ");
      expect[nexpect++] = gen_expr(5);
      put(";\n");
    }
  }
}

/* ---------- tokenizer ---------- */
enum tok { T_EOF, T_NUM, T_ID, T_LET, T_PRINT, T_OP, T_LP, T_RP, T_COMMA, T_SEMI, T_Q, T_COLON, T_ERR };
struct lexer { const char *p; enum tok t; u32 num; int sym; char op[3]; int line; };

/* identifier interning: open addressing */
#define SYMCAP 1024
static char symname[SYMCAP][16];
static int symused[SYMCAP];
static int nsyms;

static int intern(const char *s, size_t n)
{
  unsigned h = 2166136261u;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  for (h &= SYMCAP - 1;; h = (h + 1) & (SYMCAP - 1)) {
    if (!symused[h]) {
      if (n >= sizeof symname[0] || nsyms + 1 >= SYMCAP / 2) return -1;
      memcpy(symname[h], s, n);
      symname[h][n] = 0;
      symused[h] = 1;
      nsyms++;
      return (int)h;
    }
    if (strlen(symname[h]) == n && !memcmp(symname[h], s, n)) return (int)h;
  }
}

static void next(struct lexer *lx)
{
  const char *p = lx->p;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
      if (*p == '\n') lx->line++;
      p++;
    }
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') p++;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      p += 2;
      while (*p && !(p[0] == '*' && p[1] == '/')) {
        if (*p == '\n') lx->line++;
        p++;
      }
      if (*p) p += 2;
      continue;
    }
    break;
  }
  if (!*p) { lx->t = T_EOF; lx->p = p; return; }
  if (isdigit((unsigned char)*p)) {
    u32 v = 0;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
      p += 2;
      for (;; p++) {
        if (*p >= '0' && *p <= '9') v = v * 16 + (u32)(*p - '0');
        else if (*p >= 'a' && *p <= 'f') v = v * 16 + (u32)(*p - 'a' + 10);
        else if (*p >= 'A' && *p <= 'F') v = v * 16 + (u32)(*p - 'A' + 10);
        else break;
      }
    } else
      while (isdigit((unsigned char)*p)) v = v * 10 + (u32)(*p++ - '0');
    lx->t = T_NUM; lx->num = v; lx->p = p;
    return;
  }
  if (isalpha((unsigned char)*p) || *p == '_') {
    const char *s = p;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    lx->p = p;
    if (p - s == 3 && !memcmp(s, "let", 3)) { lx->t = T_LET; return; }
    if (p - s == 5 && !memcmp(s, "print", 5)) { lx->t = T_PRINT; return; }
    lx->sym = intern(s, (size_t)(p - s));
    lx->t = lx->sym < 0 ? T_ERR : T_ID;
    return;
  }
  lx->op[0] = *p;
  lx->op[1] = lx->op[2] = 0;
  switch (*p) {
  case '(': lx->t = T_LP; break;
  case ')': lx->t = T_RP; break;
  case ',': lx->t = T_COMMA; break;
  case ';': lx->t = T_SEMI; break;
  case '?': lx->t = T_Q; break;
  case ':': lx->t = T_COLON; break;
  case '+': case '-': case '*': case '/': case '%': case '^': lx->t = T_OP; break;
  case '|': case '&':
    lx->t = T_OP;
    if (p[1] == p[0]) lx->op[1] = *++p;
    break;
  case '<': case '>':
    lx->t = T_OP;
    if (p[1] == p[0] || p[1] == '=') lx->op[1] = *++p;
    break;
  case '=': case '!':
    lx->t = T_OP;
    if (p[1] == '=') lx->op[1] = *++p;
    break;
  default: lx->t = T_ERR;
  }
  lx->p = p + 1;
}

/* ---------- parser: AST in an arena ---------- */
enum kind { N_NUM, N_VAR, N_NEG, N_NOT, N_BIN, N_COND, N_MIN, N_MAX, N_ABS };
struct node { enum kind k; char op[3]; u32 num; int sym; struct node *a, *b, *c; };
static struct node *arena;
static size_t narena, arenacap;
static int parse_error;

static struct node *mk(enum kind k)
{
  struct node *n;
  if (narena == arenacap) { parse_error = 1; return &arena[0]; }
  n = &arena[narena++];
  memset(n, 0, sizeof *n);
  n->k = k;
  return n;
}

static void expect_tok(struct lexer *lx, enum tok t)
{
  if (lx->t != t) parse_error = 1;
  else next(lx);
}

static struct node *expr(struct lexer *lx);

static struct node *unary(struct lexer *lx)
{
  struct node *n;
  switch (lx->t) {
  case T_NUM: n = mk(N_NUM); n->num = lx->num; next(lx); return n;
  case T_ID: {
    int s = lx->sym;
    next(lx);
    if (lx->t == T_LP) {
      const char *name = symname[s];
      next(lx);
      if (!strcmp(name, "abs")) {
        n = mk(N_ABS);
        n->a = expr(lx);
      } else {
        n = mk(!strcmp(name, "min") ? N_MIN : !strcmp(name, "max") ? N_MAX : N_NUM);
        if (n->k == N_NUM) parse_error = 1;
        n->a = expr(lx);
        expect_tok(lx, T_COMMA);
        n->b = expr(lx);
      }
      expect_tok(lx, T_RP);
      return n;
    }
    n = mk(N_VAR);
    n->sym = s;
    return n;
  }
  case T_LP: next(lx); n = expr(lx); expect_tok(lx, T_RP); return n;
  case T_OP:
    if (lx->op[0] == '-' && !lx->op[1]) { next(lx); n = mk(N_NEG); n->a = unary(lx); return n; }
    if (lx->op[0] == '!' && !lx->op[1]) { next(lx); n = mk(N_NOT); n->a = unary(lx); return n; }
    /* fall through */
  default:
    parse_error = 1;
    next(lx);
    return mk(N_NUM);
  }
}

static int level_of(const struct lexer *lx)
{
  if (lx->t != T_OP) return -1;
  switch (lx->op[0]) {
  case '|': return lx->op[1] ? 0 : 2;
  case '&': return lx->op[1] ? 1 : 4;
  case '^': return 3;
  case '=': case '!': return lx->op[1] == '=' ? 5 : -1;
  case '<': case '>': return lx->op[1] == lx->op[0] ? 7 : 6;
  case '+': case '-': return 8;
  default: return 9;
  }
}

static struct node *binary(struct lexer *lx, int lvl)
{
  struct node *l, *n;
  if (lvl == NLEVELS) return unary(lx);
  l = binary(lx, lvl + 1);
  while (level_of(lx) == lvl) {
    n = mk(N_BIN);
    memcpy(n->op, lx->op, 3);
    next(lx);
    n->a = l;
    n->b = binary(lx, lvl + 1);
    l = n;
  }
  return l;
}

static struct node *expr(struct lexer *lx)
{
  struct node *c = binary(lx, 0), *n;
  if (lx->t != T_Q) return c;
  next(lx);
  n = mk(N_COND);
  n->a = c;
  n->b = expr(lx);
  expect_tok(lx, T_COLON);
  n->c = expr(lx);
  return n;
}

static u32 env[SYMCAP];

static u32 eval(const struct node *n)
{
  u32 a, b;
  switch (n->k) {
  case N_NUM: return n->num;
  case N_VAR: return env[n->sym];
  case N_NEG: return 0u - eval(n->a);
  case N_NOT: return !eval(n->a);
  case N_ABS: return absu(eval(n->a));
  case N_MIN: a = eval(n->a); b = eval(n->b); return a < b ? a : b;
  case N_MAX: a = eval(n->a); b = eval(n->b); return a > b ? a : b;
  case N_COND: return eval(n->a) ? eval(n->b) : eval(n->c);
  default:
    a = eval(n->a);
    if (n->op[1] == '&' && !a) return 0;       /* && and || short-circuit */
    if (n->op[1] == '|' && a) return 1;
    b = eval(n->b);
    return apply(n->op, a, b);
  }
}

/* Parses and runs the whole program; returns the number of wrong prints, -1 on a parse error. */
static long run_program(unsigned long long *digest)
{
  struct lexer lx;
  size_t printed = 0;
  long bad = 0;
  memset(env, 0, sizeof env);
  lx.p = src;
  lx.line = 1;
  parse_error = 0;
  next(&lx);
  while (lx.t != T_EOF && !parse_error) {
    narena = 0;
    if (lx.t == T_LET) {
      int s;
      struct node *e;
      next(&lx);
      if (lx.t != T_ID) { parse_error = 1; break; }
      s = lx.sym;
      next(&lx);
      if (lx.t != T_OP || strcmp(lx.op, "=")) { parse_error = 1; break; }
      next(&lx);
      e = expr(&lx);
      if (!parse_error) env[s] = eval(e);
    } else if (lx.t == T_PRINT) {
      struct node *e;
      u32 v;
      next(&lx);
      e = expr(&lx);
      if (parse_error) break;
      v = eval(e);
      *digest = (*digest ^ v) * 1099511628211ULL;
      if (printed >= nexpect || v != expect[printed]) bad++;
      printed++;
    } else
      parse_error = 1;
    expect_tok(&lx, T_SEMI);
  }
  if (parse_error) {
    fprintf(stderr, "parse error near line %d\n", lx.line);
    return -1;
  }
  if (printed != nexpect) bad++;
  return bad;
}

int main(int argc, char **argv)
{
  long rounds = argc > 1 ? atol(argv[1]) : 175, r, bad = 0;
  unsigned long long digest = 14695981039346656037ULL;
  arenacap = 1 << 16;
  arena = malloc(arenacap * sizeof *arena);
  if (!arena) return 2;
  generate(3000);
  for (r = 0; r < rounds && !bad; r++) {
    long b = run_program(&digest);
    if (b) {
      fprintf(stderr, "round %ld: %ld wrong prints\n", r, b);
      bad = 1;
    }
  }
  printf("parse: %ld rounds of %lu bytes, %lu prints each, %d symbols, digest %016llx\n",
         rounds, (unsigned long)srclen, (unsigned long)nexpect, nsyms, digest);
  puts(bad ? "FAIL" : "PASS");
  free(arena);
  free(src);
  free(expect);
  return (int)bad;
}
