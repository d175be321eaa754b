/* SPDX-License-Identifier: MIT */
/*
 * core/model/file_digest.c — size and SHA-256 of the files read into a
 * fabric (see model/file_digest.h).
 */
#include "model/file_digest.h"

#include <stdio.h>
#include <string.h>

#include <nettle/sha2.h>

#include "fabriclint/types.h"
#include "model/fabric_impl.h"
#include "model/grow.h"

void fl_digest_of(fl_file_digest *d, const void *buf, size_t len) {
  struct sha256_ctx ctx;
  sha256_init(&ctx);
  /* nettle takes a size_t length; feed large buffers in 1 GiB pieces */
  const uint8_t *p = buf;
  for (size_t left = len; left > 0;) {
    size_t n = left > ((size_t)1 << 30) ? (size_t)1 << 30 : left;
    sha256_update(&ctx, n, p);
    p += n;
    left -= n;
  }
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, d->sha256);
  d->size = (uint64_t)len;
  d->known = 1;
}

char *fl_digest_hex(const fl_file_digest *d, char hex[65]) {
  for (size_t i = 0; i < sizeof d->sha256; i++)
    snprintf(hex + 2 * i, 3, "%02x", d->sha256[i]);
  hex[64] = '\0';
  return hex;
}

int fl_b_file_digest(fl_fabric *fab, uint32_t file, const fl_file_digest *d) {
  size_t old = fab->cap_file_digest;
  if (fl_grow((void **)&fab->file_digest, &fab->cap_file_digest,
              (size_t)file + 1, sizeof *fab->file_digest) != 0)
    return FL_ENOMEM;
  if (fab->cap_file_digest > old)
    memset(fab->file_digest + old, 0,
           (fab->cap_file_digest - old) * sizeof *fab->file_digest);
  fab->file_digest[file] = *d;
  return FL_OK;
}

const fl_file_digest *fl_fabric_file_digest(const fl_fabric *fab, uint32_t i) {
  if (!fab || i >= fab->n_files || i >= fab->cap_file_digest ||
      !fab->file_digest[i].known)
    return NULL;
  return &fab->file_digest[i];
}
