#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/compare_outputs.sh — do two builds of fabriclint print the same bytes?
#
# Usage: tests/compare_outputs.sh [-q] OLD_BIN NEW_BIN [INPUT_ROOT...]
#   OLD_BIN, NEW_BIN  two fabriclint executables (each loads the plugins
#                     built beside it), e.g. a build of main and of a branch
#   INPUT_ROOT        folders searched for inputs (default: tests/fixtures,
#                     fabrics/ and ../shared/cases when it exists)
#   -q                print only the differences and the summary
#
# For a refactoring that must not change behaviour (a file split): every
# input file is run through `check` (text and --format json) and `info`
# (text and json); every folder's input files are also given together to
# `check --format json` (a topology with its routing dumps); in every folder
# each design-like file (name with design, plan or cisco) is diffed with each
# as-built-like file of the folder (asbuilt, as-built, ibnetdiscover, lldp)
# in text, json and csv. Standard output, standard error and the exit
# status of both binaries are compared byte for byte. Only what cannot be
# equal is normalised: a binary's own folder (in plugin paths) becomes BIN,
# and JSON "seconds" timings become 0. A run that takes longer than
# FL_COMPARE_TIMEOUT seconds (default 60; the robustness cases include
# inputs that take minutes and gigabytes) is stopped: when both binaries
# time out the run counts as a match (their partial output is not
# compared) and the summary says how many did.
#
# Exit 0 when every run matched, 1 when one differed (each is named, with
# the first lines of the diff), 2 on a usage error.
set -uo pipefail

quiet=0
[ "${1:-}" = -q ] && { quiet=1; shift; }
[ $# -ge 2 ] || { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
old=$(readlink -f "$1") new=$(readlink -f "$2")
shift 2
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "compare_outputs.sh: $b is not an executable" >&2; exit 2; }
done
src=$(cd "$(dirname "$0")/.." && pwd)
roots=("$@")
if [ ${#roots[@]} -eq 0 ]; then
  roots=("$src/tests/fixtures" "$src/fabrics")
  [ -d "$src/../shared/cases" ] && roots+=("$(cd "$src/../shared/cases" && pwd)")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fl-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export FABRICLINT_TODAY=2026-01-01 # rules that read the date see one date
unset FABRICLINT_PLUGIN_PATH
runs=0 diffs=0 timeouts=0
limit=${FL_COMPARE_TIMEOUT:-60}

# run BIN ARGS... > $tmp/out.BIN (stdout, then stderr, then the status)
run_one() {
  local bin=$1 tag=$2
  shift 2
  (cd "$tmp/cwd" && timeout "$limit" "$bin" "$@" >"$tmp/o" 2>"$tmp/e" </dev/null)
  local rc=$?
  echo $rc >"$tmp/rc.$tag"
  { cat "$tmp/o"; echo "--- stderr"; cat "$tmp/e"; echo "--- exit $rc"; } |
    sed -e "s|$(dirname "$bin")|BIN|g" \
      -e 's/"seconds": *[0-9.e+-]*/"seconds": 0/g' >"$tmp/out.$tag"
}

compare() {
  runs=$((runs + 1))
  run_one "$old" old "$@"
  run_one "$new" new "$@"
  if [ "$(cat "$tmp/rc.old")" = 124 ] && [ "$(cat "$tmp/rc.new")" = 124 ]; then
    timeouts=$((timeouts + 1))
    echo "TIMEOUT (both, ${limit} s): fabriclint $*"
  elif ! cmp -s "$tmp/out.old" "$tmp/out.new"; then
    diffs=$((diffs + 1))
    echo "DIFFERS: fabriclint $*"
    diff "$tmp/out.old" "$tmp/out.new" | sed -n 1,8p | sed 's/^/    /'
  elif [ $quiet = 0 ]; then
    echo "same:    fabriclint $*"
  fi
}

# an input: not documentation, scripts or expected outputs
is_input() {
  case ${1##*/} in
  README* | *.md | *.sh | *.bash | *.py | *.expected | *.out | TIMING | *.txt) return 1 ;;
  esac
  return 0
}

mkdir -p "$tmp/cwd"
for root in "${roots[@]}"; do
  [ -d "$root" ] || continue
  while IFS= read -r dir; do
    files=()
    while IFS= read -r f; do
      is_input "$f" && files+=("$f")
    done < <(find "$dir" -maxdepth 1 -type f | LC_ALL=C sort)
    [ ${#files[@]} -gt 0 ] || continue
    for f in "${files[@]}"; do
      compare check "$f"
      compare check --format json "$f"
      compare info "$f"
      compare info --format json "$f"
    done
    [ ${#files[@]} -gt 1 ] && compare check --format json "${files[@]}"
    designs=() builts=()
    for f in "${files[@]}"; do
      case ${f##*/} in
      *design* | *plan* | *cisco*) designs+=("$f") ;;
      *asbuilt* | *as-built* | *ibnetdiscover* | *lldp*) builts+=("$f") ;;
      esac
    done
    for d in "${designs[@]}"; do
      for b in "${builts[@]}"; do
        compare diff "$d" "$b"
        compare diff --format json "$d" "$b"
        compare diff --format csv "$d" "$b"
      done
    done
  done < <(find "$root" -type d | LC_ALL=C sort)
done
echo "compare_outputs.sh: $runs runs, $diffs differ, $timeouts timed out in both ($old vs $new)"
[ $diffs -eq 0 ]
