/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/common.h — the export macro of the public API.
 *
 * libfabriclint is built with hidden visibility (-fvisibility=hidden):
 * only functions declared with FL_EXTERN in the headers of include/ are
 * exported from libfabriclint.so, so the library's internal functions are
 * neither part of its ABI nor reachable by a program that links it
 * (tests/cli/lib_exports.sh compares `nm -D --defined-only` with the
 * declarations). The pattern is libgit2's GIT_EXTERN.
 */
#ifndef FABRICLINT_COMMON_H
#define FABRICLINT_COMMON_H

/**
 * FL_EXTERN(type) — declares a public function returning @type, exported
 * from the shared library. Takes: the return type. Expands to
 * `extern type` with default visibility on GCC and Clang, `extern type`
 * elsewhere.
 */
#if defined(__GNUC__) && __GNUC__ >= 4
#define FL_EXTERN(type) extern __attribute__((visibility("default"))) type
#else
#define FL_EXTERN(type) extern type
#endif

#endif /* FABRICLINT_COMMON_H */
