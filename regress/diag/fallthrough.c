/* A case that falls into the next without an annotation: gcc -Werror=implicit-fallthrough fails
   (through pathcc it used to succeed: its code before the label carried a fallthrough comment). */
/* diag: -Werror=implicit-fallthrough */
int classify(int x)
{
  int r = 0;
  switch (x) {
  case 1: r++;
  case 2: r += 2; break;
  case 3:
    if (r)
      r--;
  default:
    r *= 3;
  }
  return r;
}
