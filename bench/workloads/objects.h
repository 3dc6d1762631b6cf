/* bench workload "objects": a dynamic object model in the style of CPython's object.h, whose
   small static inline helpers (type tests, reference counts, sizes, item access) every unit that
   includes this header compiles for itself and calls at almost every step. */
#ifndef OBJECTS_H
#define OBJECTS_H
#include <stddef.h>
#include <stdint.h>

enum kind { K_INT, K_STR, K_LIST, K_DICT };
struct type { const char *name; enum kind kind; unsigned long flags; };
#define TF_HASHABLE 1UL
#define TF_SEQUENCE 2UL

typedef struct object { long refcnt; const struct type *type; } object;
typedef struct { object ob; long value; } intobj;
typedef struct { object ob; size_t len; uint64_t hash; char text[24]; } strobj;
typedef struct { object ob; size_t len, cap; object **items; } listobj;
typedef struct { object *key, *value; uint64_t hash; } entry;
typedef struct { object ob; size_t used, cap; entry *table; } dictobj;

extern const struct type int_type, str_type, list_type, dict_type;
extern long live_objects;

static inline const struct type *ob_type(const object *o) { return o->type; }
static inline int is_type(const object *o, const struct type *t) { return ob_type(o) == t; }
static inline int has_flag(const object *o, unsigned long f) { return (ob_type(o)->flags & f) != 0; }
static inline int is_int(const object *o) { return is_type(o, &int_type); }
static inline int is_str(const object *o) { return is_type(o, &str_type); }
static inline int is_list(const object *o) { return is_type(o, &list_type); }
static inline void incref(object *o) { o->refcnt++; }
static inline long int_value(const object *o) { return ((const intobj *)o)->value; }
static inline size_t list_len(const object *o) { return ((const listobj *)o)->len; }
static inline object *list_item(const object *o, size_t i) { return ((const listobj *)o)->items[i]; }
static inline size_t str_len(const object *o) { return ((const strobj *)o)->len; }

void dealloc(object *o);
static inline void decref(object *o) { if (--o->refcnt == 0) dealloc(o); }
static inline void xdecref(object *o) { if (o) decref(o); }

object *new_int(long v);
object *new_str(const char *s);
object *new_list(void);
object *new_dict(void);
int list_append(object *list, object *item);    /* steals nothing: the list takes its own reference */
uint64_t hash_of(object *o);
int equal(object *a, object *b);
int compare(object *a, object *b);
object *dict_get(object *dict, object *key);     /* borrowed, or NULL */
int dict_set(object *dict, object *key, object *value);
void list_sort(object *list);
#endif
