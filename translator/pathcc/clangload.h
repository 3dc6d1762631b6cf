/* libclang loaded on first use (clangload.c): pathcc runs without it until a unit is parsed. */
#ifndef PP_CLANGLOAD_H
#define PP_CLANGLOAD_H

/* Loads libclang and resolves every function pathcc calls; 0 when done (now or before), else -1
   with *err (the caller's to free) naming the library and the loader's reason. */
int pp_clang_load(char **err);

#endif
