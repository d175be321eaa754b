/* SPDX-License-Identifier: MIT */
/*
 * core/host/param_check.h — the one check every rule parameter value passes
 * (internal): --param values, policy `params:`, plugin defaults, and the
 * values a rule reads at run time.
 */
#ifndef FABRICLINT_CORE_PARAM_CHECK_H
#define FABRICLINT_CORE_PARAM_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/plugin.h"

/** fl_param_def.min_value / max_value, or NULL when the plugin's
 * descriptor predates them (struct_size of ABI 1.0). */
const char *fl_param_min(const fl_param_def *d);
const char *fl_param_max(const fl_param_def *d);

/** Parse an integer (decimal, 0x hex or 0 octal; "true"/"yes" = 1,
 * "false"/"no" = 0) that fits int64_t. FL_OK or FL_EINVAL. */
int fl_param_parse_int(const char *s, int64_t *out);
/** Parse a finite number (strtod syntax; nan and inf refused). FL_OK or
 * FL_EINVAL. */
int fl_param_parse_double(const char *s, double *out);

/**
 * Check @text as a value of parameter @d: integers fit int64_t, booleans
 * are 0/1/true/false/yes/no, numbers are finite, and numbers lie in
 * [min_value, max_value] (inclusive) when @d declares them. Strings always
 * pass. FL_OK, or FL_EINVAL with @why (size @n) saying what is expected,
 * e.g. "expected a finite number from 0 to 100 (%)".
 * Cost: O(length of the texts).
 */
int fl_param_check_value(const fl_param_def *d, const char *text, char *why,
                         size_t n);

/** Check @d's own declaration: min/max parse as its type, min <= max, and
 * the default (when given and not empty) passes fl_param_check_value().
 * FL_OK, or FL_EINVAL with @why. */
int fl_param_check_def(const fl_param_def *d, char *why, size_t n);

#endif
