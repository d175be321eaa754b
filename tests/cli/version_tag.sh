#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/version_tag.sh — one version (issue 36: "--version from one
# place, git tags vX.Y.Z"): `fabriclint --version` is CMake's
# project(VERSION); CHANGELOG.md has a section for it; and when the source
# tree's commit is tagged v*, the tag is vVERSION (CHANGELOG.md, "A
# release").
. "$(dirname "$0")/lib.bash"
V=$(sed -n 's/^project(fabriclint VERSION \([0-9.]*\).*/\1/p' "$FL_SRC/CMakeLists.txt")
expect_eq "$("$FL" --version | head -1)" "fabriclint $V" "--version"
grep -q "^## $V — [0-9-]* (plugin ABI [0-9.]*)$" "$FL_SRC/CHANGELOG.md" && pass ||
  fail "CHANGELOG.md has no section '## $V — DATE (plugin ABI A.B)'"
if tag=$(git -C "$FL_SRC" describe --tags --exact-match --match 'v*' 2>/dev/null); then
  expect_eq "$tag" "v$V" "the commit's tag"
else
  echo "SKIP (part): the commit is not tagged"
fi
finish
