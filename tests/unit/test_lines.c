/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_lines.c — the line-end scanner (core/io/lines.h,
 * fl_lines_next) against the plain byte loop it replaces, the oracle:
 *  - every buffer of length 0..11 over {'a', '\n', NUL} (265,720 buffers),
 *    so every place of a line end and of a NUL relative to each other and
 *    to the end is met;
 *  - 20,000 random buffers of 0..400 bytes (the 64-byte SIMD blocks, a
 *    partial last block, blocks with no line end, and NUL bytes before,
 *    between and after line ends in one block), at three densities;
 *  - a buffer read from a non-zero offset of a larger one, unaligned.
 * The sequence of offsets handed out (each line end, then the length, or
 * SIZE_MAX at a NUL byte before the next line end) must be identical.
 * And the routing dumps' line reader (core/io/routing_read.h rd_next) over
 * mapped files, read in RD_CHUNK pieces: every line and whether it ended
 * with '\n', against a plain split of the same bytes, for lines of
 * RD_CHUNK - 1, RD_CHUNK and RD_CHUNK + 1 bytes starting at the first, the
 * second and the last byte of a chunk, lines longer than two chunks, "\r\n"
 * endings split by a chunk's end, and a last line with no '\n'.
 * And a mapped dump that becomes shorter while it is read (an outside
 * tester's find): FL_EIO "the file changed while it was read", where the
 * whole-file NUL check that follows a failed load read the mapping: a
 * bogus NUL byte at the new end, or SIGBUS past it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "io/loaders.h"

#include "io/fileio.h"
#include "io/lines.h"
#include "io/routing_read.h"
#include "tmpdir.h"

/* The oracle: the next '\n' or NUL at or after @p in [0, len). */
static size_t oracle_next(const char *b, size_t len, size_t *p) {
  for (size_t i = *p; i < len; i++) {
    if (b[i] == '\0')
      return SIZE_MAX;
    if (b[i] == '\n') {
      *p = i + 1;
      return i;
    }
  }
  *p = len;
  return len;
}

/* Both agree on the whole of @b; returns the number of line ends. */
static size_t agree(const char *b, size_t len) {
  fl_lines l;
  fl_lines_init(&l, b, len);
  size_t p = 0, n = 0;
  for (;;) {
    size_t want = oracle_next(b, len, &p), got = fl_lines_next(&l);
    if (want != got) {
      fprintf(stderr, "length %zu, line end %zu: scanner %zu, oracle %zu\n",
              len, n, got, want);
      fail();
    }
    if (want == SIZE_MAX || want == len)
      return n;
    n++;
  }
}

static void every_short_buffer(void **state) {
  (void)state;
  static const char alpha[3] = {'a', '\n', '\0'};
  char b[12];
  size_t total = 0, ends = 0;
  for (size_t len = 0; len <= 11; len++) {
    size_t count = 1;
    for (size_t i = 0; i < len; i++)
      count *= 3;
    for (size_t k = 0; k < count; k++) {
      size_t v = k;
      for (size_t i = 0; i < len; i++, v /= 3)
        b[i] = alpha[v % 3];
      ends += agree(b, len);
      total++;
    }
  }
  assert_int_equal(total, 265720);
  /* the oracle's own count, as a guard that the buffers had line ends */
  assert_true(ends > 100000);
}

static void random_buffers(void **state) {
  (void)state;
  uint64_t x = 88172645463325252ull;
  char *buf = malloc(512);
  assert_non_null(buf);
  static const unsigned nl_per_1000[3] = {5, 30, 200};
  size_t nuls = 0;
  for (int t = 0; t < 20000; t++) {
    unsigned dens = nl_per_1000[t % 3];
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    size_t len = (size_t)(x % 401);
    for (size_t i = 0; i < len; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      unsigned r = (unsigned)(x % 1000);
      buf[i] = r < dens            ? '\n'
               : r == 999 && t % 2 ? '\0'
                                   : (char)('a' + r % 26);
      nuls += buf[i] == '\0';
    }
    agree(buf, len);
  }
  assert_true(nuls > 1000);
  free(buf);
}

/* 64-byte blocks counted from an odd address; line ends on both sides of
 * each block boundary, and a NUL as the first and the last byte of a block.
 */
static void block_edges(void **state) {
  (void)state;
  char big[1 + 64 * 4 + 8];
  char *b = big + 1;
  size_t len = 64 * 4;
  memset(big, 'x', sizeof big);
  for (size_t at = 0; at < len; at += 63)
    b[at] = '\n';
  b[64] = b[127] = '\n';
  assert_int_equal(agree(b, len), 7);
  b[128] = '\0';
  assert_int_equal(agree(b, len), 5);
  b[128] = 'x';
  b[191] = '\0';
  assert_int_equal(agree(b, len), 6);
}

/* Append a line of @n bytes (its '\n' included when @nl) to @b at *@len. */
static void put_line(char *b, size_t *len, size_t n, int nl, int crlf) {
  for (size_t i = 0; i < n; i++)
    b[*len + i] = (char)('a' + (*len + i) % 26);
  if (nl && n)
    b[*len + n - 1] = '\n';
  if (nl && crlf && n >= 2)
    b[*len + n - 2] = '\r';
  *len += n;
}

/* rd over the file of @len bytes @b; each line equals the oracle's split. */
static void reader_agrees(const char *b, size_t len, const char *name) {
  const char *path = fixture_n(name, b, len);
  fl_input in;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_input_read(&in, path, NULL, 0, &err), FL_OK);
  assert_true(in.map_len > 0); /* the chunked path */
  fl_fabric *fab = fl_fabric_new();
  assert_non_null(fab);
  rd r;
  assert_int_equal(rd_open(&r, fab, &in, &err), FL_OK);
  size_t p = 0, lines = 0;
  int rc;
  while ((rc = rd_next(&r)) == 1) {
    const char *nl = memchr(b + p, '\n', len - p);
    size_t end = nl ? (size_t)(nl - b) : len, le = end;
    if (le > p && b[le - 1] == '\r')
      le--;
    assert_int_equal(r.le - r.ls, le - p);
    assert_memory_equal(r.ls, b + p, le - p);
    assert_int_equal(r.terminated, nl != NULL);
    assert_int_equal(r.lineno, ++lines);
    p = nl ? end + 1 : len;
  }
  assert_int_equal(rc, 0);
  assert_int_equal(p, len);
  rd_close(&r);
  fl_fabric_free(fab);
  fl_input_free(&in);
}

