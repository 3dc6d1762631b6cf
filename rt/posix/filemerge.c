/* filemerge.c: the locked merge of a run's counts into the profile file: appended as a stream of
   their own (the common case: one write of what the run counted), the file rewritten when the
   appended streams outgrow it, or added in place into a continuous file's regions; crash dumps
   beside it join, and temporaries of dead crash handlers go. */
#include "posix.h"
#include "profile/profile.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#define LOCK_TRIES 1000
#define MAX_STREAMS 1024       /* appended streams before the file is rewritten as one */
#define MIN_APPENDED 262144    /* appended bytes always allowed before a rewrite (a small profile
                                  of dense streams is rewritten every 40 runs or fewer, not 10) */
#define VERIFY_MAX 131072      /* checksums an append checks: the whole file up to this size, else
                                  the last stream up to this length (pp_profile_layout_checked) */

/* Opens path (O_NOFOLLOW: a link there is refused, never followed; created with O_EXCL when
   missing) and takes an fcntl write lock on it, retrying when another writer renamed a new
   file over the path meanwhile. Returns the locked fd, or -1 with err set. */
int __pathprof_open_locked(const char *path, struct stat *st, char *err, size_t errlen)
{
  struct flock fl;
  struct stat a, b;
  int fd, r, tries;

  for (tries = 0; tries < LOCK_TRIES; tries++) {
    fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
      fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST)
      continue; /* another writer made it just now */
    if (fd < 0) {
      snprintf(err, errlen, errno == ELOOP ? "%s: is a symbolic link; not followed"
               : "%s: cannot open: %s", path, strerror(errno));
      return -1;
    }
    if (fstat(fd, &a) != 0 || !S_ISREG(a.st_mode) || a.st_nlink > 1) {
      snprintf(err, errlen, "%s: not a regular file of one link; not written", path);
      close(fd);
      return -1;
    }
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    while ((r = fcntl(fd, F_SETLKW, &fl)) != 0 && errno == EINTR)
      ;
    if (r != 0) {
      snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
      close(fd);
      return -1;
    }
    if (lstat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
      if (st)
        *st = b; /* the size as the lock found it */
      return fd;
    }
    close(fd); /* the file we locked was replaced or removed: lock the new one */
  }
  snprintf(err, errlen, "%s: cannot lock: the file keeps being replaced", path);
  return -1;
}

/* The mark that crash dumps (or a crash temporary) may lie beside path, made by whoever writes
   one (__pathprof_mark_name); malloc'ed, 0 when out of memory. */
static char *mark_name(const char *path)
{
  size_t n = strlen(path) + 10;
  char *m = malloc(n);
  if (m)
    __pathprof_mark_name(path, m, n);
  return m;
}

/* Leaves the mark beside path: the next writer is to look at the directory. */
static void leave_mark(const char *path)
{
  char *m = mark_name(path);
  if (m)
    __pathprof_touch(m);
  free(m);
}

/* Whether the directory should be looked at for crash dumps: the mark is there (it is taken
   away first, so a dump made while we look marks again; a write that fails puts it back, the
   dumps being still to merge). With no memory, always. */
static int marked(const char *path)
{
  struct stat st;
  char *m = mark_name(path);
  int r = !m || lstat(m, &st) == 0;
  if (m && r)
    unlink(m);
  free(m);
  return r;
}

/* The files beside the profile that a locked writer looks after. */
struct beside {
  char **dumps;    /* crash dumps "<path>.crash.<digits>", to add in */
  size_t ndumps;
};

/* Frees the names. */
static void free_beside(struct beside *bs)
{
  size_t i;
  for (i = 0; i < bs->ndumps; i++)
    free(bs->dumps[i]);
  free(bs->dumps);
  bs->dumps = 0;
  bs->ndumps = 0;
}

/* Whether s is digits only, then `tail` ("" or ".tmp"); *pid gets the number. */
static int digits_then(const char *s, const char *tail, long *pid)
{
  char *end;
  if (*s < '0' || *s > '9')
    return 0;
  *pid = strtol(s, &end, 10);
  return !strcmp(end, tail);
}

/* Scans path's directory once: crash dumps are listed, and crash temporaries whose process is
   gone (a handler killed mid-dump without O_TMPFILE) are removed. The writers' own temporary
   "<path>.tmp" is not touched here: only a write that makes one (a rewrite, a conversion to
   continuous) removes a dead writer's leftover, in pp_open_new, under the lock; an append has no
   business with a file of that name, which may be another profile ("prof" and "prof.tmp"). */
