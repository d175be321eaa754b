# SPDX-License-Identifier: MIT
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
# jget FILE EXPR — EXPR is a subscript ("['a'][0]") or, after '=', any
# Python expression over the parsed document d. Prints the value (Python's
# str()); status 1, with the traceback on stderr, when FILE does not parse
# or EXPR fails. One python3 interpreter per test answers every call (it is
# started here, when this file is sourced, because calls run in $(...)
# subshells): a request is "FILE\0EXPR\0" on fd $FL_JGET_IN, the answer a
# status digit, the text and a NUL on fd $FL_JGET_OUT. A file is parsed
# again only when its bytes changed. Where python3 is a version-manager
# shim, this saves its start-up (up to 2 s) on every lookup.
_fl_jget_server='
import json, os, select, sys, traceback
owner, out, cache = int(sys.argv[1]), sys.stdout.buffer, {}
pend = bytearray()
def alive():
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True
def field():
    while b"\0" not in pend:
        while not select.select([0], [], [], 5)[0]:
            if not alive():
                sys.exit(0)
        c = os.read(0, 65536)
        if not c:
            sys.exit(0)
        pend.extend(c)
    i = pend.index(b"\0")
    f = bytes(pend[:i])
    del pend[:i + 1]
    return f.decode("utf-8", "surrogateescape")
while True:
    path, e = field(), field()
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        if path not in cache or cache[path][0] != raw:
            cache[path] = (raw, json.loads(raw))
        d = cache[path][1]
        ans = b"0" + (str(eval(e[1:] if e.startswith("=") else "d" + e)) + "\n").encode("utf-8", "surrogateescape")
    except Exception:
        cache.pop(path, None)
        traceback.print_exc()
        sys.stderr.flush()
        ans = b"1"
    out.write(ans.replace(b"\0", b"") + b"\0")
    out.flush()
'
# python3 resolved once: where it is a version-manager shim (pyenv), each
# start costs the shim's own start-up (measured: 5 s a call on a loaded
# 2-core machine, 0.4 s for the interpreter itself). The interpreter the
# shim picks is found once per build tree (cached in $FL_BUILD/tests/
# python3.path) and every `python3` of a test runs it directly.
FL_PYTHON=""
if [ -n "${FL_BUILD:-}" ] && [ -r "$FL_BUILD/tests/python3.path" ]; then
  FL_PYTHON=$(cat "$FL_BUILD/tests/python3.path")
  [ -x "$FL_PYTHON" ] || FL_PYTHON=""
fi
if [ -z "$FL_PYTHON" ] && command -v python3 >/dev/null; then
  FL_PYTHON=$(command python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
  if [ -n "$FL_PYTHON" ] && [ -n "${FL_BUILD:-}" ] && [ -d "$FL_BUILD/tests" ]; then
    echo "$FL_PYTHON" >"$FL_BUILD/tests/python3.path.$$" &&
      mv -f "$FL_BUILD/tests/python3.path.$$" "$FL_BUILD/tests/python3.path"
  fi
fi
if [ -n "$FL_PYTHON" ]; then
  python3() { "$FL_PYTHON" "$@"; }
fi
FL_JGET_IN=""
FL_JGET_OUT=""
if [ -n "$FL_PYTHON" ]; then
  # Not a coprocess, nor any job of the test's shell: a test's bare `wait`
  # (for a writer into a FIFO) would wait for the server forever. It runs
  # detached, on two FIFOs, and leaves when the test's shell ($$) is gone
  # or closes its end.
  mkfifo "$TMP/.jget-in" "$TMP/.jget-out"
  ( exec "$FL_PYTHON" -u -c "$_fl_jget_server" $$ <"$TMP/.jget-in" >"$TMP/.jget-out" & )
  exec {FL_JGET_IN}>"$TMP/.jget-in" {FL_JGET_OUT}<"$TMP/.jget-out"
fi
jget() {
  local ans
  if [ -z "$FL_JGET_IN" ]; then
    echo "jget: python3 not found" >&2
    return 1
  fi
  # the interpreter was started in the test's first folder: a relative path
  # is the caller's, so it goes over absolute (a test may cd after sourcing)
  local f=$1
  case $f in /*) ;; *) f=$PWD/$f ;; esac
  printf '%s\0%s\0' "$f" "$2" >&"$FL_JGET_IN" || return 1
  IFS= read -r -d '' ans <&"$FL_JGET_OUT" || return 1
  printf '%s' "${ans:1}"
  [ "${ans:0:1}" = 0 ]
}
# pyval EXPR — the value (Python's str()) of a Python expression, from the
# same interpreter as jget (status 1 when EXPR fails): a test's float
# comparisons and computed expectations without a python3 started for each
# (each start is 20-90 ms of CPU; perf_step.sh made 41 of them)
pyval() {
  [ -e "$TMP/.pyval.json" ] || echo null >"$TMP/.pyval.json"
  jget "$TMP/.pyval.json" "=$1"
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
# need_corpus FILE... — every FILE of the real-fabric corpus is there: the
# corpus is in the repository, tests/data/real/captures (README.md there),
# unless $FL_REAL_CORPUS names another copy; sets FL_CORPUS to that folder,
# or reports SKIP (exit 77) naming what is missing.
need_corpus() {
  local n src
  src=${FL_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
  FL_CORPUS=${FL_REAL_CORPUS:-$src/tests/data/real/captures}
  for n in "$@"; do
    if [ ! -r "$FL_CORPUS/$n" ]; then
      echo "SKIP: real-corpus file $n is missing from $FL_CORPUS (tests/data/real/README.md)"
      exit 77
    fi
  done
}
# need_tool TOOL... — every TOOL is on PATH (setup.sh installs them); when
# one is missing, report SKIP (exit 77) naming it — unless a check already
# failed, which must not be hidden behind a SKIP. Call it before the first
# check that needs the tool, never guard a section with `if command -v`.
need_tool() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 && continue
    if [ "$FAILS" -gt 0 ]; then
      fail "$t not installed (and $FAILS check(s) failed before)"
      finish
      exit 1
    fi
    echo "SKIP: $t is not installed (setup.sh installs it)"
    exit 77
  done
}
# need_chromium — a headless browser for the tests that look at a report
# (Debian chromium, or chromium-browser) in CHROMIUM, else SKIP (exit 77).
need_chromium() {
  CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
  if [ -z "$CHROMIUM" ]; then
    echo "SKIP: chromium is not installed (apt-get install chromium)"
    exit 77
  fi
}
# chrome URL ARGS... — CHROMIUM (need_chromium) on URL: headless, no
# profile of the user, bounded in time, its messages in $TMP/chrome.err.
chrome() {
  local url=$1
  shift
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
    --no-first-run --user-data-dir="$TMP/profile" --hide-scrollbars "$@" "$url" \
    2>>"$TMP/chrome.err"
}
finish() {
  echo "$PASSES passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}
