/* SPDX-License-Identifier: MIT */
/*
 * core/io/outfile.h — writing an output file without ever destroying what the
 * user owns (internal).
 *
 * Every file fabriclint writes (gen -o, --output, --write-baseline, the diff
 * CSV work order) goes through here. The rule:
 *
 *   - PATH absent, or a regular file (also through symlinks): the output is
 *     written to a new temporary file in the folder of the (resolved) target,
 *     flushed, fsync()ed and rename()d over it on success. On failure only
 *     the temporary file is removed; the previous PATH is untouched. A
 *     symlink stays a symlink (its target is replaced); a replaced regular
 *     file keeps its permission bits (not its owner, nor other hard links:
 *     like `sed -i`, the name gets a new inode).
 *   - PATH exists and is not a regular file (character device such as
 *     /dev/stdout or /dev/null, FIFO, a dangling symlink), or the folder
 *     refuses a temporary file: PATH is opened and written directly, and is
 *     never unlinked, whatever happens.
 *
 * Nothing is ever removed but the temporary file this module created. The
 * temporary file is guarded (tmp_guard.h) from its creation to its rename
 * or removal, so that a run killed meanwhile leaves neither a partial FILE
 * nor the temporary file.
 */
#ifndef FABRICLINT_CORE_OUTFILE_H
#define FABRICLINT_CORE_OUTFILE_H

#include <stdio.h>

#include "fabriclint/error.h"
#include "fabriclint/types.h"

typedef struct fl_outfile {
  FILE *f;     /* write here */
  char *path;  /* the path as given (owned) */
  char *final; /* the resolved regular file rename() replaces (owned) */
  char *tmp;   /* the temporary file, NULL when writing directly (owned) */
  int guard;   /* its tmp_guard.h slot + 1 (removed on SIGTERM, SIGINT or
                  SIGHUP by the command line's handler), 0: none */
} fl_outfile;

/**
 * Open @path for writing as described above.
 * @of: zero-filled or not, filled on success and left empty on failure.
 * Returns FL_OK, or FL_EIO (message names @path and the errno text) /
 * FL_ENOMEM.
 */
int fl_outfile_open(fl_outfile *of, const char *path, fl_error *err);

/**
 * Finish: flush, fsync (regular files), close, and rename the temporary file
 * into place. On any failure the temporary file is removed, the previous
 * content of the path stays, and FL_EIO names the path and errno text.
 * @of is emptied in every case.
 */
int fl_outfile_commit(fl_outfile *of, fl_error *err);

/** Give up: close, remove the temporary file (never the path itself), empty
 * @of. Safe on an empty @of. */
void fl_outfile_abort(fl_outfile *of);

#endif
