/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_planes.h — what `fabriclint info` says about the planes of
 * a multi-plane fabric (fabriclint/planes.h): how they were found and each
 * plane's switches, CA ports, LIDs and LFTs. core/cli/cli_planes.c.
 */
#ifndef FABRICLINT_CLI_PLANES_H
#define FABRICLINT_CLI_PLANES_H

#include <stdio.h>

#include <jansson.h>

#include "cli/cli_common.h"

/** How the planes were found, in words ("--plane tags", "plane attributes
 * (design, annotations)", "detected: ..."). Static storage. */
const char *fl_cli_planes_source(const fl_cli_opts *o, const fl_fabric *fab);

/** Print the "planes:" lines of `info` to @out; nothing for a fabric of
 * fewer than two planes. */
void fl_cli_planes_text(FILE *out, const fl_cli_opts *o, const fl_fabric *fab);

/** The `planes` object of `info --format json` (new reference), or NULL
 * for a fabric of fewer than two planes: {"count", "source", "planes":
 * [{"name", "switches", "ca_ports", "min_lid", "max_lid", "lfts"}]}. */
json_t *fl_cli_planes_json(const fl_cli_opts *o, const fl_fabric *fab);

#endif
