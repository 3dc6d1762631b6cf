/* pathprof kpaths: the hottest k-iteration paths of kpath builds, decoded to source lines. */
#ifndef PP_KPATHS_H
#define PP_KPATHS_H
/* pathprof kpaths [--k N] [--top M] [--function F] [--tree] [--json] [PROFILE] */
int pp_cmd_kpaths(int argc, char **argv);
#endif
