/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz.h — what the libFuzzer harnesses of tests/fuzz/ share.
 *
 * Every harness defines LLVMFuzzerTestOneInput() and feeds the bytes to one
 * loader through the PUBLIC load API (fl_fabric_load() with an explicit
 * format), so a harness targets one loader and never format detection, and
 * survives changes to how the core reads files. The loaders take a path, so
 * the bytes go to a memfd and the loader reads /proc/self/fd/N.
 *
 * An input may hold several files (a topology, then a routing dump that
 * refers to it): they are separated by FZ_SPLIT. Harnesses that cover
 * several formats take a selector byte first: ('0' + k) picks variant k
 * (any byte works: the value is taken modulo the number of variants).
 *
 * Each harness records whether the last input was accepted (every load and
 * the finalisation returned FL_OK) in fz_outcome(); the replay driver
 * (replay.c) uses it to check that the seed corpus really reaches the
 * loaders (seeds named bad-* must be refused, all others accepted).
 * Any refusal must carry an error record with a message: a loader that
 * fails without saying why aborts the run (a finding).
 */
#ifndef FABRICLINT_FUZZ_H
#define FABRICLINT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"

/** Separator between the files of one input (a line of its own). */
#define FZ_SPLIT "\n#--fabriclint-fuzz-split--\n"
/** Most files in one input. */
#define FZ_MAX_PARTS 4

/** Pieces of one input (pointers into the caller's buffer). */
typedef struct fz_parts {
  const uint8_t *p[FZ_MAX_PARTS];
  size_t n[FZ_MAX_PARTS];
  size_t count; /* >= 1 */
} fz_parts;

/** libFuzzer's entry point, defined by each harness. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/**
 * fz_split() — cut @data (@size bytes) at FZ_SPLIT into at most FZ_MAX_PARTS
 * parts (the last part keeps any further separators).
 */
void fz_split(const uint8_t *data, size_t size, fz_parts *out);

/**
 * fz_select() — the selector byte: (data[0] - '0') modulo @variants, and
 * advances @data / @size past it. Returns 0 (and consumes nothing) on an
 * empty input.
 */
unsigned fz_select(const uint8_t **data, size_t *size, unsigned variants);

/**
 * fz_file() — write @len bytes to the process's memfd number @slot
 * (0..FZ_MAX_PARTS-1, created on first use and reused) and return its path
 * "/proc/self/fd/N" (static storage per slot). Aborts when no memfd can be
 * made: a harness that cannot feed its loader must not look like a pass.
 */
const char *fz_file(unsigned slot, const uint8_t *data, size_t len);

/**
 * fz_load() — fz_file(@slot, ...) then fl_fabric_load(@fab, path, @fmt,
 * @opts). Returns the loader's code; aborts when a refusal carries no error
 * code or message, or a code other than the one returned.
 */
int fz_load(fl_fabric *fab, unsigned slot, const uint8_t *data, size_t len,
            uint32_t fmt, const fl_load_options *opts);

/** fz_finalize() — fl_fabric_finalize() with the same error checks. */
int fz_finalize(fl_fabric *fab);

/** fz_check_error() — abort unless a refusal @rc is described by @err. */
struct fl_error;
void fz_check_error(int rc, const struct fl_error *err);

/**
 * fz_load_chain() — a new fabric; each part but the last loaded in the
 * format ctx[i] (the last ctx entry repeats), the last part in @target, then
 * fl_fabric_finalize() (the order of fabriclint check: topology first).
 * Stops at the first refusal, frees the fabric, records the outcome.
 * Returns 1 when everything was accepted.
 */
int fz_load_chain(const fz_parts *parts, const uint32_t *ctx, size_t n_ctx,
                  uint32_t target, const fl_load_options *opts);

/** fz_set_outcome() / fz_outcome() — 1: the last input was accepted. */
void fz_set_outcome(int accepted);
int fz_outcome(void);

#endif /* FABRICLINT_FUZZ_H */
