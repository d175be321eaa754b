/* core/model/natcmp.h — comparing names people read and type: natural
 * order (planes, pictures' rows and columns) and the edit distance behind
 * every "did you mean" hint (options, policy keys, annotation keys, rule
 * ids). */
#ifndef FL_MODEL_NATCMP_H
#define FL_MODEL_NATCMP_H

/* Compares two NUL-terminated names in natural order: runs of digits
 * compare by value ("2" < "10", "leaf-9" < "leaf-10"; leading zeros beyond
 * one are ignored), other bytes as unsigned chars. Returns <0, 0 or >0 as
 * strcmp does. Neither argument may be NULL. */
int fl_natcmp(const char *a, const char *b);

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
