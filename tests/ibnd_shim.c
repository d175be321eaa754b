/* SPDX-License-Identifier: MIT */
/*
 * tests/ibnd_shim.c — a stand-in for libibnetdisc's ibnd_load_fabric(),
 * preloaded (LD_PRELOAD) by tests/cli/ibnd_cache.sh to see what fabriclint
 * does when the library misbehaves on a cache, as it does on damaged ones:
 * FL_SHIM=hang loops without end, FL_SHIM=crash dies of SIGSEGV,
 * FL_SHIM=fail prints a message on standard error and returns NULL. Any
 * other value: the real function.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *ibnd_load_fabric(const char *file, unsigned int flags);

void *ibnd_load_fabric(const char *file, unsigned int flags) {
  const char *m = getenv("FL_SHIM");
  if (m && strcmp(m, "hang") == 0)
    for (volatile unsigned long i = 0;; i++)
      ;
  if (m && strcmp(m, "crash") == 0)
    raise(SIGSEGV);
  if (m && strcmp(m, "fail") == 0) {
    fprintf(stderr, "ibnd_load_fabric: Invalid Cache File: %s\n", file);
    return NULL;
  }
  void *(*real)(const char *, unsigned int) =
      (void *(*)(const char *, unsigned int))dlsym(RTLD_NEXT,
                                                   "ibnd_load_fabric");
  return real ? real(file, flags) : NULL;
}
