/* server: pathcc's compile server, which runs whole invocations with libclang already loaded. */
#define _GNU_SOURCE
#include "server.h"
#include "clangload.h"
#include "model/util.h"
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAGIC 0x70707331u        /* "pps1" */
#define NLIMITS 16               /* RLIMIT_CPU .. RLIMIT_RTTIME on Linux */
#define MAX_BODY (64u << 20)     /* arguments and environment; more is no request of ours */
enum { MSG_PID = 1, MSG_STATUS = 2 };
#define GO 'G'                   /* the client's answer to MSG_PID: run it (it has not given up) */

/* What a client sends besides its file descriptors (cwd, 0, 1, 2); then len bytes of argc
   arguments and envc environment strings, each ending in a NUL. Client and server are the
   same binary (the socket is named by it), so the layout is shared as it is. */
typedef struct {
  uint32_t magic, umask, argc, envc, len;
  struct rlimit limits[NLIMITS];
} Request;

/* The server's answers: the worker's pid when it starts, then its wait status. */
typedef struct {
  int32_t kind, value;
} Reply;

static bool in_worker;           /* this process runs an invocation for a client */
static volatile sig_atomic_t stop_server;
static volatile pid_t forward_to;

/* ---- where the socket lives ---- */

/* The directory only this user may use: $XDG_RUNTIME_DIR/pathcc, else /tmp/pathcc-UID (not
   $TMPDIR: pathcc leaves nothing there, and builds that set one per job remove it after). A
   directory someone else owns, others may enter, or a link planted in its place is refused. */
static char *private_dir(char **why) {
  const char *xdg = getenv("XDG_RUNTIME_DIR");
  char *dir = xdg && *xdg ? pp_xasprintf("%s/pathcc", xdg) : pp_xasprintf("/tmp/pathcc-%ld", (long)getuid());
  struct stat st;
  if (mkdir(dir, 0700) == 0) chmod(dir, 0700);  /* the umask may have taken bits off */
  if (lstat(dir, &st) != 0) *why = pp_xasprintf("%s: %s", dir, strerror(errno));
  else if (!S_ISDIR(st.st_mode)) *why = pp_xasprintf("%s is not a directory", dir);
  else if (st.st_uid != getuid()) *why = pp_xasprintf("%s belongs to uid %ld", dir, (long)st.st_uid);
  else if ((st.st_mode & 07777) != 0700) *why = pp_xasprintf("%s has mode %04o, not 0700", dir, (unsigned)(st.st_mode & 07777));
  else return dir;
  free(dir);
  return NULL;
}

/* The socket's name hashes this binary's identity, so a rebuilt or other pathcc never talks
   to a server running older code (whose protocol or output may differ), and the root and the
   mount and pid namespaces: a chroot or container sharing /tmp must not have its paths resolved,
   or its signals sent, in another's. */
