/* Fallthrough attributes from a macro, as a well-known database engine's amalgamation spells them:
   after a plain statement, at the end of a case's compound, after an if that returns; pathcc's
   code must go before each, so that each stays right before its case label (gcc warned "attribute
   'fallthrough' not preceding a case label" ten times). */
/* diag: -std=gnu99 -Wall -Wextra -Wimplicit-fallthrough -Werror */
#if defined(__GNUC__) && !defined(__TINYC__)
# define deliberate_fall_through __attribute__((fallthrough));
#else
# define deliberate_fall_through
#endif
int token(const unsigned char *z, int *type)
{
  int i = 0;
  switch (z[0]) {
    case '.': {
      if (z[1] < '0' || z[1] > '9') {
        *type = 1;
        return 1;
      }
      /* no break */ deliberate_fall_through
    }
    case '0': {
      i = 1;
      break;
    }
    case 'x': {
      if (z[1] == '\'') { *type = 2; return 2; }
      /* no break */ deliberate_fall_through
    }
    case 'a': case 'b':
      i = 3;
      /* no break */ deliberate_fall_through
    case 'c':
      deliberate_fall_through
    case 'd':
      i++;
      if (i > 3)
        i = 0;
      deliberate_fall_through
    default:
      i++;
  }
  return i;
}
