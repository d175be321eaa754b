/* SPDX-License-Identifier: MIT */
/*
 * core/model/tier_type.c — the tier a device's declared type states
 * (tier_type.h). SONiC numbers its layers from the ToR (T0) up; fabriclint
 * from the hosts (tier 0) up, so T<n> is tier n + 1.
 */
#include "model/tier_type.h"

#include <stddef.h>
#include <strings.h>

#include "fabriclint/fabric.h"

typedef struct type_tier {
  const char *type;
  uint32_t tier;
  const char *role;
} type_tier;

static const type_tier TYPES[] = {
    {"ToRRouter", 1, "SONiC T0 ToR"},
    {"BackEndToRRouter", 1, "SONiC T0 back-end ToR"},
    {"MgmtToRRouter", 1, "SONiC M0 management ToR"},
    {"MgmtTsToRRouter", 1, "SONiC management terminal-server ToR"},
    {"LeafRouter", 2, "SONiC T1 leaf router"},
    {"BackEndLeafRouter", 2, "SONiC T1 back-end leaf router"},
    {"MgmtLeafRouter", 2, "SONiC M1 management leaf router"},
    {"SpineRouter", 3, "SONiC T2 spine router"},
    {"SpineChassisFrontendRouter", 3, "SONiC T2 spine chassis front end"},
    {"SpineChassisBackendRouter", 3, "SONiC T2 spine chassis back end"},
};

uint32_t fl_tier_of_type(const char *type, const char **role) {
  if (role)
    *role = "";
  if (!type)
    return FL_TIER_UNKNOWN;
  for (size_t i = 0; i < sizeof TYPES / sizeof *TYPES; i++)
    if (strcasecmp(type, TYPES[i].type) == 0) {
      if (role)
        *role = TYPES[i].role;
      return TYPES[i].tier;
    }
  return FL_TIER_UNKNOWN;
}
