#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_ci_recipe.sh — the GitHub Actions recipe of docs/ci.md
# ("Comparing a change"): the lines between its `fabric-compare` markers
# run here as the workflow runs them, in a scratch git repository whose
# pull request changes a plan made by `fabriclint gen`, with the
# variables GitHub sets (GITHUB_STEP_SUMMARY, RUNNER_TEMP) and fabriclint
# on PATH.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/compare_lib.bash"
need_tool git
cmp_plans || { fail "gen"; finish; }
recipe=$TMP/recipe.sh
sed -n '/# fabric-compare: begin/,/# fabric-compare: end/p' "$FL_SRC/docs/ci.md" | sed 's/^          //' >"$recipe"
expect_eq "$(grep -c 'fabriclint compare' "$recipe")" 1 "the recipe is found in docs/ci.md"
mkdir -p "$TMP/bin" && ln -s "$FL" "$TMP/bin/fabriclint"
G() { git -C "$TMP/repo" -c user.name=ci -c user.email=ci@example.invalid "$@"; }
# the target branch holds the 1:1 plan; the pull request (head) changes it
mkdir -p "$TMP/repo/fabric" && G init -q -b main
cp "$TMP/base.xml" "$TMP/repo/fabric/pod1.xml" && G add fabric && G commit -qm base
base_sha=$(G rev-parse HEAD)
# run_recipe HEAD_PLAN: commit it on a pull-request branch and run the
# recipe; the exit code in $TMP/rc, the job summary in $TMP/summary.md
run_recipe() {
  G checkout -q -B pr "$base_sha"
  if [ -n "$1" ]; then cp "$1" "$TMP/repo/fabric/pod1.xml"; fi
  G add -A fabric && G commit -qm "pr" --allow-empty
  rm -f "$TMP/summary.md" && mkdir -p "$TMP/runner"
  (cd "$TMP/repo" && PATH="$TMP/bin:$PATH" BASE_SHA=$base_sha PLAN=fabric/pod1.xml \
    RUNNER_TEMP=$TMP/runner GITHUB_STEP_SUMMARY=$TMP/summary.md bash -e "$recipe") >"$TMP/out" 2>"$TMP/err"
  echo $? >"$TMP/rc"
}
run_recipe "$TMP/over.xml"                     # 1:1 -> 2:1
expect_eq "$(cat "$TMP/rc")" 1 "2:1: the job fails"
expect_grep "$TMP/summary.md" '^### fabriclint compare$'
expect_grep "$TMP/summary.md" '^\| &nbsp;&nbsp;oversubscription tier 1 \| 1 \| 2 \| \+1 \|$'
expect_grep "$TMP/summary.md" '^- ❌ `new-error`'
expect_grep "$TMP/summary.md" '^- ❌ `oversubscription-rise`'
expect_grep "$TMP/summary.md" '^- ❌ `ebb-drop=0.05`'
run_recipe "$TMP/su3.xml"                      # an added SU, still 1:1
expect_eq "$(cat "$TMP/rc")" 0 "an added SU: the job passes"
expect_grep "$TMP/summary.md" '^\| switches \| 6 \| 10 \| \+4 \|$'
expect_grep "$TMP/summary.md" '^- ✅ `oversubscription-rise`'
# a pull request that adds the plan: nothing to compare, the job passes
G checkout -q -B pr2 "$base_sha" && G mv fabric/pod1.xml fabric/pod0.xml && G commit -qm "move"
base_sha=$(G rev-parse HEAD)
run_recipe "$TMP/base.xml"
expect_eq "$(cat "$TMP/rc")" 0 "a new plan: the job passes"
expect_grep "$TMP/summary.md" 'fabric/pod1.xml is new in this change: nothing to compare'
finish
