#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/ibnl_amplification.sh — the third robustness review's IBNL
# amplification reproducer (issue 32 #7, tests/fixtures/robustness-3b,
# PROVENANCE.md): BIG.ibnl's boards 4 wide and 9 deep make 262,144 ASICs
# per system, and many-BIG.topo names 20 of them; loading stops at the
# default node cap (262,144: the first system fills it) with exit 2 naming
# the cap. Label big (tests/CMakeLists.txt): expanding the first system is
# its time by design (about 1 s here, 10 s of CPU under the sanitizers);
# robust3b.sh runs the cap inside IBNL expansion at test size (the 728
# nodes of RhinoBased512.topo, at and one below the cap) under them.
. "$(dirname "$0")/lib.bash"
R="$FL_SRC/tests/fixtures/robustness-3b"
CAP="the fabric size cap; set FABRICLINT_MAX"
expect_rc 2 timeout 120 env FABRICLINT_IBNL_PATH="$R" "$FL" info "$R/many-BIG.topo"
expect_grep "$TMP/err" "many-BIG.topo: the fabric grows past the cap of 262144 nodes \($CAP""_NODES to raise it\)"
finish