static char *socket_path(char **why) {
  struct stat st, root, mnt, pid;
  if (stat("/proc/self/exe", &st) != 0) { *why = pp_xasprintf("/proc/self/exe: %s", strerror(errno)); return NULL; }
  if (stat("/", &root) != 0) memset(&root, 0, sizeof root);
  if (stat("/proc/self/ns/mnt", &mnt) != 0) memset(&mnt, 0, sizeof mnt);
  if (stat("/proc/self/ns/pid", &pid) != 0) memset(&pid, 0, sizeof pid);
  char *dir = private_dir(why);
  if (!dir) return NULL;
  long long id[9] = { (long long)st.st_dev, (long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtime,
                      (long long)root.st_dev, (long long)root.st_ino, (long long)mnt.st_ino, (long long)pid.st_ino,
                      (long long)mnt.st_dev };
  char *path = pp_xasprintf("%s/s-%016llx", dir, (unsigned long long)pp_fnv1a(PP_FNV_BASIS, id, sizeof id));
  free(dir);
  if (strlen(path) >= sizeof ((struct sockaddr_un *)0)->sun_path) {
    *why = pp_xasprintf("%s: name too long for a socket", path);
    free(path);
    return NULL;
  }
  return path;
}

/* An AF_UNIX address for path (whose length socket_path checked: a name cut short would be
   another socket). */
static struct sockaddr_un address(const char *path) {
  struct sockaddr_un a;
  memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  memcpy(a.sun_path, path, strlen(path) + 1);
  return a;
}

/* ---- moving bytes and descriptors ---- */

/* Writes all of buf; MSG_NOSIGNAL, since a peer that went away is an error here, not a
   reason for this process to die of SIGPIPE. */
static int send_all(int s, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t w = send(s, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Reads exactly n bytes; -1 on an early end (the peer closed) or an error. */
static int recv_all(int s, void *buf, size_t n) {
  char *p = buf;
  while (n) {
    ssize_t r = recv(s, p, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

/* Sends len bytes of buf with nfds (at most 4) descriptors attached (SCM_RIGHTS): the request
   header with the client's directory and stdio, or one byte with the connection the server
   hands a worker. */
static int send_fds(int s, const void *buf, size_t len, const int *fds, int nfds) {
  union { char buf[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } u;
  assert(nfds >= 1 && nfds <= 4);
  struct iovec iov = { (void *)buf, len };
  struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
                      .msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int)) };
  struct cmsghdr *c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
  memcpy(CMSG_DATA(c), fds, (size_t)nfds * sizeof(int));
  ssize_t w;
  while ((w = sendmsg(s, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR) {}
  return w == (ssize_t)len ? 0 : -1;
}

/* Receives len bytes into buf with exactly nfds descriptors (close-on-exec); -1 for anything
   else (fewer descriptors, a short read, a truncated control message), with any descriptors
   that came closed. */
static int recv_fds(int s, void *buf, size_t len, int *fds, int nfds) {
  union { char buf[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } u;
  assert(nfds >= 1 && nfds <= 4);
  struct iovec iov = { buf, len };
  struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
  ssize_t n;
  while ((n = recvmsg(s, &m, MSG_CMSG_CLOEXEC | MSG_WAITALL)) < 0 && errno == EINTR) {}
  struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&m) : NULL;
  if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) return -1;
  int got = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
  memcpy(fds, CMSG_DATA(c), (size_t)(got < nfds ? got : nfds) * sizeof(int));
  if (got == nfds && n == (ssize_t)len && !(m.msg_flags & MSG_CTRUNC)) return 0;
  for (int i = 0; i < got && i < nfds; i++) close(fds[i]);
  return -1;
}

/* The request header and its four descriptors; anything else (a wrong magic, a body too
   large) is no request of ours. */
static int recv_request(int s, Request *r, int fds[4]) {
  if (recv_fds(s, r, sizeof *r, fds, 4)) return -1;
  if (r->magic == MAGIC && r->len <= MAX_BODY) return 0;
  for (int i = 0; i < 4; i++) close(fds[i]);
  return -1;
}

/* ---- the client ---- */

/* The strings of argv and the environment, each with its NUL, one after the other. */
static char *request_body(int argc, char **argv, Request *r) {
  size_t len = 0, envc = 0;
  for (int i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
  for (; environ[envc]; envc++) len += strlen(environ[envc]) + 1;
  char *body = pp_xmalloc(len ? len : 1), *p = body;
  for (int i = 0; i < argc; i++) p = stpcpy(p, argv[i]) + 1;
  for (size_t i = 0; i < envc; i++) p = stpcpy(p, environ[i]) + 1;
  r->argc = (uint32_t)argc;
  r->envc = (uint32_t)envc;
  r->len = (uint32_t)len;
  return body;
}

/* Sends the whole invocation: arguments, environment, umask and limits, with the working
   directory (an O_PATH descriptor) and fds 0, 1 and 2, so the worker runs as this process would. */
static int send_request(int s, int argc, char **argv) {
  Request r;
  memset(&r, 0, sizeof r);
  r.magic = MAGIC;
  mode_t m = umask(0);
  umask(m);
  r.umask = (uint32_t)m;
  for (int i = 0; i < NLIMITS; i++)
    if (getrlimit(i, &r.limits[i])) r.limits[i].rlim_cur = r.limits[i].rlim_max = RLIM_INFINITY;
  char *body = request_body(argc, argv, &r);
  int fds[4] = { open(".", O_PATH | O_DIRECTORY | O_CLOEXEC), 0, 1, 2 };
  int rc = fds[0] < 0 || r.len > MAX_BODY || send_fds(s, &r, sizeof r, fds, 4) || send_all(s, body, r.len) ? -1 : 0;
  if (fds[0] >= 0) close(fds[0]);
  free(body);
  return rc;
}

/* Connects to the server at path, refusing one run by another user (a socket left by someone
   who could once write the directory). Returns the socket or -1 with errno from connect. */
static int connect_server(const char *path) {
  struct sockaddr_un a = address(path);
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return -1;
  struct ucred cr;
  socklen_t n = sizeof cr;
  if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) {
    if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cr, &n) == 0 && cr.uid == getuid()) return s;
    errno = EPERM;
  }
  int e = errno;
  close(s);
  errno = e;
  return -1;
}

/* Closes every descriptor from `from` up: a server started by a compile under make must not
   hold the jobserver's pipes or the build log's pipe open for as long as it lives, nor a worker
   the server's socket or other clients' connections. */
static void close_inherited(int from) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, (unsigned)from, ~0u, 0u) == 0) return;
#endif
  long max = sysconf(_SC_OPEN_MAX);
  for (long fd = from; fd < (max > 0 ? max : 65536); fd++) close((int)fd);
}