static void scan_beside(const char *path, struct beside *bs)
{
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  size_t nb = strlen(base), nd = (size_t)(base - path);
  char *dir = malloc(nd + 2), *full, **grown;
  struct dirent *e;
  DIR *d;
  long pid;

  memset(bs, 0, sizeof *bs);
  if (!dir)
    return;
  memcpy(dir, path, nd);
  strcpy(dir + nd, nd ? "" : ".");
  d = opendir(dir);
  while (d && (e = readdir(d))) {
    if (strncmp(e->d_name, base, nb) != 0 || strncmp(e->d_name + nb, ".crash.", 7) != 0)
      continue;
    if (!(full = malloc(nd + strlen(e->d_name) + 1)))
      break;
    memcpy(full, path, nd);
    strcpy(full + nd, e->d_name);
    if (digits_then(e->d_name + nb + 7, "", &pid) &&
        (grown = realloc(bs->dumps, (bs->ndumps + 1) * sizeof *grown))) {
      bs->dumps = grown;
      bs->dumps[bs->ndumps++] = full;
      continue;
    }
    if (digits_then(e->d_name + nb + 7, ".tmp", &pid) && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
      unlink(full);
    free(full);
  }
  if (d)
    closedir(d);
  free(dir);
}

/* Adds the intact crash dumps into *q (a damaged one stays in place for pathprof to name);
   those added are kept in bs->dumps, the others dropped from the list. */
static int add_dumps(struct beside *bs, struct pp_profile *q, char *err, size_t errlen)
{
  struct pp_profile one;
  size_t i, k = 0;
  for (i = 0; i < bs->ndumps; i++) {
    if (pp_profile_read_one(bs->dumps[i], &one, err, errlen) == 0 && pp_profile_merge(q, &one, err, errlen) == 0)
      bs->dumps[k++] = bs->dumps[i];
    else
      free(bs->dumps[i]);
    pp_profile_free(&one);
  }
  bs->ndumps = k;
  return 0;
}

/* Whether a unit of p has the checksum of a unit of the file but other sizes (another build):
   then only the full merge can say so properly. With a partial layout (the first stream's
   units only), also whether a unit of p is not among them: appenders add only units the first
   stream has with the same sizes, or have walked the whole file, so that no stream between
   can hold a size the quick look did not see. 1: a conflict; 2: a unit the first stream lacks
   (the file is then rewritten, so the next run of the same program finds all its units there). */
static int conflicts(const struct pp_layout *l, const struct pp_profile *p)
{
  size_t i, lo, hi, mid;
  int seen;
  for (i = 0; i < p->nunits; i++) {
    for (lo = 0, hi = l->nunits; lo < hi;) {
      mid = (lo + hi) / 2;
      if (l->units[mid][0] < p->units[i].checksum)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (seen = 0; lo < l->nunits && l->units[lo][0] == p->units[i].checksum; lo++, seen = 1)
      if (l->units[lo][1] != p->units[i].ncounters)
        return 1;
    if (l->partial && !seen)
      return 2;
  }
  return 0;
}

/* Appends the n bytes of a stream at b at `at` (a torn tail there is overwritten); on a failed
   write the file is cut back, unchanged. 0, or -1 with err set. */
static int append(int fd, const char *path, const unsigned char *b, size_t n, off_t at, int torn,
                  int sync, char *err, size_t errlen)
{
  size_t done = 0;
  ssize_t r;
  int e = 0;

  if (torn && ftruncate(fd, at) != 0) /* the tail a writer killed while appending left */
    e = errno;
  while (done < n && e == 0) {
    r = pwrite(fd, b + done, n - done, at + (off_t)done);
    if (r > 0)
      done += (size_t)r;
    else if (r == 0 || errno != EINTR)
      e = r == 0 ? EIO : errno;
  }
  if (e == 0 && sync && fsync(fd) != 0)
    e = errno;
  if (e != 0) {
    if (ftruncate(fd, at) != 0) { /* nothing better to do: readers skip a torn tail */
    }
    return snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e)), -1;
  }
  return 0;
}

/* The full merge: every stream of the file read and checked (none when the file is empty, just
   created under the lock), q added, the sum written aside and renamed over path. 0, or -1 with
   err set and the file unchanged. */
static int rewrite(int fd, const char *path, const struct pp_profile *q, int empty, int sync, char *err,
                   size_t errlen)
{
  struct pp_profile old = {0};
  int rc = empty ? 0 : pp_profile_read_fd_flags(fd, path, PP_READ_SPARSE, &old, err, errlen);
  if (rc == 0 && pp_profile_merge(&old, q, err, errlen) != 0) {
    size_t n = strlen(err);
    snprintf(err + n, errlen - n, " (cannot merge into %s)", path);
    rc = -1;
  }
  if (rc == 0)
    rc = pp_profile_save_flags(&old, path, PP_SAVE_LOCKED | (sync ? PP_SAVE_SYNC : 0), err, errlen);
  pp_profile_free(&old);
  return rc;
}

