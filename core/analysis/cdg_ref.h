/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg_ref.h — the design-mode routing analysis without its
 * shortcuts, for tests and benchmarks (internal to the core).
 */
#ifndef FABRICLINT_CORE_CDG_REF_H
#define FABRICLINT_CORE_CDG_REF_H

#include "fabriclint/cdg.h"

/**
 * fl_cdg_analyze_exhaustive() — fl_cdg_analyze() with every shortcut of
 * the design-mode (minimal routing) models off: each root switch is walked
 * in full (no twin roots, analysis/twins.h) and the channel dependency
 * graph is searched for cycles even when an up*-down* ranking proves it
 * acyclic. Takes and returns what fl_cdg_analyze() does; the report must
 * be the same in every field but @seconds (the tests check that). Free
 * the report with fl_cdg_free().
 */
int fl_cdg_analyze_exhaustive(const fl_fabric *fab, const fl_cdg_options *opts,
                              const fl_cdg_report **out);

/**
 * fl_cdg_analyze_closed() — fl_cdg_analyze(), and *@closed set to 1 when
 * the design-mode graph was counted in closed form (analysis/updown.h: no
 * walk, no table, no search), 0 when the walks ran. For the tests, which
 * must know that both paths were compared with the exhaustive analysis.
 */
int fl_cdg_analyze_closed(const fl_fabric *fab, const fl_cdg_options *opts,
                          int *closed, const fl_cdg_report **out);

#endif
