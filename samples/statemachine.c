/* Sample: a character-level state machine (a C comment and string stripper) driven by switch inside a loop. */
#include <stdio.h>
#include <string.h>

enum state { CODE, SLASH, LINE_COMMENT, BLOCK_COMMENT, STAR, STRING, STRING_ESC, CHAR, CHAR_ESC };

struct stats {
  int code_chars, comment_chars, strings, comments, lines;
};

static void strip(const char *in, char *out, struct stats *st)
{
  enum state s = CODE;
  char c;
  memset(st, 0, sizeof *st);
  while ((c = *in++) != '\0') {
    if (c == '\n')
      st->lines++;
    switch (s) {
    case CODE:
      if (c == '/') { s = SLASH; continue; }
      if (c == '"') { s = STRING; st->strings++; }
      else if (c == '\'') s = CHAR;
      *out++ = c;
      st->code_chars++;
      break;
    case SLASH:
      if (c == '/') { s = LINE_COMMENT; st->comments++; break; }
      if (c == '*') { s = BLOCK_COMMENT; st->comments++; break; }
      *out++ = '/';
      *out++ = c;
      st->code_chars += 2;
      s = CODE;
      break;
    case LINE_COMMENT:
      if (c == '\n') {
        *out++ = c;
        s = CODE;
      } else
        st->comment_chars++;
      break;
    case BLOCK_COMMENT:
      if (c == '*')
        s = STAR;
      st->comment_chars++;
      break;
    case STAR:
      st->comment_chars++;
      switch (c) {
      case '/': s = CODE; *out++ = ' '; break;
      case '*': break;
      default: s = BLOCK_COMMENT;
      }
      break;
    case STRING:
    case CHAR:
      *out++ = c;
      st->code_chars++;
      if (c == '\\') s = s == STRING ? STRING_ESC : CHAR_ESC;
      else if ((s == STRING && c == '"') || (s == CHAR && c == '\'')) s = CODE;
      break;
    case STRING_ESC:
    case CHAR_ESC:
      *out++ = c;
      st->code_chars++;
      s = s == STRING_ESC ? STRING : CHAR;
      break;
    }
  }
  if (s == SLASH)
    *out++ = '/';
  *out = '\0';
}

int main(void)
{
  static const char src[] =
    "/* header comment */\n"
    "int x = 1; // count\n"
    "char *s = \"not // a comment\", c = '\\'';\n"
    "int y = x / 2; /** stars **/ int z = 3;\n"
    "const char *e = \"esc \\\" /* still string */\";\n"
    "// last line comment\n"
    "a = b /";
  char out[sizeof src];
  struct stats st;
  unsigned long h = 0;
  const char *p;
  int bad = 0;

  strip(src, out, &st);
  fputs(out, stdout);
  putchar('\n');
  for (p = out; *p; p++)
    h = h * 131 + (unsigned char)*p;
  printf("code %d comment %d strings %d comments %d lines %d hash %lu\n",
         st.code_chars, st.comment_chars, st.strings, st.comments, st.lines, h % 1000003);
  if (st.code_chars != 130 || st.comment_chars != 53 || st.strings != 2 || st.comments != 4 || st.lines != 6
      || h % 1000003 != 247776)
    bad = 1;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
