/* pathcc's compile server (server.c): a process that keeps libclang loaded across units. */
#ifndef PP_SERVER_H
#define PP_SERVER_H
#include <stdbool.h>

/* pathcc's normal path for one invocation (argv as given); returns the exit status. */
typedef int (*PPMain)(int argc, char **argv);

/* `pathcc --server`: serves in the foreground until idle or SIGTERM; returns the exit status. */
int pp_server_main(PPMain run);

/* Hands this invocation to a running server. True when the server ran it: *status is then the
   exit status to return (a worker killed by a signal has been re-raised here). False when it is
   to be compiled in-process (no server, which is then started for the next ones; any problem
   of the server's; PATHCC_SERVER=0; already inside a server's worker). */
bool pp_server_delegate(int argc, char **argv, bool verbose, int *status);

#endif
