# SPDX-License-Identifier: MIT
# ibnetdiscover --cache files (issue 36; docs/formats/ibnetdiscover-cache.md)
# read through libibnetdisc in a child process. The fixture is real: the
# cache and the text ibnetdiscover wrote at the same moment of an ibsim
# fabric with one cable at 1x (tests/fixtures/ibnd-cache/make.sh). The cache
# gives the fabric of the text (the same converted dump), the same findings
# at the same line numbers (those of `ibnetdiscover --load-cache`), from a
# file, standard input or a pipe; a damaged cache, or libibnetdisc hanging,
# crashing or failing on one (a stand-in preloaded, tests/ibnd_shim.c), is
# exit 2 naming the file, in bounded time, and nothing it prints reaches the
# terminal. Without libibnetdisc the cache is refused with the command that
# turns it into text.
. "$(dirname "$0")/lib.bash"
D="$FL_SRC/tests/fixtures/ibnd-cache"
C="$D/fat-tree-2tier-1x.cache"
T="$D/fat-tree-2tier-1x.ibnetdiscover"
if [ "${FL_HAVE_IBNETDISC:-}" != 1 ]; then
  expect_rc 2 "$FL" info "$C"
  expect_grep "$TMP/err" "built without libibnetdisc .*ibnetdiscover --load-cache FILE"
  finish
  exit $?
fi

expect_rc 0 "$FL" info "$C"
expect_grep "$TMP/out" "fat-tree-2tier-1x.cache \(ibnetdiscover-cache\)"
expect_grep "$TMP/out" "^fabric: 24 switches, 128 CAs, 0 routers, 256 links"

# the same fabric as the text captured with it
expect_rc 0 "$FL" convert "$T" -o "$TMP/text.ibnd" --format ibnetdiscover
expect_rc 0 "$FL" convert "$C" -o "$TMP/cache.ibnd" --format ibnetdiscover
if cmp -s "$TMP/text.ibnd" "$TMP/cache.ibnd"; then pass; else
  fail "the cache's fabric is not the text's"; diff "$TMP/text.ibnd" "$TMP/cache.ibnd" | head -5 >&2; fi

# the same findings at the same lines: the degraded cable at line 341
expect_rc 0 "$FL" check "$T"
sed "s|$T|FILE|" "$TMP/out" >"$TMP/text.out"
expect_rc 0 "$FL" check "$C"
sed "s|$C|FILE|" "$TMP/out" >"$TMP/cache.out"
if cmp -s "$TMP/text.out" "$TMP/cache.out"; then pass; else
  fail "findings differ"; diff "$TMP/text.out" "$TMP/cache.out" | head -5 >&2; fi
expect_grep "$TMP/cache.out" "^FILE:341:1: warning: degraded link spine-p01-08 port 1 <-> leaf-p01-01 port 16 runs at 1xHDR"

# standard input and a pipe: the bytes as read, no file name needed
expect_rc 0 "$FL" info - <"$C"
expect_grep "$TMP/out" "^fabric: 24 switches, 128 CAs, 0 routers, 256 links"
expect_rc 0 "$FL" info <(cat "$C")
expect_grep "$TMP/out" "^fabric: 24 switches, 128 CAs, 0 routers, 256 links"

# damaged: cut in half, then the magic number alone
size=$(wc -c <"$C")
head -c $((size / 2)) "$C" >"$TMP/cut.cache"
expect_rc 2 "$FL" check "$TMP/cut.cache"
expect_grep "$TMP/err" "cut.cache: this ibnetdiscover --cache file could not be read by libibnetdisc: it refused the file"
head -c 4 "$C" >"$TMP/magic.cache"
expect_rc 2 "$FL" check "$TMP/magic.cache"
expect_grep "$TMP/err" "magic.cache: .*could not be read by libibnetdisc"

# libibnetdisc misbehaving (the stand-in): bounded, named, silent
SHIM="$FL_BUILD/tests/ibnd_shim.so"
# a sanitizer build with the shared ASan runtime wants it first in the list
ASANRT=$(ldd "$FL" 2>/dev/null | awk '/libclang_rt\.asan|libasan\.so/ { print $3; exit }')
[ -n "$ASANRT" ] && SHIM="$ASANRT $SHIM"
if [ -r "$FL_BUILD/tests/ibnd_shim.so" ]; then
  start=$SECONDS
  FL_SHIM=hang FABRICLINT_CACHE_SECONDS=1 LD_PRELOAD="$SHIM" expect_rc 2 "$FL" check "$C"
  expect_grep "$TMP/err" "could not be read by libibnetdisc: it did not finish in time \(1 s; .*FABRICLINT_CACHE_SECONDS gives a large cache more\)"
  expect_eq "$(( SECONDS - start < 10 ))" 1 "a hang is cut off (took $(( SECONDS - start )) s)"
  FL_SHIM=crash LD_PRELOAD="$SHIM" expect_rc 2 "$FL" check "$C"
  expect_grep "$TMP/err" "could not be read by libibnetdisc: it crashed"
  FL_SHIM=fail LD_PRELOAD="$SHIM" expect_rc 2 "$FL" check "$C"
  expect_grep "$TMP/err" "it refused the file .*\(libibnetdisc: ibnd_load_fabric: Invalid Cache File: /proc/self/fd/[0-9]+\)$"
  expect_eq "$(grep -c 'Invalid Cache File' "$TMP/err")" 1 "libibnetdisc's message only inside fabriclint's"
  expect_eq "$(wc -c <"$TMP/out")" 0 "nothing on standard output"
else
  fail "$FL_BUILD/tests/ibnd_shim.so not built"
fi

# the time limit's variable: whole seconds 1 to 3600, else exit 2
for v in 0 3601 junk 5s -1 " 5"; do
  FABRICLINT_CACHE_SECONDS="$v" expect_rc 2 "$FL" info "$C"
  expect_grep "$TMP/err" "FABRICLINT_CACHE_SECONDS=.*expected whole seconds, 1 to 3600"
done
FABRICLINT_CACHE_SECONDS=3600 expect_rc 0 "$FL" info "$C"
# a text file forced as a cache: named for what it lacks
expect_rc 2 "$FL" info --input-format ibnetdiscover-cache "$T"
expect_grep "$TMP/err" "not an ibnetdiscover --cache file: its first 4 bytes are not the magic number 2B 83 E7 8F"

# forced as text, the cache is still named for what it is
expect_rc 2 "$FL" check --input-format ibnetdiscover "$C"
expect_grep "$TMP/err" "fat-tree-2tier-1x.cache: this is an ibnetdiscover --cache file \(binary\), not ibnetdiscover input"
finish
