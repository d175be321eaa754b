/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_common.c — helpers of the harnesses (fuzz.h).
 *
 * The memfds are the harness process's own state (one per slot, reused by
 * every input); the library itself keeps no global state.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fabriclint/error.h"
#include "fabriclint/types.h"
#include "fuzz.h"

static int fz_fds[FZ_MAX_PARTS] = {-1, -1, -1, -1};
static char fz_paths[FZ_MAX_PARTS][32];
static int fz_accepted;

void fz_split(const uint8_t *data, size_t size, fz_parts *out) {
  const size_t mlen = sizeof FZ_SPLIT - 1;
  out->count = 0;
  while (out->count + 1 < FZ_MAX_PARTS) {
    const uint8_t *hit =
        size >= mlen ? memmem(data, size, FZ_SPLIT, mlen) : NULL;
    if (!hit)
      break;
    out->p[out->count] = data;
    out->n[out->count] = (size_t)(hit - data) + 1; /* keep the newline */
    out->count++;
    size -= (size_t)(hit - data) + mlen;
    data = hit + mlen;
  }
  out->p[out->count] = data;
  out->n[out->count] = size;
  out->count++;
}

unsigned fz_select(const uint8_t **data, size_t *size, unsigned variants) {
  if (*size == 0 || variants == 0)
    return 0;
  unsigned v = (unsigned)(uint8_t)((*data)[0] - '0') % variants;
  (*data)++;
  (*size)--;
  return v;
}

static void write_all(int fd, const uint8_t *data, size_t len) {
  size_t off = 0;
  while (off < len) {
    ssize_t w = pwrite(fd, data + off, len - off, (off_t)off);
    if (w <= 0) {
      perror("fuzz: pwrite");
      abort();
    }
    off += (size_t)w;
  }
}

const char *fz_file(unsigned slot, const uint8_t *data, size_t len) {
  if (slot >= FZ_MAX_PARTS)
    abort();
  if (fz_fds[slot] < 0) {
    fz_fds[slot] = memfd_create("fabriclint-fuzz", MFD_CLOEXEC);
    if (fz_fds[slot] < 0) {
      perror("fuzz: memfd_create");
      abort();
    }
    snprintf(fz_paths[slot], sizeof fz_paths[slot], "/proc/self/fd/%d",
             fz_fds[slot]);
  }
  if (ftruncate(fz_fds[slot], 0) != 0) {
    perror("fuzz: ftruncate");
    abort();
  }
  write_all(fz_fds[slot], data, len);
  return fz_paths[slot];
}

void fz_check_error(int rc, const fl_error *err) {
  if (rc == FL_OK)
    return;
  if (getenv("FABRICLINT_FUZZ_VERBOSE")) {
    char msg[FL_ERROR_FILE_MAX + FL_ERROR_MSG_MAX + 32];
    fprintf(stderr, "fuzz: refused: %s\n",
            fl_error_format(err, msg, (uint32_t)sizeof msg));
  }
  if (err->code != rc || err->message[0] == '\0') {
    fprintf(stderr,
            "fuzz: refusal %d without a matching error record (code %d, "
            "message \"%s\")\n",
            rc, err->code, err->message);
    abort();
  }
}

int fz_load(fl_fabric *fab, unsigned slot, const uint8_t *data, size_t len,
            uint32_t fmt, const fl_load_options *opts) {
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_fabric_load(fab, fz_file(slot, data, len), fmt, opts, &err);
  fz_check_error(rc, &err);
  return rc;
}

int fz_finalize(fl_fabric *fab) {
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_fabric_finalize(fab, &err);
  fz_check_error(rc, &err);
  return rc;
}

int fz_load_chain(const fz_parts *parts, const uint32_t *ctx, size_t n_ctx,
                  uint32_t target, const fl_load_options *opts) {
  fl_fabric *fab = fl_fabric_new();
  if (!fab)
    abort();
  int rc = FL_OK;
  size_t last = parts->count - 1;
  for (size_t i = 0; i < last && rc == FL_OK; i++) {
    uint32_t fmt = ctx[i < n_ctx ? i : n_ctx - 1];
    rc = fz_load(fab, (unsigned)i, parts->p[i], parts->n[i], fmt, opts);
  }
  if (rc == FL_OK)
    rc = fz_load(fab, (unsigned)last, parts->p[last], parts->n[last], target,
                 opts);
  if (rc == FL_OK)
    rc = fz_finalize(fab);
  fl_fabric_free(fab);
  fz_set_outcome(rc == FL_OK);
  return rc == FL_OK;
}

void fz_set_outcome(int accepted) {
  fz_accepted = accepted;
}

int fz_outcome(void) {
  return fz_accepted;
}
