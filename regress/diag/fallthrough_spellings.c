/* Every spelling of a deliberate fall: the GNU attribute (both names), C2x [[fallthrough]] and
   [[gnu::fallthrough]], and the comments GCC reads; none may end up away from its label. */
/* diag: -std=c2x -Wall -Wextra -Wimplicit-fallthrough -Werror */
int spell(int x)
{
  switch (x) {
  case 1: x += 2; __attribute__((fallthrough));
  case 2: x *= 3; __attribute__((__fallthrough__));
  case 3: x--; [[fallthrough]];
  case 4: x++; [[gnu::fallthrough]];
  case 5: { x <<= 1; [[fallthrough]]; }
  case 6:
    x ^= 5;
    /* FALLTHRU */
  case 7:
    x -= 7;
    // fall through
  case 8:
    x += 8;
    /* Falls through. */
  default:
    x++;
  }
  return x;
}
