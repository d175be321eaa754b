/* SPDX-License-Identifier: MIT */
/*
 * core/model/file_digest.h — the size and SHA-256 of each file read into a
 * fabric, taken from the bytes the loader read (internal).
 *
 * A file is read once (io/fileio.h): a FIFO, a pipe, `<(...)` or standard
 * input cannot be read again, and a regular file may have changed since.
 * So the HTML report's provenance (report/report_html.c) states what was
 * recorded here when the bytes were read, and never opens an input again.
 * SHA-256 is FIPS 180-4, computed with nettle.
 */
#ifndef FABRICLINT_CORE_MODEL_FILE_DIGEST_H
#define FABRICLINT_CORE_MODEL_FILE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/fabric.h"

/** fl_file_digest — one file's bytes as read. @known: 0 when not recorded
 * (the loader was not asked to, fl_load_options.digest). */
typedef struct fl_file_digest {
  uint64_t size; /* bytes read */
  uint8_t sha256[32];
  int known;
} fl_file_digest;

/** fl_digest_of() — @d = size and SHA-256 of @len bytes at @buf. */
void fl_digest_of(fl_file_digest *d, const void *buf, size_t len);

/** fl_digest_hex() — the SHA-256 of @d as 64 lower-case hex digits into
 * @hex (65 bytes); returns @hex. */
char *fl_digest_hex(const fl_file_digest *d, char hex[65]);

/** fl_b_file_digest() — record @d for file id @file of @fab (an id of
 * fl_b_file()). FL_OK, or FL_ENOMEM. */
int fl_b_file_digest(fl_fabric *fab, uint32_t file, const fl_file_digest *d);

/** fl_fabric_file_digest() — what was recorded for file @i of @fab, or
 * NULL (none recorded, or @i out of range). Borrowed from @fab. */
const fl_file_digest *fl_fabric_file_digest(const fl_fabric *fab, uint32_t i);

#endif
