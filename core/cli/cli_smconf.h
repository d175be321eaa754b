/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_smconf.h — `check --sm-config opensm.conf` (issue 36): the
 * subnet manager's own configuration turned into rule parameters, so that
 * design-mode verdicts model the routing engine and LMC the site runs
 * instead of guessing them (docs/cli.md "The subnet manager's
 * configuration").
 */
#ifndef FABRICLINT_CORE_CLI_SMCONF_H
#define FABRICLINT_CORE_CLI_SMCONF_H

#include "cli/cli_common.h"

/**
 * fl_cli_sm_config() — read o->sm_config (an OpenSM configuration file:
 * `opensm --create-config` output, `KEY VALUE` lines, `#` comments) and
 * put the parameters it implies before the user's --param values (so that
 * --param and --policy still win): routing_engine -> deadlock's
 * routing-engine (the first engine of a chain; `(null)`, OpenSM's default,
 * is minhop), lmc -> topology.lid-space.lmc, ar_sl_mask (NVIDIA's OpenSM)
 * -> adaptive-routing's sl-mask. An engine fabriclint does not model
 * (lash, dfsssp, nue, dor, torus-2QoS, sssp, dnup, file) sets nothing and
 * is said in a note. With o->verbose, prints what was taken. Returns 0, or
 * FL_EXIT_USAGE after printing `FILE:LINE:COL: what was expected` (a value
 * out of range, a line without a value, an unreadable file).
 */
int fl_cli_sm_config(fl_cli_opts *o);

#endif
