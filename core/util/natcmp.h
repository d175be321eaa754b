/* SPDX-License-Identifier: MIT */
/* core/util/natcmp.h — comparing names people read and type: natural
 * order (planes, pictures' rows and columns, plugins' sorted names) and the
 * edit distance behind every "did you mean" hint (options, policy keys,
 * annotation keys, rule ids). */
#ifndef FL_UTIL_NATCMP_H
#define FL_UTIL_NATCMP_H

/* Compares two NUL-terminated names in natural order: runs of decimal
 * digits compare by value ("2" < "10", "leaf-9" < "leaf-10"), other bytes
 * as unsigned chars. A run's value is compared digit by digit, never
 * converted to an integer, so runs of any length compare exactly (no
 * saturation at ULONG_MAX: "...991" < "...992" at 40 digits). Leading
 * zeros do not count: "a01" and "a1" compare equal (a total preorder;
 * fl_natcmp_strict() orders them). Returns <0, 0 or >0 as strcmp does.
 * Neither argument may be NULL. */
int fl_natcmp(const char *a, const char *b);

/* fl_natcmp(), with names of equal value told apart by strcmp() (more
 * leading zeros first: "a001" < "a01" < "a1"), so that only equal strings
 * compare 0: a total order, for sorts whose output must not depend on the
 * sorting algorithm. */
int fl_natcmp_strict(const char *a, const char *b);

/* qsort() comparators of `const char *` elements by fl_natcmp() and
 * fl_natcmp_strict(). */
int fl_natcmp_ptr(const void *a, const void *b);
int fl_natcmp_strict_ptr(const void *a, const void *b);

/* Optimal string alignment distance of two NUL-terminated strings: the
 * fewest single-byte insertions, deletions, substitutions and transpositions
 * of two adjacent bytes that turn @a into @b (Levenshtein with Damerau's
 * transposition; no substring edited twice). Returns the distance, or @cap
 * when it is @cap or more or when either string is longer than
 * FL_EDIT_MAX_LEN bytes (hints are for short words). Neither argument may
 * be NULL. Cost O(|a| * |b|) time, no allocation. */
#define FL_EDIT_MAX_LEN 128
unsigned fl_edit_distance(const char *a, const char *b, unsigned cap);

#endif