/* Whether appending n more bytes to a file of layout l keeps it small enough: appended streams
   at most as long as the first (so rewrites cost as much as the appends they follow), and not
   too many of them for readers. */
static int room_to_append(const struct pp_layout *l, size_t n)
{
  size_t appended = l->committed - l->first, limit = l->first > MIN_APPENDED ? l->first : MIN_APPENDED;
  return l->nstreams < MAX_STREAMS && appended + n <= limit;
}

/* The layout of the file mapped at m (size bytes; MAP_FAILED when it could not be mapped): a
   walk of its record headers, and the checksums of a small file or of its last stream; other is
   set when it cannot be walked or a checksum is wrong, and the full read then judges the file.
   Quick: only the first and the last stream of a larger file are walked (a partial layout,
   pp_profile_layout_quick). */
static void layout_of(const unsigned char *m, size_t size, struct pp_layout *l, int quick)
{
  memset(l, 0, sizeof *l);
  if (m == MAP_FAILED || (m && (quick ? pp_profile_layout_quick(m, size, l, VERIFY_MAX)
                                      : pp_profile_layout_checked(m, size, l, VERIFY_MAX)) != 0))
    l->other = 1;
}

/* The common case, proportional to what the run counted: the snapshot's units (each checksum
   once, no forests, no crash dumps to add) appended as one stream when the file's layout
   allows. Returns 1 done, 0 not this case (nothing written; *fresh set when a unit is not in
   the file's first stream), -1 with err set. */
static int append_snapshot(int fd, const char *path, const struct __pathprof_snapshot *ss,
                           const struct pp_layout *l, int sync, int *fresh, char *err, size_t errlen)
{
  struct pp_profile shape;
  struct pp_unitrec *recs;
  unsigned char *b;
  size_t n, i;
  int rc, clash;

  if (!ss->unique || ss->forests.nforests || l->other || __pathprof_test_name())
    return 0; /* a test's run goes in dense, with its TEST record */
  if (!(recs = malloc((ss->n ? ss->n : 1) * sizeof *recs)))
    return 0;
  for (i = 0; i < ss->n; i++) { /* only checksum and size matter to conflicts() */
    recs[i].checksum = ss->units[i].checksum;
    recs[i].ncounters = ss->units[i].ncounters;
  }
  shape.nunits = ss->n;
  shape.units = recs;
  clash = conflicts(l, &shape);
  *fresh = clash == 2;
  free(recs);
  if (clash || pp_profile_encode_sparse(ss->units, ss->n, &b, &n) != 0)
    return 0;
  rc = 0;
  if (!l->committed || room_to_append(l, n))
    rc = append(fd, path, b, n, (off_t)l->committed, l->torn, sync, err, errlen) == 0 ? 1 : -1;
  free(b);
  return rc;
}

/* Merges the dense profile q into the regular, locked, non-continuous file fd at path of
   layout l: appended when the layout allows (and no rewrite is asked for), else the full
   merge. */
static int merge_profile(int fd, const char *path, const struct pp_profile *q, const struct pp_layout *l,
                         int sync, int rewrite_it, char *err, size_t errlen)
{
  unsigned char *b = 0;
  size_t n = 0;
  int rc;

  if (rewrite_it || q->osp || q->nforests || l->other || conflicts(l, q) || pp_profile_encode(q, &b, &n) != 0 ||
      (l->committed && !room_to_append(l, n)))
    rc = rewrite(fd, path, q, !l->committed && !l->torn && !l->other, sync, err, errlen);
  else
    rc = append(fd, path, b, n, (off_t)l->committed, l->torn, sync, err, errlen);
  free(b);
  return rc;
}

/* Whether the file fd, mapped at m (MAP_FAILED: not mapped), is a continuous profile (it begins
   with that magic). */
static int is_continuous(int fd, const unsigned char *m, size_t size)
{
  char magic[8];
  if (m != MAP_FAILED)
    return size >= 8 && !memcmp(m, PP_CONT_MAGIC, 8);
  return size >= 8 && pread(fd, magic, 8, 0) == 8 && !memcmp(magic, PP_CONT_MAGIC, 8);
}

