/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/roles.h — the vocabulary of host roles, shared by the core
 * (tier derivation: which CAs are compute endpoints) and rule plugins
 * (rail-alignment: which NICs belong on compute rails).
 *
 * A role is a lower-case word given by the `role` attribute (design XML
 * `role="storage"`, an annotation file `node,role`) or the role column of a
 * rail map. Hosts with no role are compute hosts. The words below are the
 * documented roles of hosts that are not GPU compute nodes (docs/design-
 * xml.md, docs/rules/rail-alignment.md): they sit on the fabric (the subnet
 * manager must) but compute rules do not apply to them. Any other word is
 * *unknown*: a typo or a site's own word. It is never taken as a reason to
 * leave a host out: consumers treat it as the default role, compute, and
 * say so (rail-alignment.unknown-role).
 *
 * Header-only (static inline), C99 and C++11, no allocation: a plugin links
 * against nothing but libc (DESIGN.md §3).
 */
#ifndef FABRICLINT_ROLES_H
#define FABRICLINT_ROLES_H

#include <string.h>

/**
 * FL_SERVICE_ROLES — the documented non-compute roles, one string for
 * messages: "storage, management, inband, service, sm, ufm, gateway,
 * login, cache, spare".
 */
#define FL_SERVICE_ROLES                                                       \
  "storage, management, inband, service, sm, ufm, gateway, login, cache, "     \
  "spare"

/**
 * fl_role_is_service() — 1 when @role (NUL-terminated, may be NULL) is one
 * of the documented non-compute roles (FL_SERVICE_ROLES, compared exactly:
 * roles are lower-case words), else 0 (NULL, "", "compute", or an unknown
 * word). Pure, O(length of the list).
 */
static inline int fl_role_is_service(const char *role) {
  static const char *const words[] = {
      "storage", "management", "inband", "service", "sm",
      "ufm",     "gateway",    "login",  "cache",   "spare"};
  if (!role)
    return 0;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(words[i], role) == 0)
      return 1;
  return 0;
}

#endif
