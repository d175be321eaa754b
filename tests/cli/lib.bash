# tests/cli/lib.bash — helpers for the command-line tests (sourced).
# Environment from ctest: FL (the executable), FL_SRC, FL_BUILD, FL_EXTERNAL.
set -u
# IBNL system definitions (docs/formats/ibnl.md): none unless a test names
# a directory, so results do not depend on libibdm1 being installed here
export FABRICLINT_IBNL_PATH=${FABRICLINT_IBNL_PATH-}
: "${FL_EXTERNAL:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/external" && pwd)}"
FAILS=0
PASSES=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { PASSES=$((PASSES + 1)); }
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# expect_rc WANT CMD... — run CMD, keep stdout in $TMP/out, stderr in $TMP/err
expect_rc() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" -eq "$want" ]; then pass; else
    fail "exit $got (want $want): $*"; sed 's/^/  err: /' "$TMP/err" | head -5 >&2; fi
}
# expect_grep FILE REGEX — FILE contains a line matching REGEX
expect_grep() {
  if grep -Eq -- "$2" "$1"; then pass; else fail "no /$2/ in $1:"; head -5 "$1" | sed 's/^/  /' >&2; fi
}
expect_eq() { if [ "$1" = "$2" ]; then pass; else fail "${3:-value}: got '$1', want '$2'"; fi; }
# jq-free JSON field access through python3 (in Debian's base) — or jansson? keep python3
# jget FILE EXPR — EXPR is a subscript ("['a'][0]") or, after '=', any
# Python expression over the parsed document d.
jget() {
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); e=sys.argv[2]; print(eval(e[1:] if e.startswith('=') else 'd' + e))" "$1" "$2"
}
# need_external NAME... — the public samples of tests/data/external this
# script reads; when one is missing, report SKIP (exit 77) naming it.
need_external() {
  local n
  for n in "$@"; do
    if [ ! -r "$FL_EXTERNAL/$n" ]; then
      echo "SKIP: public sample $n is missing from $FL_EXTERNAL (see tests/data/external/PROVENANCE.md)"
      exit 77
    fi
  done
}
finish() {
  echo "$PASSES passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}