/* Saves the forests of p beside the continuous file at path as a dump of a name of its own,
   "<path>.crash.<pid>" or with digits after it: never over an earlier dump of this process, whose
   counts would be lost (a dump is read, never merged, beside a continuous file). *name gets
   the name (to free). 0, or -1 with err set. */
static int save_forests(const char *path, const struct pp_profile *p, char **name, char *err, size_t errlen)
{
  struct pp_profile rest;
  size_t n = strlen(path) + 48;
  int i, rc = -1;

  memset(&rest, 0, sizeof rest);
  rest.nforests = p->nforests;
  rest.forests = p->forests;
  if (!(*name = malloc(n)))
    return snprintf(err, errlen, "%s: out of memory", path), -1;
  for (i = -1; i < 1000 && rc != 0; i++) {
    if (i < 0)
      snprintf(*name, n, "%s.crash.%ld", path, (long)getpid());
    else
      snprintf(*name, n, "%s.crash.%ld%d", path, (long)getpid(), i);
    if ((rc = pp_profile_save_flags(&rest, *name, PP_SAVE_NEW, err, errlen)) != 0 && errno != EEXIST)
      break;
  }
  return rc;
}

/* Into a continuous file: the units are added in place, in the regions a continuous process
   may be counting in (never replacing the file under it); forests have no place there and
   go beside it as a dump that every read adds. The dump comes first and goes again when the
   add fails (which adds nothing), so a failure leaves no count in place for the caller's
   write aside to count twice. */
static int merge_continuous(int fd, const char *path, struct pp_profile *p, char *err, size_t errlen)
{
  char *name = 0;
  int rc = 0;

  if (pp_profile_dense(p) != 0) /* the regions are dense */
    return snprintf(err, errlen, "%s: out of memory", path), -1;
  if (p->nforests)
    rc = save_forests(path, p, &name, err, errlen);

  if (rc == 0 && (rc = __pathprof_cont_add_file(fd, path, p, err, errlen)) != 0 && name)
    unlink(name);
  if (rc == 0 && name)
    leave_mark(path);
  free(name);
  return rc;
}

/* Merges the snapshot into the profile file at path under its lock (see the file's opening
   comment); with sync, what was written is synced (PATHPROF_SYNC=1). 0, or -1 with err set and
   the file as it was. */
int __pathprof_merge_file(const char *path, const struct __pathprof_snapshot *ss, int sync, char *err,
                          size_t errlen)
{
  struct beside bs;
  struct pp_layout l;
  struct pp_profile q = {0};
  struct stat st;
  size_t i;
  unsigned char *m = MAP_FAILED;
  int fd = __pathprof_open_locked(path, &st, err, errlen), rc, look, fresh = 0;

  if (fd < 0)
    return -1;
  memset(&l, 0, sizeof l);
  memset(&bs, 0, sizeof bs);
  look = marked(path);
  if (st.st_size > 0)
    m = mmap(0, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  if (is_continuous(fd, m, (size_t)st.st_size)) {
    rc = __pathprof_snapshot_profile(ss, &q, err, errlen);
    if (rc == 0)
      rc = merge_continuous(fd, path, &q, err, errlen);
  } else {
    if (look)
      scan_beside(path, &bs);
    layout_of(st.st_size ? m : 0, (size_t)st.st_size, &l, 1);
    rc = bs.ndumps ? 0 : append_snapshot(fd, path, ss, &l, sync, &fresh, err, errlen);
    if (rc == 0) { /* everything else: the dense profile, with the crash dumps */
      if (l.partial) { /* the full walk, for what the quick look does not tell */
        free(l.units);
        layout_of(m, (size_t)st.st_size, &l, 0);
      }
      rc = __pathprof_snapshot_profile(ss, &q, err, errlen);
      if (rc == 0)
        rc = add_dumps(&bs, &q, err, errlen);
      if (rc == 0)
        rc = merge_profile(fd, path, &q, &l, sync, fresh, err, errlen);
    } else {
      rc = rc > 0 ? 0 : -1;
    }
    for (i = 0; rc == 0 && i < bs.ndumps; i++)
      unlink(bs.dumps[i]); /* their counts are in the file now */
  }
  if (rc != 0 && look)
    leave_mark(path); /* taken away before the write; the dumps are still to merge */
  if (rc != 0 && st.st_size == 0)
    unlink(path); /* don't leave the empty file we locked; waiters see it gone and retry */
  else if (rc == 0 && sync && st.st_size == 0)
    pp_sync_dir(path);
  if (m != MAP_FAILED)
    munmap(m, (size_t)st.st_size);
  free(l.units);
  free_beside(&bs);
  pp_profile_free(&q);
  close(fd); /* releases the lock */
  return rc;
}
