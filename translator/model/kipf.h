/* k-slab forest (as dumped by the runtime) -> k-iteration path forest, by the thesis's join. */
#ifndef PP_KIPF_H
#define PP_KIPF_H
#include "util.h"
#include "profile/profile.h"

/* One node of a k-IPF: the n-gram spelled by the labels from its root down to it (n = depth + 1)
   occurred `count` times. Links are node indices, -1 for none. */
typedef struct {
  uint64_t label, count;
  int parent, child, sib;
  unsigned depth;
} PPKNode;

/* A k-IPF: the prefix forest of every n-gram (n <= k) of the stream's ids with no marker inside. */
typedef struct {
  VEC(PPKNode) nodes;
  int first_root;     /* roots chained through sib, by increasing label; -1 when empty */
  unsigned k;
} PPKipf;

/* make_k_ipf with join depth k (2 <= k <= the forest's k; a smaller k gives the k-IPF of the
   same stream): for each distinct id r, every subtree of depth up to k rooted at a k-SF node
   labelled r is joined under the root r, counters added. */
void pp_kipf_build(const struct pp_forest *ksf, unsigned k, PPKipf *out);
void pp_kipf_free(PPKipf *t);

/* Nodes with a count, hottest first (ties by index): the siblings from `first` on (follow sib;
   t->first_root for the roots) when depth is negative, else every node at that depth (0 for
   the roots). Returns a malloc'd array of *n node indices. */
int *pp_kipf_ranked(const PPKipf *t, int first, int depth, size_t *n);

/* The ids of the n-gram of node i, root first, into ids[] (capacity cap >= depth + 1);
   returns n. */
int pp_kipf_ngram(const PPKipf *t, int i, uint64_t *ids, int cap);
#endif
