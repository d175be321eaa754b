/* SPDX-License-Identifier: MIT */
/* core/util/hostlist.h — writing a set of names as a Slurm hostlist
 * expression ("dgx-[001-032],login1"), the notation Slurm's topology.conf,
 * topology.yaml and node lists parse (Slurm's src/common/hostlist.c; the
 * form is documented in topology.conf(5): "Nodes=tux[0-3,12,18-20]"). */
#ifndef FL_UTIL_HOSTLIST_H
#define FL_UTIL_HOSTLIST_H

#include <stddef.h>

/* Writes the @n NUL-terminated names @names (distinct; any order; none
 * NULL) as one hostlist expression into a new NUL-terminated string, which
 * the caller frees; NULL when out of memory. @n == 0 gives "".
 *
 * A name is split into a prefix and its trailing run of decimal digits (at
 * most 9; a longer run, or none, leaves the name whole). Names with the
 * same prefix are sorted by value and folded into brackets of values and
 * ranges; a bracket's numbers are printed zero-padded to the width of its
 * first one, as Slurm's hostlist reader expands them (a range's width is
 * its low end's: src/common/hostlist.c), so a name joins a bracket only
 * when that printing gives it back: "dgx-097".."dgx-128" fold to
 * dgx-[097-128], "H-1".."H-64" to H-[1-64], while "n09" and "n9" never
 * share one. Every bracket therefore expands to exactly the names given.
 * Brackets and whole names are listed in natural order of their prefix
 * (fl_natcmp_strict), then first value, comma-separated. Names must not
 * themselves contain ',', '[' or ']' (a hostlist reader would split or
 * expand them): callers check (fl_hostlist_name_ok).
 * Cost O(n log n) time, O(total length) memory. */
char *fl_hostlist_fold(const char *const *names, size_t n);

/* 1 when @name may be written into a hostlist as it is: not empty, and
 * only letters, digits, '-', '_', '.' and ':' (no blank, ',', '[', ']',
 * '=' or '#', which Slurm's configuration parser or hostlist reader would
 * take as syntax). */
int fl_hostlist_name_ok(const char *name);

#endif
