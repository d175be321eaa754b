/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_infer.h — `fabriclint info --explain`: every inference of
 * the loaded fabric with its confidence and evidence (fabriclint/infer.h,
 * docs/inference.md), as text and as JSON.
 */
#ifndef FABRICLINT_CLI_INFER_H
#define FABRICLINT_CLI_INFER_H

#include <stdio.h>

#include <jansson.h>

#include "fabriclint/fabric.h"

/** Print the inferences of finalized fabric @fab to @out: the tier of each
 * switch, then the SU of each host and of each leaf, one line each. */
void fl_cli_infer_text(FILE *out, const fl_fabric *fab);

/** The same as a new JSON object {"tiers": [...], "sus": {...}}; NULL on
 * ENOMEM. Caller owns it. */
json_t *fl_cli_infer_json(const fl_fabric *fab);

#endif
