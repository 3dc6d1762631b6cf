/* libFuzzer harness for the log importer (translator/pathprof/importlog.c): any log is imported or not. */
#include "pathprof/commands.h"
#include "profile/profile.h"
#include <stdint.h>
#include <stdio.h>

/* Whatever the bytes, importing must not crash or leak; what it keeps is a canonical profile,
   which must merge into an empty one without error. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct pp_profile p, copy = {0, 0};
  char err[512];

  pp_import_buffer("fuzz.log", (const char *)data, size, &p);
  if (pp_profile_merge(&copy, &p, err, sizeof err) != 0)
    __builtin_trap();
  pp_profile_free(&copy);
  pp_profile_free(&p);
  return 0;
}