/* Starts a server, detached (double fork, own session, in /, stdio on /dev/null, nothing else
   inherited), and connects to it once it listens (at most 0.2 s): this compile then goes through
   it rather than load libclang a second time. Returns the connection, or -1 (in-process). */
static int start_server(const char *path) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid != 0) {
    if (pid > 0) while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    int s = -1;
    for (int i = 0; pid > 0 && s < 0 && i < 100; i++) {
      struct timespec two_ms = { 0, 2000000 };
      nanosleep(&two_ms, NULL);
      s = connect_server(path);
    }
    return s;
  }
  if (setsid() < 0 || fork() != 0) _exit(0);
  int null = open("/dev/null", O_RDWR);
  if (chdir("/") || null < 0) _exit(0);
  for (int fd = 0; fd < 3; fd++) dup2(null, fd);
  close_inherited(3);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  execl("/proc/self/exe", "pathcc", "--server", (char *)NULL);
  _exit(127);
}

/* Passes the client's signals on to the worker's process group, as the terminal or make
   would have sent them to an in-process pathcc and its compilers. Before the worker is known
   the signal ends the client as it would have ended pathcc: the server, finding the
   connection closed, then ends the worker if it has started one. */
static void forward(int sig) {
  if (forward_to > 0) {
    kill(-forward_to, sig);
    return;
  }
  signal(sig, SIG_DFL);
  raise(sig);  /* delivered when this handler returns */
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFORWARDED (sizeof forwarded / sizeof *forwarded)

/* Installs forward() for the forwarded signals (saving the old handlers in old), keeping those
   the caller ignores ignored (nohup): the worker would have ignored them too. */
static void forward_signals(struct sigaction old[NFORWARDED]) {
  forward_to = 0;
  for (size_t i = 0; i < NFORWARDED; i++) {
    struct sigaction sa;
    if (sigaction(forwarded[i], NULL, &old[i]) == 0 && old[i].sa_handler == SIG_IGN) continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward;
    sigaction(forwarded[i], &sa, NULL);
  }
}

/* The caller's handlers back, for an in-process compile: pathcc then dies of these signals as
   it did before there was a server. */
static void restore_signals(const struct sigaction old[NFORWARDED]) {
  for (size_t i = 0; i < NFORWARDED; i++) sigaction(forwarded[i], &old[i], NULL);
}

/* The client's end: the worker's wait status becomes ours, a signal re-raised as itself, so
   make or the shell sees what an in-process pathcc killed by it would have shown. */
static int finish(int st) {
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  int sig = WIFSIGNALED(st) ? WTERMSIG(st) : SIGKILL;
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  return 128 + sig;
}

/* Why this invocation runs in-process, for --verbose; the build itself never hears of it (a
   server's problem must not change a build's output). Returns false, for the caller to return. */
static bool in_process(bool verbose, char *why) {
  if (verbose && why) fprintf(stderr, "pathcc: compiled in-process: %s\n", why);
  free(why);
  return false;
}

/* Runs the request on an open connection; false (nothing run) when the server fails before
   its worker starts, or drops the connection after (the worker's group is then killed and
   the unit compiled here, from the start). A server that does not answer within 5 s (stopped,
   swamped) counts as failed: a worker runs nothing (reads no stdin) before the client's go,
   which a client that gave up never sends. */
static bool delegate_on(int s, const char *path, int argc, char **argv, bool verbose, int *status) {
  struct sigaction old[NFORWARDED];
  struct timeval wait = { 5, 0 }, forever = { 0, 0 };
  Reply pid, st;
  forward_signals(old);
  if (setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait) || send_request(s, argc, argv) ||
      recv_all(s, &pid, sizeof pid) || pid.kind != MSG_PID || pid.value <= 0) {
    restore_signals(old);
    return in_process(verbose, pp_xasprintf("the server at %s did not take the request", path));
  }
  /* said before the go: once it has it, the worker writes to the same stderr */
  if (verbose) fprintf(stderr, "pathcc: via compile server %s (worker %d)\n", path, (int)pid.value);
  char go = GO;  /* the worker runs nothing before this: a client that gave up has not sent it */
  if (send_all(s, &go, 1)) {
    restore_signals(old);
    return in_process(verbose, pp_xasprintf("the server at %s did not take the request", path));
  }
  forward_to = pid.value;
  if (setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &forever, sizeof forever) || recv_all(s, &st, sizeof st) ||
      st.kind != MSG_STATUS) {
    kill(-(pid_t)pid.value, SIGKILL);
    restore_signals(old);
    return in_process(verbose, pp_xasprintf("the server at %s went away during the compile", path));
  }
  *status = finish(st.value);
  return true;
}

