#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/spdx.sh — every source file of the project names its licence
# with an SPDX identifier in its first lines (issue 36: "SPDX identifiers in
# source headers"): C sources and headers, scripts, CMake files. Left out:
# test data and fixtures' captures (third parties' files, as they are), the
# frozen plugin SDKs of tests/abi (the headers as they were released) and
# the HTML report's assets (compiled into every report).
. "$(dirname "$0")/lib.bash"
cd "$FL_SRC" || exit 1
list() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files
  else
    find . -path ./build -prune -o -type f -print | sed 's|^\./||'
  fi
}
missing=""
n=0
while IFS= read -r f; do
  case $f in
    tests/abi/* | tests/data/* | */assets/* | build*/*) continue ;;
    *.c | *.h | *.py | *.sh | *.cmake | *.in | *.bash | CMakeLists.txt | */CMakeLists.txt | .ci/run | Containerfile | setup.sh) ;;
    *) continue ;;
  esac
  n=$((n + 1))
  head -3 "$f" | grep -q 'SPDX-License-Identifier: MIT' || missing="$missing $f"
done < <(list)
[ "$n" -gt 600 ] && pass || fail "only $n source files found"
expect_eq "$missing" "" "files without an SPDX identifier in their first 3 lines"
finish
