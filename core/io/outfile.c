/* SPDX-License-Identifier: MIT */
/*
 * core/io/outfile.c — output files written through a temporary file and
 * rename(), or directly when the path is not a regular file; see outfile.h
 * for the rule and why.
 *
 * The temporary file is created with O_CREAT | O_EXCL and mode 0666, so the
 * user's umask applies as it would to the file itself, and it sits in the
 * target's folder so that rename() is atomic (same file system). A regular
 * file being replaced lends its permission bits to the new one.
 */
#define _GNU_SOURCE /* realpath with NULL */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/outfile.h"
#include "io/tmp_guard.h"

#define TMP_TRIES 100

/* The temporary file is gone (renamed, or removed when @remove): stop
 * guarding it. */
static void tmp_done(fl_outfile *of, int remove) {
  if (remove)
    unlink(of->tmp);
  fl_tmp_guard_disarm(of->guard - 1);
  of->guard = 0;
}

static void of_clear(fl_outfile *of) {
  free(of->path);
  free(of->final);
  free(of->tmp);
  memset(of, 0, sizeof *of);
}

static int io_error(fl_error *err, const char *path, const char *what, int e) {
  return fl_error_set(err, FL_EIO, path, 0, 0, "%s: %s", what,
                      strerror(e ? e : EIO));
}

/* Create "<dir>/.<base>.<pid>-<n>.tmp" beside @final; the fd, or -1 with
 * errno set. @mode: permission bits for the new file (before the umask for a
 * new path, exact for a replaced file when @exact). */
static int make_tmp(fl_outfile *of, mode_t mode, int exact) {
  const char *slash = strrchr(of->final, '/');
  size_t dlen = slash ? (size_t)(slash - of->final + 1) : 0;
  const char *base = slash ? slash + 1 : of->final;
  size_t size = strlen(of->final) + 48;
  of->tmp = malloc(size);
  if (!of->tmp) {
    errno = ENOMEM;
    return -1;
  }
  for (int n = 0; n < TMP_TRIES; n++) {
    snprintf(of->tmp, size, "%.*s.%s.%ld-%d.tmp", (int)dlen, of->final, base,
             (long)getpid(), n);
    /* Guarded before it exists: a SIGTERM between open() and the guard
     * left the file behind (cli.output_killed, twice on a loaded machine).
     * The handler may unlink a name that does not exist yet (harmless) or,
     * before O_EXCL fails, one that exists: it holds our PID, so it is a
     * leftover of a dead process of the same PID, never another run's. */
    of->guard = fl_tmp_guard_arm(of->tmp) + 1;
    int fd = open(of->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) {
      if (exact && fchmod(fd, mode) != 0) {
        int e = errno;
        close(fd);
        unlink(of->tmp);
        fl_tmp_guard_disarm(of->guard - 1);
        of->guard = 0;
        errno = e;
        break;
      }
      return fd;
    }
    int e = errno;
    fl_tmp_guard_disarm(of->guard - 1);
    of->guard = 0;
    errno = e;
    if (errno != EEXIST)
      break;
  }
  int e = errno;
  free(of->tmp);
  of->tmp = NULL;
  errno = e;
  return -1;
}

/* Open @of->path directly (not a regular file, or no temporary possible). */
static int open_direct(fl_outfile *of, fl_error *err) {
  of->f = fopen(of->path, "w");
  if (!of->f) {
    int rc = io_error(err, of->path, "cannot write", errno);
    of_clear(of);
    return rc;
  }
  return FL_OK;
}

int fl_outfile_open(fl_outfile *of, const char *path, fl_error *err) {
  memset(of, 0, sizeof *of);
  of->path = strdup(path);
  if (!of->path)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  struct stat st;
  int exists = stat(path, &st) == 0;
  if (!exists && errno != ENOENT)
    return open_direct(of, err); /* fopen names the real problem */
  if (exists && !S_ISREG(st.st_mode))
    return open_direct(of, err); /* device, FIFO, folder: never replaced */
  if (!exists) {
    struct stat lst;
    if (lstat(path, &lst) == 0) /* a dangling symlink: write through it */
      return open_direct(of, err);
  }
  of->final = exists ? realpath(path, NULL) : strdup(path);
  if (!of->final) {
    int rc = io_error(err, path, "cannot resolve", errno);
    of_clear(of);
    return rc;
  }
  int fd = make_tmp(of, exists ? (st.st_mode & 07777) : 0666, exists);
  if (fd < 0) {
    int e = errno;
    if (exists && (e == EACCES || e == EPERM || e == EROFS)) {
      free(of->final); /* a writable file in a folder we may not write */
      of->final = NULL;
      return open_direct(of, err);
    }
    int rc = io_error(err, path, "cannot write", e);
    of_clear(of);
    return rc;
  }
  of->f = fdopen(fd, "w");
  if (!of->f) {
    int rc = io_error(err, path, "cannot write", errno);
    close(fd);
    tmp_done(of, 1);
    of_clear(of);
    return rc;
  }
  return FL_OK;
}

int fl_outfile_commit(fl_outfile *of, fl_error *err) {
  if (!of->f) {
    of_clear(of);
    return FL_OK;
  }
  int e = 0;
  errno = 0;
  if (fflush(of->f) != 0 || ferror(of->f))
    e = errno ? errno : EIO;
  if (!e && of->tmp && fsync(fileno(of->f)) != 0)
    e = errno;
  if (fclose(of->f) != 0 && !e)
    e = errno ? errno : EIO;
  of->f = NULL;
  if (!e && of->tmp && rename(of->tmp, of->final) != 0)
    e = errno;
  if (of->tmp)
    tmp_done(of, e != 0);
  int rc = e ? io_error(err, of->path, "cannot write", e) : FL_OK;
  of_clear(of);
  return rc;
}

void fl_outfile_abort(fl_outfile *of) {
  if (of->f)
    fclose(of->f);
  if (of->tmp)
    tmp_done(of, 1);
  of_clear(of);
}