/* A source typed on a terminal (-x c - with stdin a tty): the worker, in another session,
   could not read it, so such a compile stays in-process. */
static bool reads_terminal(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-")) return isatty(0);
  return false;
}

static int idle_seconds(void);

/* Whether a compile finding no server should start one: a one-unit build should not pay for a
   server it never uses, so the first such compile only leaves a mark beside the socket, and a
   compile that finds a mark younger than the idle time (the build's second unit) starts it. */
static bool second_compile(const char *path) {
  char *mark = pp_xasprintf("%s.wanted", path);
  struct stat st;
  bool recent = stat(mark, &st) == 0 && time(NULL) - st.st_mtime <= idle_seconds();
  int fd = recent ? -1 : open(mark, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0) {
    futimens(fd, NULL);
    close(fd);
  }
  free(mark);
  return recent;
}

/* Finds the server (starting one at a build's second compile) and hands it the invocation;
   every way this can fail ends in false and an in-process compile (server.h). */
bool pp_server_delegate(int argc, char **argv, bool verbose, int *status) {
  const char *env = getenv("PATHCC_SERVER");
  if (in_worker || (env && !strcmp(env, "0"))) return false;
  if (reads_terminal(argc, argv)) return in_process(verbose, pp_xasprintf("the source comes from a terminal"));
  char *why = NULL, *path = socket_path(&why);
  if (!path) {
    in_process(verbose, pp_xasprintf("no compile server: %s", why));
    free(why);
    return false;
  }
  int s = connect_server(path);
  if (s < 0) {
    int e = errno;
    bool absent = e == ENOENT || e == ECONNREFUSED, start = absent && second_compile(path);
    if (start) s = start_server(path);
    if (s < 0) {
      in_process(verbose, !absent ? pp_xasprintf("the server at %s refused: %s", path, strerror(e))
                          : pp_xasprintf("no compile server at %s yet (%s)", path,
                                         start ? "it did not start" : "one starts at the next compile"));
      free(path);
      return false;
    }
  }
  bool done = delegate_on(s, path, argc, argv, verbose, status);
  close(s);
  free(path);
  return done;
}

/* ---- the workers ---- */

/* A worker is a process forked from the server that runs requests one after another, so the
   libclang code and heap pages its first parse faulted in serve every later unit: a process
   forked per request faulted them in anew each time (a fork copies no page table entries of
   file mappings), which cost more than the parse itself. It talks to the server over a socket
   pair: the server passes it a connection (SCM_RIGHTS); it answers one byte per state. */
enum { W_RUNNING = 'R', W_IDLE = 'D', W_QUIT = 'Q' };
#define WORKER_REQUESTS 256            /* a worker retires after this many requests ... */
#define WORKER_RSS (1024L << 20)       /* ... or once it holds this much memory */

