/* SPDX-License-Identifier: MIT */
/*
 * core/model/sysname.c — see sysname.h: a CA's name split into system and
 * device, by the default pattern's scanner or by the user's regex.
 */
#include "model/sysname.h"

#include <stdio.h>
#include <string.h>

const char FL_DEFAULT_SYSTEM_PATTERN[] =
    "^[[:space:]]*([^[:space:]]+)[[:space:]]+"
    "(mlx[0-9]+_[0-9]+|HCA-[0-9]+|hfi[0-9]+_[0-9]+|qib[0-9]+|irdma[0-9]+|"
    "bnxt_re[0-9]+|rocep[0-9a-z]+|ibp[0-9a-z]+|erdma_[0-9]+|efa_[0-9]+)"
    "[[:space:]]*$";

int fl_pattern_check(const char *pattern, fl_error *err) {
  regex_t re;
  int rc = regcomp(&re, pattern, REG_EXTENDED);
  if (rc != 0) {
    char msg[256];
    regerror(rc, &re, msg, sizeof msg);
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "invalid system pattern '%s': %s", pattern, msg);
  }
  size_t groups = re.re_nsub;
  regfree(&re);
  if (groups < 2)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "system pattern '%s' needs two groups (system, "
                        "device), it has %zu",
                        pattern, groups);
  return FL_OK;
}

/* [[:space:]] of the C locale (the library never calls setlocale()). */
static int is_space(unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

static int is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

static int is_lower_alnum(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z');
}

/* 1 when [s, e) is one or more bytes that each pass @ok. */
static int run_of(const char *s, const char *e, int (*ok)(unsigned char)) {
  if (s >= e)
    return 0;
  for (; s < e; s++)
    if (!ok((unsigned char)*s))
      return 0;
  return 1;
}

/* [0-9]+_[0-9]+ over [s, e): digits, one underscore, digits. */
static int digits_us_digits(const char *s, const char *e) {
  const char *us = memchr(s, '_', (size_t)(e - s));
  return us && run_of(s, us, is_digit) && run_of(us + 1, e, is_digit);
}

/* The device alternatives of FL_DEFAULT_SYSTEM_PATTERN, in its order: a
 * prefix and what must follow it to the end of the token. */
enum { TAIL_DIGITS, TAIL_US_DIGITS, TAIL_ALNUM };
static const struct {
  const char *prefix;
  int tail;
} DEVICES[] = {
    {"mlx", TAIL_US_DIGITS}, {"HCA-", TAIL_DIGITS},  {"hfi", TAIL_US_DIGITS},
    {"qib", TAIL_DIGITS},    {"irdma", TAIL_DIGITS}, {"bnxt_re", TAIL_DIGITS},
    {"rocep", TAIL_ALNUM},   {"ibp", TAIL_ALNUM},    {"erdma_", TAIL_DIGITS},
    {"efa_", TAIL_DIGITS},
};

/* 1 when token [s, e) is a whole device name of the default pattern. */
static int is_device(const char *s, const char *e) {
  size_t n = (size_t)(e - s);
  for (size_t k = 0; k < sizeof DEVICES / sizeof DEVICES[0]; k++) {
    size_t pl = strlen(DEVICES[k].prefix);
    if (n <= pl || memcmp(s, DEVICES[k].prefix, pl) != 0)
      continue;
    const char *t = s + pl;
    int ok = DEVICES[k].tail == TAIL_DIGITS      ? run_of(t, e, is_digit)
             : DEVICES[k].tail == TAIL_US_DIGITS ? digits_us_digits(t, e)
                                                 : run_of(t, e, is_lower_alnum);
    if (ok)
      return 1;
  }
  return 0;
}

/* The pattern is anchored at both ends and neither group can hold white
 * space, so a match is exactly: spaces, token, spaces, device token,
 * spaces; the groups are the two tokens and there is no other way to
 * split the string (POSIX leftmost-longest has nothing to choose). */
int fl_sysname_default(const char *s, regmatch_t out[3]) {
  const char *p = s;
  while (is_space((unsigned char)*p))
    p++;
  const char *sys = p;
  while (*p && !is_space((unsigned char)*p))
    p++;
  const char *sys_end = p;
  if (sys_end == sys || !*p)
    return REG_NOMATCH;
  while (is_space((unsigned char)*p))
    p++;
  const char *dev = p;
  while (*p && !is_space((unsigned char)*p))
    p++;
  const char *dev_end = p;
  while (is_space((unsigned char)*p))
    p++;
  if (*p || !is_device(dev, dev_end))
    return REG_NOMATCH;
  out[0].rm_so = 0;
  out[0].rm_eo = (regoff_t)(p - s);
  out[1].rm_so = (regoff_t)(sys - s);
  out[1].rm_eo = (regoff_t)(sys_end - s);
  out[2].rm_so = (regoff_t)(dev - s);
  out[2].rm_eo = (regoff_t)(dev_end - s);
  return 0;
}

int fl_sysmatch_init(fl_sysmatch *m, const char *pattern, fl_error *err) {
  memset(m, 0, sizeof *m);
  if (!pattern || strcmp(pattern, FL_DEFAULT_SYSTEM_PATTERN) == 0) {
    m->fast = 1;
    return FL_OK;
  }
  int rc = fl_pattern_check(pattern, err);
  if (rc != FL_OK)
    return rc;
  if (regcomp(&m->re, pattern, REG_EXTENDED) != 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "bad system pattern");
  return FL_OK;
}

int fl_sysmatch_run(const fl_sysmatch *m, const char *s, regmatch_t out[3]) {
  return m->fast ? fl_sysname_default(s, out) : regexec(&m->re, s, 3, out, 0);
}

void fl_sysmatch_free(fl_sysmatch *m) {
  if (!m->fast)
    regfree(&m->re);
  memset(m, 0, sizeof *m);
}
