/* libFuzzer harness for the tables reader (translator/model/tables.c): any text is read or refused. */
#include "model/tables.h"
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

/* Whatever the bytes, reading must not crash or leak, and a refusal says why. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  PPTables t;
  char *err = NULL;

  if (pp_tables_parse((const char *)data, size, "fuzz.pp.json", &t, &err) != 0) {
    assert(err && *err);
    free(err);
    return 0;
  }
  assert(err == NULL);
  pp_tables_free(&t);
  return 0;
}