/* The client's state taken on: environment, directory, umask, limits and stdio. Done before
   the worker starts, so a failure here is a refusal and the client compiles in-process. */
static int take_state(const Request *r, char *body, int fds[4], char ***argv) {
  char **v = pp_xcalloc((size_t)r->argc + r->envc + 2, sizeof(char *)), *p = body, *end = body + r->len;
  for (uint32_t i = 0; i < r->argc + r->envc; i++) {
    char *nul = p < end ? memchr(p, 0, (size_t)(end - p)) : NULL;
    if (!nul) return -1;
    v[i < r->argc ? i : i + 1] = p;
    p = nul + 1;
  }
  *argv = v;
  environ = v + r->argc + 1;
  if (fchdir(fds[0])) return -1;
  umask((mode_t)r->umask);
  for (int i = 0; i < NLIMITS; i++)  /* a limit the server cannot raise (it inherited a lower hard one) */
    if (setrlimit(i, &r->limits[i])) return -1;  /* would make the compile differ: it runs in-process */
  for (int i = 0; i < 3; i++)
    if (dup2(fds[i + 1], i) < 0) return -1;
  for (int i = 0; i < 4; i++) close(fds[i]);
  return 0;
}

/* Reads the peer's credentials: only a client of this user and group is served (the directory
   is private, but a socket passed on or a loosened mode must not let others run as us). */
static bool same_user(int c) {
  struct ucred cr;
  socklen_t n = sizeof cr;
  return getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &n) == 0 && cr.uid == getuid() && cr.gid == getgid();
}

/* Sends one state byte to the server; a server gone is no reason to stop the compile. */
static void tell(int ctl, char state) {
  while (send(ctl, &state, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {}
}

/* The next connection the server hands this worker, or -1 once the server closed the pair. */
static int recv_conn(int ctl) {
  char b;
  int fd;
  return recv_fds(ctl, &b, 1, &fd, 1) ? -1 : fd;
}

/* Hands connection c to the worker on ctl; -1 when the worker is gone. */
static int send_conn(int ctl, int c) {
  return send_fds(ctl, "C", 1, &c, 1);
}

/* Whether the client's limits are this worker's already: a request that changes them (a
   lowered hard limit cannot be raised back, a CPU limit counts the worker's past) is the
   worker's last. */
static bool same_limits(const Request *r) {
  for (int i = 0; i < NLIMITS; i++) {
    struct rlimit l;
    if (getrlimit(i, &l) == 0 && (l.rlim_cur != r->limits[i].rlim_cur || l.rlim_max != r->limits[i].rlim_max))
      return false;
  }
  return true;
}

/* Whether this worker has grown past WORKER_RSS (pathcc frees little of a unit's memory:
   a process used to end after each). */
static bool too_big(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, rss = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &size, &rss) != 2) rss = 0;
    fclose(f);
  }
  return rss * sysconf(_SC_PAGESIZE) > WORKER_RSS;
}

/* The worker's state between requests: no client's directory, environment or descriptors
   held (a terminal, a pipe make waits on), nothing left of the last one's stdin. */
static void settle(char **server_env, int null) {
  fflush(NULL);
  for (int i = 0; i < 3; i++) dup2(null, i);
  __fpurge(stdin);
  clearerr(stdin);
  clearerr(stdout);
  clearerr(stderr);
  environ = server_env;
  if (chdir("/")) {}
}

/* One request on connection c: take the client's state, send the client this worker's pid and
   wait for its go, tell the server it runs, run it, settle, and send the exit status. A client
   that gave up waiting (it compiles in-process) gets nothing run. Returns whether the worker may
   take another. */
