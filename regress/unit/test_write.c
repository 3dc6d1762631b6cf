/* test_write.c: the profile writer's two encoders, of a whole profile (pp_profile_encode) and of a
   runtime's sparse snapshot (pp_profile_encode_sparse), give the same bytes for the same counts:
   dense and sparse unit records, hash entries, partial paths and the dropped count. */
#include "profile/profile.h"
#include "check.h"
#include <stdlib.h>
#include <string.h>

static unsigned long long dense_c[4] = { 5, 0, 7, 1 }, sparse_c[12] = { 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 3 };
static unsigned long long sparse_idx[2] = { 2, 11 }, sparse_val[2] = { 9, 3 }, dense_idx[3] = { 0, 2, 3 },
                          dense_val[3] = { 5, 7, 1 };
static struct pp_hent hash[2] = { { 0, 17, 4 }, { 1, 99, 2 } };
static struct pp_part part[2] = { { 0, 3, 1, 2 }, { 1, 5, 0, 1 } };

/* Unit i as a record (counters c) and as a sparse unit (nset of them nonzero, at idx). */
static void set_unit(struct pp_unitrec *u, struct pp_sparse *s, unsigned long long checksum, const char *name,
                     unsigned long long n, unsigned long long *c, unsigned long long nset, const unsigned long long *idx,
                     const unsigned long long *val)
{
  u->checksum = s->checksum = checksum;
  u->name = (char *)name;
  s->name = name;
  u->ncounters = s->ncounters = n;
  u->counters = c;
  s->nset = nset;
  s->idx = idx;
  s->val = val;
}

/* The same two units (one dense, one best written sparse; hash entries, partial paths and a
   dropped count on them) as a profile and as sparse units; bytes of each encoder compared. */
static void test_same_bytes(void)
{
  struct pp_unitrec u[2];
  struct pp_sparse s[2];
  struct pp_profile p;
  unsigned char *a = 0, *b = 0;
  size_t na = 0, nb = 0;

  memset(u, 0, sizeof u);
  memset(s, 0, sizeof s);
  memset(&p, 0, sizeof p);
  set_unit(&u[0], &s[0], 0x11, "a.pp.json", 4, dense_c, 3, dense_idx, dense_val);
  set_unit(&u[1], &s[1], 0x22, "b.pp.json", 12, sparse_c, 2, sparse_idx, sparse_val);
  u[0].nhash = s[0].nhash = 2;
  u[0].hash = hash;
  s[0].hash = hash;
  u[0].dropped = s[0].dropped = 6;
  u[0].npart = s[0].npart = 2;
  u[0].part = part;
  s[0].part = part;
  s[1].part_dropped = 8; /* the stream holds the sum, from any unit */
  p.nunits = 2;
  p.units = u;
  p.part_dropped = 8;
  check("encode", pp_profile_encode(&p, &a, &na) == 0 && pp_profile_encode_sparse(s, 2, &b, &nb) == 0, "an encoder failed");
  check("same bytes", a && b && na == nb && !memcmp(a, b, na), "%zu bytes from the profile, %zu from the sparse units", na, nb);
  free(a);
  free(b);
}

int main(void)
{
  test_same_bytes();
  return failures != 0;
}
