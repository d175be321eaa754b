/* SPDX-License-Identifier: MIT */
/*
 * core/model/utf8.h — one UTF-8 sequence check for the model's cleaning of
 * names (fabric.c) and the escaping of messages (error.c) (internal).
 */
#ifndef FABRICLINT_CORE_UTF8_H
#define FABRICLINT_CORE_UTF8_H

#include <stddef.h>

/**
 * fl_utf8_seq() — the length (1-4) of the valid UTF-8 sequence at @s, of
 * the @n bytes available, or 0 when it is not one: a stray continuation
 * byte, an overlong form, a surrogate (U+D800-U+DFFF), past U+10FFFF or
 * cut short (RFC 3629 §4). @n must be at least 1.
 */
size_t fl_utf8_seq(const unsigned char *s, size_t n);

#endif