static bool serve(int ctl, int c, PPMain run, char **server_env, int null) {
  Request r;
  int fds[4];
  char **argv = NULL, *body = NULL;
  bool again = true;
  struct pollfd gone = { c, POLLIN, 0 };
  if (recv_request(c, &r, fds)) goto refused;
  body = pp_xmalloc(r.len + 1);
  if (recv_all(c, body, r.len) || poll(&gone, 1, 0) != 0) {
    for (int i = 0; i < 4; i++) close(fds[i]);
    goto refused;
  }
  again = same_limits(&r);
  if (take_state(&r, body, fds, &argv)) _exit(0);  /* half taken: this worker is no longer clean */
  Reply pid = { MSG_PID, (int32_t)getpid() };
  char go = 0;
  if (send_all(c, &pid, sizeof pid) || recv_all(c, &go, 1) || go != GO) {
    settle(server_env, null);  /* the client gave up waiting (it compiles in-process): nothing ran */
    goto refused;
  }
  tell(ctl, W_RUNNING);  /* the server now answers for the run if this worker dies */
  int rc = run((int)r.argc, argv);
  settle(server_env, null);
  again = again && !too_big();
  tell(ctl, again ? W_IDLE : W_QUIT);  /* before the status: the client's close is then no hang-up */
  Reply end = { MSG_STATUS, (int32_t)((rc & 0xff) << 8) };  /* a wait status: exited with rc */
  send_all(c, &end, sizeof end);
  close(c);
  free(argv);
  free(body);
  return again;
refused:
  close(c);
  free(argv);
  free(body);
  tell(ctl, again ? W_IDLE : W_QUIT);
  return again;
}

/* The worker's life: its own process group (so the client's signals reach it and its
   compilers and nothing else), default signal handling, stdio on /dev/null between requests,
   then requests until the server closes the pair or the worker retires. It ends without exit
   handlers: pathcc has none, and libLLVM's destructors would only spend time. */
static void worker(int ctl, PPMain run) {
  setpgid(0, 0);
  in_worker = true;
  for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  char **server_env = environ;
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null < 0) _exit(0);
  settle(server_env, null);
  for (int n = 0; n < WORKER_REQUESTS; n++) {
    int c = recv_conn(ctl);
    if (c < 0 || !serve(ctl, c, run, server_env, null)) break;
  }
  tell(ctl, W_QUIT);
  _exit(0);
}

/* ---- the server ---- */

/* A worker as the server sees it: its pid and end of the pair; the connection it serves
   (the server's copy, -1 when idle), whether it runs it (the server then answers for it if it
   dies, and ends it if the client goes), and when a TERM sent to it turns into KILL. */
typedef struct {
  pid_t pid;
  int ctl, conn, status;
  bool running, quitting, exited;
  struct timespec kill_at;
} Worker;

typedef struct {
  Worker *v;
  size_t n, cap;
} Pool;

/* SIGTERM: the server stops accepting, waits for the compiles it runs, and exits; a flag, as
   the accept loop is where it can stop cleanly. */
static void on_term(int sig) {
  (void)sig;
  stop_server = 1;
}

/* The idle timeout in seconds: PATHCC_SERVER_IDLE, else 30 (also for a value that is no
   number of seconds up to a day, rather than a server that never goes or never starts). */
static int idle_seconds(void) {
  const char *v = getenv("PATHCC_SERVER_IDLE");
  char *end;
  long n = v && *v ? strtol(v, &end, 10) : 30;
  return v && *v && (*end || n <= 0 || n > 86400) ? 30 : (int)n;
}

/* Binds a fresh socket at a temporary name and renames it onto path once listening, so a
   client never finds a socket that refuses it. The lock (held while the server lives) keeps a
   second server from replacing the first; it holds the server's pid, for whoever stops it. */
static int listen_at(const char *path, int *lock) {
  char *lk = pp_xasprintf("%s.lock", path), *tmp = pp_xasprintf("%s.%ld", path, (long)getpid());
  *lock = open(lk, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  int s = -1;
  struct stat held, named;
  /* the lock counts only while its name is still this file: a server that stops removes it */
  if (*lock >= 0 && flock(*lock, LOCK_EX | LOCK_NB) == 0 && fstat(*lock, &held) == 0 && stat(lk, &named) == 0 &&
      held.st_ino == named.st_ino && held.st_dev == named.st_dev && ftruncate(*lock, 0) == 0) {
    dprintf(*lock, "%ld\n", (long)getpid());
    struct sockaddr_un a = address(tmp);
    s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    unlink(tmp);
    if (s >= 0 && (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 128) || rename(tmp, path))) {
      unlink(tmp);
      close(s);
      s = -1;
    }
  }
  free(lk);
  free(tmp);
  return s;
}

/* Starts a worker: a child holding its end of a fresh pair as its only descriptor beyond
   stdio (none of the server's socket, lock or other clients' connections). */
