/* SPDX-License-Identifier: MIT */
/*
 * core/model/utf8.c — see utf8.h.
 */
#include "model/utf8.h"

size_t fl_utf8_seq(const unsigned char *s, size_t n) {
  if (s[0] < 0x80)
    return 1;
  size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
  if (!len || len > n || s[0] > 0xf4)
    return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  /* overlong 3- and 4-byte forms, surrogates, past U+10FFFF */
  if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
      (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
    return 0;
  return len;
}
