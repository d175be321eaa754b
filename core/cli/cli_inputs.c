/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_inputs.c — checks of the inputs a command line names
 * (cli/cli_inputs.h): a file named twice, a malformed plane tag.
 */
#include "cli/cli_inputs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_common.h"

typedef struct file_key {
  dev_t dev;
  ino_t ino;
  size_t index; /* position in the command line's list */
} file_key;

static int key_cmp(const void *pa, const void *pb) {
  const file_key *a = pa, *b = pb;
  if (a->dev != b->dev)
    return a->dev < b->dev ? -1 : 1;
  if (a->ino != b->ino)
    return a->ino < b->ino ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

int fl_cli_check_repeats(const char *const *paths, size_t n, const char *what) {
  if (n < 2)
    return 0;
  file_key *k = malloc(n * sizeof *k);
  if (!k) {
    fprintf(stderr, "fabriclint: out of memory\n");
    return FL_EXIT_USAGE;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0)
      k[m++] = (file_key){st.st_dev, st.st_ino, i};
  }
  qsort(k, m, sizeof *k, key_cmp);
  /* the repeat reported is the one named last of the earliest pair */
  size_t first = SIZE_MAX, second = SIZE_MAX;
  for (size_t i = 1; i < m; i++)
    if (k[i].dev == k[i - 1].dev && k[i].ino == k[i - 1].ino &&
        (second == SIZE_MAX || k[i].index < second)) {
      size_t j = i - 1; /* the first naming of this file */
      while (j > 0 && k[j - 1].dev == k[i].dev && k[j - 1].ino == k[i].ino)
        j--;
      first = k[j].index;
      second = k[i].index;
    }
  free(k);
  if (second == SIZE_MAX)
    return 0;
  fprintf(stderr,
          "fabriclint: %s: the same file as %s %zu (%s): each file is loaded "
          "once (a capture loaded twice repeats every GUID and LID and would "
          "read as a second plane); name each %s once\n",
          paths[second], what, first + 1, paths[first], what);
  return FL_EXIT_USAGE;
}

int fl_cli_plane_spec(const char *opt, const char *arg, size_t *name_len) {
  const char *colon = strchr(arg, ':');
  if (!colon || colon == arg || !colon[1]) {
    fprintf(stderr,
            "fabriclint: %s: expected NAME:FILE (a plane name, a colon, an "
            "input), got '%s'\n(see fabriclint --help)\n",
            opt, arg);
    return FL_EXIT_USAGE;
  }
  for (const char *p = arg; p < colon; p++) {
    unsigned char c = (unsigned char)*p;
    size_t at = (size_t)(p - arg) + 1;
    if (c == ',') {
      fprintf(stderr,
              "fabriclint: %s: plane name '%.*s' holds a comma (byte %zu): "
              "expected a name without commas (findings join the planes of "
              "a cable's two ends with a comma, \"A,B\")\n(see fabriclint "
              "--help)\n",
              opt, (int)(colon - arg), arg, at);
      return FL_EXIT_USAGE;
    }
    if (c < 0x20 || c == 0x7f) {
      fprintf(stderr,
              "fabriclint: %s: plane name holds control character 0x%02x "
              "(byte %zu): expected printable text (each finding is one "
              "line)\n(see fabriclint --help)\n",
              opt, c, at);
      return FL_EXIT_USAGE;
    }
  }
  if (name_len)
    *name_len = (size_t)(colon - arg);
  return 0;
}
