/* Preferential path numbering (Vaswani-Nori-Chilimbi, POPL 2007): compact ids for interesting paths. */
#ifndef PP_PPP_H
#define PP_PPP_H
#include "graph.h"

/* The PPP numbering of one function for a set of interesting Ball-Larus paths. */
typedef struct {
  size_t n;          /* interesting paths */
  uint64_t *bl;      /* their Ball-Larus ids, ascending, distinct */
  uint64_t *id;      /* their PPP ids, id[i] for bl[i] */
  int64_t *w;        /* PPP weight of every edge of the graph (0 on edges no interesting path takes) */
  uint64_t slots;    /* max PPP id + 1 (the least id is 0); 0 when n == 0 */
} PPPNumbering;

/* ComputePPPIncrements over g (numbered by pp_number_paths) for the paths ids[0..n): ids that
   are no path of g are dropped, duplicates merged. Returns 0, or -1 when a weight would pass
   2^62 (then out keeps the set, with no ids: slots 0, every weight 0). */
int pp_ppp_number(const PPGraph *g, const uint64_t *ids, size_t n, PPPNumbering *out);
/* Compactness (max id - min id + 1) / |I|; 0 for an empty set. */
double pp_ppp_lambda(const PPPNumbering *p);
/* Bits of the register's Ball-Larus field: the least k with 2^k >= npaths. */
int pp_ppp_bits(uint64_t npaths);
/* The one-register encoding: PPP weight in the high bits, Ball-Larus value in the low k
   (mod 2^64, so sums along a path keep both fields exact for interesting paths). */
uint64_t pp_ppp_combined(int64_t w, uint64_t val, int k);
/* Slot of Ball-Larus id bl in p, or -1 when bl is not interesting. */
int64_t pp_ppp_slot(const PPPNumbering *p, uint64_t bl);
/* The expect table's size: the least power of two >= slots, so a path end can index it with
   (r >> k) & (size - 1) and needs no bounds check. */
uint64_t pp_ppp_table_size(const PPPNumbering *p);
/* Per slot q of that table, the register value a path end must hold to count in q: the slot's
   interesting path encoded, or for a hole (q >= slots included) (q ^ 1) << k, whose slot field
   is not q, so no register value that indexes q equals it. Allocated. */
uint64_t *pp_ppp_expect(const PPPNumbering *p, int k);
void pp_ppp_free(PPPNumbering *p);
#endif