static Worker *add_worker(Pool *p, PPMain run) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) return NULL;
  pid_t pid = fork();
  if (pid == 0) {
    if (dup2(sv[1], 3) < 0) _exit(0);
    fcntl(3, F_SETFD, FD_CLOEXEC);
    close_inherited(4);
    worker(3, run);
  }
  close(sv[1]);
  if (pid < 0) {
    close(sv[0]);
    return NULL;
  }
  if (p->n == p->cap) p->v = pp_xrealloc(p->v, (p->cap = p->cap ? 2 * p->cap : 8) * sizeof *p->v);
  Worker *w = &p->v[p->n++];
  memset(w, 0, sizeof *w);
  w->pid = pid;
  w->ctl = sv[0];
  w->conn = -1;
  w->status = SIGKILL;
  setpgid(pid, pid);  /* also here: a client may signal the group before the worker runs */
  return w;
}

/* Hands a new connection to an idle worker, starting one when none is: the client, finding
   its connection closed unanswered, compiles in-process if that fails. */
static void dispatch(Pool *p, int c, PPMain run) {
  Worker *w = NULL;
  for (size_t i = 0; i < p->n && !w; i++)
    if (p->v[i].conn < 0 && !p->v[i].quitting) w = &p->v[i];
  if (!w) w = add_worker(p, run);
  if (!w || send_conn(w->ctl, c)) {
    close(c);
    return;
  }
  w->conn = c;
  w->running = false;
}

/* A state byte from worker w, or its end (the pair read as closed): a worker that died while
   it ran a request has its wait status sent to that client, as its own exit would have been. */
static void from_worker(Worker *w) {
  char b;
  ssize_t n;
  while ((n = recv(w->ctl, &b, 1, 0)) < 0 && errno == EINTR) {}
  if (n == 1 && b == W_RUNNING) {
    w->running = true;
    return;
  }
  if (n == 1) w->quitting = b == W_QUIT || w->kill_at.tv_sec;  /* one sent TERM is not reused */
  if (n != 1) {
    while (!w->exited && waitpid(w->pid, &w->status, 0) < 0 && errno == EINTR) {}
    Reply end = { MSG_STATUS, (int32_t)w->status };
    if (w->conn >= 0 && w->running) send_all(w->conn, &end, sizeof end);
    close(w->ctl);
    w->ctl = -1;
  }
  if (w->conn >= 0) close(w->conn);
  w->conn = -1;
  w->running = false;
}

/* The client of a running worker went away (its connection reads as closed: it sends nothing
   after its request): the worker's group is ended, TERM, then KILL 2 s later. */
static void client_gone(Worker *w) {
  kill(-w->pid, SIGTERM);
  clock_gettime(CLOCK_MONOTONIC, &w->kill_at);
  w->kill_at.tv_sec += 2;
  w->running = false;  /* nobody to answer */
}

/* Milliseconds until the first pending KILL (sending those due), -1 when none is pending. */
static int kills_due(Pool *p) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long long first = -1;
  for (size_t i = 0; i < p->n; i++) {
    Worker *w = &p->v[i];
    if (!w->kill_at.tv_sec) continue;
    long long ms = (w->kill_at.tv_sec - now.tv_sec) * 1000LL + (w->kill_at.tv_nsec - now.tv_nsec) / 1000000;
    if (ms <= 0) {
      kill(-w->pid, SIGKILL);
      w->kill_at.tv_sec = 0;
    } else if (first < 0 || ms < first) first = ms;
  }
  return (int)first;
}

/* Drops the workers that are gone, and closes the pair of idle workers beyond one per CPU
   (they exit), so a burst of parallel compiles leaves no crowd behind. */
static void prune(Pool *p) {
  long spare = sysconf(_SC_NPROCESSORS_ONLN), idle = 0;
  size_t k = 0;
  for (size_t i = 0; i < p->n; i++) {
    Worker *w = &p->v[i];
    if (w->ctl >= 0 && w->conn < 0 && (w->quitting || ++idle > (spare > 0 ? spare : 1))) {
      close(w->ctl);  /* it exits on reading the end; reap() collects it */
      w->ctl = -1;
    }
    if (w->ctl >= 0) p->v[k++] = *w;
  }
  p->n = k;
}

