/* SPDX-License-Identifier: MIT */
/*
 * core/io/tmp_guard.c — the slots of guarded temporary files; see
 * tmp_guard.h for why this is process-wide state.
 *
 * A slot's state goes FREE -> CLAIMED (its owner copies the path) ->
 * ARMED -> FREE, all by the owner. The handler unlinks ARMED paths only,
 * so it never reads a path being copied, and changes no state. Atomics on int
 * are lock-free on every target fabriclint builds for (checked below), which
 * C11 7.14.1.1 requires of objects a signal handler touches.
 */
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "io/tmp_guard.h"

#if ATOMIC_INT_LOCK_FREE != 2
#error "tmp_guard needs lock-free atomic int (async-signal-safe)"
#endif

enum { SLOT_FREE, SLOT_CLAIMED, SLOT_ARMED };

static atomic_int state[FL_TMP_GUARD_SLOTS];
static char paths[FL_TMP_GUARD_SLOTS][FL_TMP_GUARD_PATH_MAX];

int fl_tmp_guard_arm(const char *path) {
  size_t n = strlen(path);
  if (n >= FL_TMP_GUARD_PATH_MAX)
    return -1;
  for (int i = 0; i < FL_TMP_GUARD_SLOTS; i++) {
    int expect = SLOT_FREE;
    if (!atomic_compare_exchange_strong(&state[i], &expect, SLOT_CLAIMED))
      continue;
    memcpy(paths[i], path, n + 1);
    atomic_store(&state[i], SLOT_ARMED);
    return i;
  }
  return -1;
}

void fl_tmp_guard_disarm(int slot) {
  if (slot >= 0 && slot < FL_TMP_GUARD_SLOTS)
    atomic_store(&state[slot], SLOT_FREE);
}

void fl_tmp_guard_unlink_all(void) {
  /* the slots stay their owners' (who disarm them): a second call, or an
   * owner's later unlink, finds the file gone (ENOENT), which is harmless */
  for (int i = 0; i < FL_TMP_GUARD_SLOTS; i++)
    if (atomic_load(&state[i]) == SLOT_ARMED)
      unlink(paths[i]);
}
