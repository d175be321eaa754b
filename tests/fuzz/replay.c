/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/replay.c — run a harness's LLVMFuzzerTestOneInput() on files,
 * without libFuzzer: built with every compiler, so the seed corpus and the
 * regression inputs of tests/fuzz/regressions/<harness>/ run as ordinary
 * ctest tests (and under the sanitizers when the build uses them).
 *
 * Usage: replay [--check] FILE|DIR...
 *   Each FILE is read into a buffer of exactly its size (so a read past the
 *   end is caught by AddressSanitizer) and passed once; a DIR's regular,
 *   non-hidden files are passed in name order.
 *   --check: an input whose name starts with "bad-" must be refused, every
 *   other one accepted (fz_outcome()); a mismatch is named and the exit
 *   status is 1. This proves that the seeds reach the loader and that the
 *   harness plumbing (memfd, split, selector) works.
 * Prints "replayed N inputs: A accepted, R refused". Exit 0; 1 on a --check
 * mismatch, an unreadable file, or when no input was given at all.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

typedef struct tally {
  int check;
  size_t n, accepted, refused, mismatched, unreadable;
} tally;

static uint8_t *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? 2 * cap : 65536;
      uint8_t *nb = realloc(buf, ncap);
      if (!nb)
        break;
      buf = nb, cap = ncap;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0)
      break;
  }
  int bad = ferror(f) || n == cap;
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  /* an exact-size copy: ASan then sees any read past the input's end */
  uint8_t *exact = malloc(n ? n : 1);
  if (exact)
    memcpy(exact, buf, n);
  free(buf);
  *len = n;
  return exact;
}

static void run_file(const char *path, tally *t) {
  size_t len = 0;
  uint8_t *data = read_all(path, &len);
  if (!data) {
    fprintf(stderr, "replay: %s: cannot read\n", path);
    t->unreadable++;
    return;
  }
  fz_set_outcome(0);
  LLVMFuzzerTestOneInput(data, len);
  free(data);
  int ok = fz_outcome();
  t->n++;
  ok ? t->accepted++ : t->refused++;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  int want = strncmp(base, "bad-", 4) != 0;
  if (t->check && ok != want) {
    fprintf(stderr, "replay: %s: %s, expected %s\n", path,
            ok ? "accepted" : "refused", want ? "accepted" : "refused");
    t->mismatched++;
  }
}

static int visible(const struct dirent *e) {
  return e->d_name[0] != '.';
}

static void run_path(const char *path, tally *t) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
    run_file(path, t);
    return;
  }
  struct dirent **ents;
  int k = scandir(path, &ents, visible, alphasort);
  if (k < 0) {
    fprintf(stderr, "replay: %s: cannot list\n", path);
    t->unreadable++;
    return;
  }
  for (int i = 0; i < k; i++) {
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", path, ents[i]->d_name);
    if (stat(sub, &st) == 0 && S_ISREG(st.st_mode))
      run_file(sub, t);
    free(ents[i]);
  }
  free(ents);
}

int main(int argc, char **argv) {
  tally t = {0};
  int i = 1;
  if (i < argc && strcmp(argv[i], "--check") == 0)
    t.check = 1, i++;
  for (; i < argc; i++)
    run_path(argv[i], &t);
  printf("replayed %zu inputs: %zu accepted, %zu refused\n", t.n, t.accepted,
         t.refused);
  if (t.n == 0)
    fprintf(stderr, "replay: no input\n");
  return t.n == 0 || t.mismatched || t.unreadable ? 1 : 0;
}
