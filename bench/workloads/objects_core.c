/* bench workload "objects": the object model's types (objects.h): integers, strings, lists and
   open-addressing dictionaries with reference counts, as an interpreter's runtime has them. */
#include "objects.h"
#include <stdlib.h>
#include <string.h>

const struct type int_type = { "int", K_INT, TF_HASHABLE };
const struct type str_type = { "str", K_STR, TF_HASHABLE | TF_SEQUENCE };
const struct type list_type = { "list", K_LIST, TF_SEQUENCE };
const struct type dict_type = { "dict", K_DICT, 0 };
long live_objects;

static void *alloc(size_t n, const struct type *t) {
  object *o = malloc(n);
  if (!o) abort();
  o->refcnt = 1;
  o->type = t;
  live_objects++;
  return o;
}

object *new_int(long v) {
  intobj *o = alloc(sizeof *o, &int_type);
  o->value = v;
  return &o->ob;
}

object *new_str(const char *s) {
  strobj *o = alloc(sizeof *o, &str_type);
  size_t n = strlen(s);
  if (n >= sizeof o->text) n = sizeof o->text - 1;
  memcpy(o->text, s, n);
  o->text[n] = 0;
  o->len = n;
  o->hash = 0;
  return &o->ob;
}

object *new_list(void) {
  listobj *o = alloc(sizeof *o, &list_type);
  o->len = 0, o->cap = 0, o->items = NULL;
  return &o->ob;
}

object *new_dict(void) {
  dictobj *o = alloc(sizeof *o, &dict_type);
  o->used = 0, o->cap = 8;
  o->table = calloc(o->cap, sizeof *o->table);
  if (!o->table) abort();
  return &o->ob;
}

void dealloc(object *o) {
  live_objects--;
  if (is_list(o)) {
    listobj *l = (listobj *)o;
    for (size_t i = 0; i < l->len; i++) decref(l->items[i]);
    free(l->items);
  } else if (is_type(o, &dict_type)) {
    dictobj *d = (dictobj *)o;
    for (size_t i = 0; i < d->cap; i++)
      if (d->table[i].key) { decref(d->table[i].key); decref(d->table[i].value); }
    free(d->table);
  }
  free(o);
}

int list_append(object *list, object *item) {
  listobj *l = (listobj *)list;
  if (l->len == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 4;
    object **items = realloc(l->items, cap * sizeof *items);
    if (!items) return -1;
    l->items = items, l->cap = cap;
  }
  incref(item);
  l->items[l->len++] = item;
  return 0;
}

uint64_t hash_of(object *o) {
  if (is_int(o)) return (uint64_t)int_value(o) * 0x9E3779B97F4A7C15ULL;
  strobj *s = (strobj *)o;
  if (!s->hash) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < s->len; i++) h = (h ^ (unsigned char)s->text[i]) * 0x100000001b3ULL;
    s->hash = h ? h : 1;
  }
  return s->hash;
}

int equal(object *a, object *b) {
  if (a == b) return 1;
  if (ob_type(a) != ob_type(b)) return 0;
  if (is_int(a)) return int_value(a) == int_value(b);
  if (is_str(a)) return str_len(a) == str_len(b) && !memcmp(((strobj *)a)->text, ((strobj *)b)->text, str_len(a));
  return 0;
}

/* Integers before strings; integers by value, strings by text. */
int compare(object *a, object *b) {
  if (is_int(a) && is_int(b)) return int_value(a) < int_value(b) ? -1 : int_value(a) > int_value(b);
  if (is_int(a) != is_int(b)) return is_int(a) ? -1 : 1;
  return strcmp(((strobj *)a)->text, ((strobj *)b)->text);
}

static entry *lookup(dictobj *d, object *key, uint64_t h) {
  size_t mask = d->cap - 1, i = (size_t)h & mask;
  for (size_t perturb = (size_t)h;; perturb >>= 5) {
    entry *e = &d->table[i];
    if (!e->key || (e->hash == h && equal(e->key, key))) return e;
    i = (i * 5 + perturb + 1) & mask;
  }
}

object *dict_get(object *dict, object *key) {
  if (!has_flag(key, TF_HASHABLE)) return NULL;
  entry *e = lookup((dictobj *)dict, key, hash_of(key));
  return e->key ? e->value : NULL;
}

static int grow(dictobj *d) {
  entry *old = d->table;
  size_t n = d->cap;
  d->cap *= 2;
  d->table = calloc(d->cap, sizeof *d->table);
  if (!d->table) return -1;
  for (size_t i = 0; i < n; i++)
    if (old[i].key) *lookup(d, old[i].key, old[i].hash) = old[i];
  free(old);
  return 0;
}

int dict_set(object *dict, object *key, object *value) {
  dictobj *d = (dictobj *)dict;
  if (!has_flag(key, TF_HASHABLE)) return -1;
  if (3 * (d->used + 1) > 2 * d->cap && grow(d)) return -1;
  uint64_t h = hash_of(key);
  entry *e = lookup(d, key, h);
  incref(value);
  if (e->key) { decref(e->value); e->value = value; return 0; }
  incref(key);
  e->key = key, e->value = value, e->hash = h;
  d->used++;
  return 0;
}

/* Insertion sort of runs of 16, then merges: a list of a few thousand items. */
void list_sort(object *list) {
  listobj *l = (listobj *)list;
  size_t n = l->len;
  object **tmp = malloc(n * sizeof *tmp);
  if (!tmp && n) abort();
  for (size_t lo = 0; lo < n; lo += 16) {
    size_t hi = lo + 16 < n ? lo + 16 : n;
    for (size_t i = lo + 1; i < hi; i++) {
      object *x = l->items[i];
      size_t j = i;
      while (j > lo && compare(l->items[j - 1], x) > 0) { l->items[j] = l->items[j - 1]; j--; }
      l->items[j] = x;
    }
  }
  for (size_t w = 16; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, a = lo, b = mid, k = lo;
      while (a < mid && b < hi) tmp[k++] = compare(l->items[b], l->items[a]) < 0 ? l->items[b++] : l->items[a++];
      while (a < mid) tmp[k++] = l->items[a++];
      while (b < hi) tmp[k++] = l->items[b++];
      memcpy(l->items + lo, tmp + lo, (hi - lo) * sizeof *tmp);
    }
  }
  free(tmp);
}