static void reader_chunks(void **state) {
  (void)state;
  const size_t C = RD_CHUNK;
  size_t cap = 16 * C, len = 0;
  char *b = malloc(cap);
  assert_non_null(b);
  /* lines of C-1, C, C+1 bytes starting at a chunk's first byte */
  put_line(b, &len, C - 1, 1, 0);
  put_line(b, &len, 1, 1, 0);
  put_line(b, &len, C, 1, 0);
  put_line(b, &len, C + 1, 1, 0);
  /* then starting one byte in, and at the last byte of a chunk */
  put_line(b, &len, 1, 1, 0);
  put_line(b, &len, C + 1, 1, 1);
  put_line(b, &len, C - 2, 1, 0);
  put_line(b, &len, 2 * C + 7, 1, 0); /* longer than two chunks */
  for (int i = 0; i < 4000; i++)      /* short lines across chunk ends */
    put_line(b, &len, 60 + (size_t)i % 17, 1, i % 5 == 0);
  put_line(b, &len, 1, 1, 0);     /* an empty line */
  put_line(b, &len, C / 2, 0, 0); /* the last, with no '\n' */
  assert_true(len < cap && len > ((size_t)1 << 20));
  reader_agrees(b, len, "chunks.dump");
  /* the same ending with '\n'; and "\r\n" split by the first chunk's end */
  b[len++] = '\n';
  reader_agrees(b, len, "chunks-nl.dump");
  b[C - 2] = 'x';
  b[C - 1] = '\r';
  b[C] = '\n';
  reader_agrees(b, len, "chunks-crlf.dump");
  free(b);
}

/* The fixture's LFT dump padded past 1 MiB with comment lines, mapped,
 * cut to @cut bytes before the LFT loader reads it. */
static void shrunk_by(size_t cut) {
  const char *dir =
      FL_SOURCE_DIR "/tests/fixtures/routing/fat-tree-2tier-ftree";
  char topo[512], dump[512], path[512];
  snprintf(topo, sizeof topo, "%s/topology.ibnetdiscover", dir);
  snprintf(dump, sizeof dump, "%s/opensm-lfts.dump", dir);
  snprintf(path, sizeof path, "%s/shrunk-%zu.dump", tmpdir, cut);
  FILE *in = fopen(dump, "rb"), *out = fopen(path, "wb");
  assert_non_null(in);
  assert_non_null(out);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    assert_int_equal(fwrite(buf, 1, n, out), n);
  for (int i = 0; i < 60000; i++)
    fprintf(out, "# padding line %d ......\n", i);
  fclose(in);
  assert_int_equal(fclose(out), 0);
  fl_fabric *fab = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(fab, topo, FL_FMT_IBNETDISCOVER, NULL, &err),
                   FL_OK);
  fl_input inp;
  assert_int_equal(fl_input_read(&inp, path, NULL, 0, &err), FL_OK);
  assert_true(inp.map_len > 0 && inp.len > cut);
  assert_int_equal(truncate(path, (off_t)cut), 0);
  int rc = fl_fabric_load_input(fab, &inp, FL_FMT_LFTS, NULL, &err);
  char want[160];
  snprintf(want, sizeof want,
           "the file changed while it was read: it ends at byte %zu", cut);
  if (rc != FL_EIO || !strstr(err.message, want))
    fprintf(stderr, "cut at %zu: rc %d, %u:%u: %s\n", cut, rc, err.line,
            err.col, err.message);
  assert_int_equal(rc, FL_EIO);
  assert_non_null(strstr(err.message, want));
  /* and the NUL check alone: no NUL byte, the file changed */
  fl_error_clear(&err);
  assert_int_equal(fl_input_nul_check(&inp, &err), FL_EIO);
  fl_input_free(&inp);
  fl_fabric_free(fab);
}

static void shrunk_while_read(void **state) {
  (void)state;
  shrunk_by(1000000); /* inside a page: zeros after the new end */
  shrunk_by(1048576); /* at a page boundary: the mapping faults past it */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_short_buffer), cmocka_unit_test(random_buffers),
      cmocka_unit_test(block_edges),        cmocka_unit_test(reader_chunks),
      cmocka_unit_test(shrunk_while_read),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