/* Collects the server's ended children; a worker's wait status is kept for from_worker, which
   learns of its end from its pair. Waited for, their CPU time counts as the server's children's
   (the bench measures it so). */
static void reap(Pool *p, bool all) {
  int st;
  pid_t pid;
  while ((pid = waitpid(-1, &st, all ? 0 : WNOHANG)) > 0 || (pid < 0 && all && errno == EINTR))
    for (size_t i = 0; p && i < p->n; i++)
      if (p->v[i].pid == pid) {
        p->v[i].exited = true;
        p->v[i].status = st;
      }
}

/* Requests under way: workers serving a connection. */
static size_t busy(const Pool *p) {
  size_t n = 0;
  for (size_t i = 0; i < p->n; i++) n += p->v[i].conn >= 0;
  return n;
}

/* Accepts requests until PATHCC_SERVER_IDLE seconds pass without one, or SIGTERM (then the
   requests under way finish first); each runs in a worker, so a crash in one compile never
   takes the server down. Polls the socket, each worker's pair and each running client. */
static void accept_loop(int s, PPMain run) {
  sigset_t term, open_mask;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigprocmask(SIG_BLOCK, &term, &open_mask);
  sigdelset(&open_mask, SIGTERM);
  Pool pool = { 0 };
  struct pollfd *pf = NULL;
  for (;;) {
    prune(&pool);
    size_t b = busy(&pool);
    if (stop_server && !b) break;
    pf = pp_xrealloc(pf, (2 * pool.n + 1) * sizeof *pf);
    size_t n = 0;
    pf[n++] = (struct pollfd){ stop_server ? -1 : s, POLLIN, 0 };
    for (size_t i = 0; i < pool.n; i++) pf[n++] = (struct pollfd){ pool.v[i].ctl, POLLIN, 0 };
    for (size_t i = 0; i < pool.n; i++) pf[n++] = (struct pollfd){ pool.v[i].running ? pool.v[i].conn : -1, POLLIN, 0 };
    int kill_ms = kills_due(&pool);
    struct timespec t = { kill_ms >= 0 ? kill_ms / 1000 : idle_seconds(), kill_ms >= 0 ? (kill_ms % 1000) * 1000000L : 0 };
    int r = ppoll(pf, n, kill_ms >= 0 || !b ? &t : NULL, &open_mask);
    reap(&pool, false);
    if (r == 0 && kill_ms < 0 && !b) break;  /* idle */
    if (r <= 0) continue;
    for (size_t i = 0; i < pool.n; i++) {
      if (pf[1 + i].revents) from_worker(&pool.v[i]);
      else if (pf[1 + pool.n + i].revents && pool.v[i].running) client_gone(&pool.v[i]);
    }
    if (pf[0].revents & POLLIN) {
      int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
      if (c >= 0 && !same_user(c)) close(c);
      else if (c >= 0) dispatch(&pool, c, run);
    }
  }
  for (size_t i = 0; i < pool.n; i++) close(pool.v[i].ctl);  /* idle workers exit */
  reap(NULL, true);
  free(pool.v);
  free(pf);
}

/* Listens (refusing when another server has the lock), loads libclang, serves until idle
   or SIGTERM, then removes its socket and waits for its children (their CPU is its own). */
int pp_server_main(PPMain run) {
  char *why = NULL, *path = socket_path(&why), *err = NULL;
  int lock = -1, s = path ? listen_at(path, &lock) : -1;
  if (s < 0) {
    fprintf(stderr, "pathcc: error: no compile server: %s\n", path ? "another is running, or the socket cannot be made" : why);
    return 1;
  }
  if (pp_clang_load(&err)) fprintf(stderr, "pathcc: warning: %s (each unit will be compiled as written)\n", err);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_term;
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  printf("pathcc: compile server listening on %s\n", path);
  fflush(stdout);
  accept_loop(s, run);
  unlink(path);  /* before the lock goes: the next server starts clean */
  char *lk = pp_xasprintf("%s.lock", path), *mark = pp_xasprintf("%s.wanted", path);
  unlink(mark);
  unlink(lk);    /* still held: a server that opened it before sees it gone (listen_at) */
  free(lk);
  free(mark);
  close(s);
  free(path);
  return 0;
}
