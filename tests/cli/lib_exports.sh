# SPDX-License-Identifier: MIT
# Library hygiene (issue 36): libfabriclint.so is built with hidden
# visibility and exports exactly the functions that the headers of include/
# declare (FL_EXTERN, include/fabriclint/common.h) — both ways round: no
# internal function leaks out, no declared function is missing. The
# declarations are listed by the compiler itself (gcc -aux-info), not by a
# pattern over the header text. MPI is never a dependency of the library.
. "$(dirname "$0")/lib.bash"
need_tool nm readelf gcc
SO=$(ls "$FL_BUILD"/libfabriclint.so.[0-9]* 2>/dev/null | head -1)
[ -n "$SO" ] && pass || { fail "no libfabriclint.so.N in $FL_BUILD"; finish; exit 1; }
INC="$FL_SRC/include"
for h in "$INC"/fabriclint/*.h; do echo "#include \"fabriclint/$(basename "$h")\""; done > "$TMP/all.c"
if gcc -std=c11 -I"$INC" -aux-info "$TMP/aux.txt" -fsyntax-only "$TMP/all.c" 2>"$TMP/cc.err"; then pass
else fail "the public headers do not compile"; cat "$TMP/cc.err" >&2; fi
# extern functions declared in include/ (static inline helpers are not exported)
grep -F "$INC/fabriclint/" "$TMP/aux.txt" | grep -v '\*/ static ' |
  sed -E 's/^[^*]*\*\/ extern //; s/ \(.*//; s/.*[ *]//' | sort -u > "$TMP/declared"
# exported: defined dynamic symbols (functions and data), minus the
# linker's own (_init, _fini; and __bss_start, _edata, _end, which gold
# exports: .ci/run links its sanitizer build with gold)
LINKER_OWN='_init|_fini|__bss_start|_edata|_end'
nm -D --defined-only "$SO" | awk '{print $3}' | grep -v -x -E "$LINKER_OWN" |
  sort -u > "$TMP/exported"
expect_eq "$(wc -l < "$TMP/declared")" "$(grep -h 'FL_EXTERN(' "$INC"/fabriclint/*.h | grep -vc -e '^#' -e '^ \*')" \
  "declarations found = FL_EXTERN uses in the headers"
[ "$(wc -l < "$TMP/declared")" -gt 100 ] && pass || fail "too few declarations parsed: $(wc -l < "$TMP/declared")"
leaked=$(comm -13 "$TMP/declared" "$TMP/exported")
missing=$(comm -23 "$TMP/declared" "$TMP/exported")
expect_eq "$leaked" "" "exported but not declared in include/"
expect_eq "$missing" "" "declared in include/ but not exported"
# every exported symbol is a function (no data leaks)
expect_eq "$(nm -D --defined-only "$SO" | awk -v own="^($LINKER_OWN)\$" '$2 != "T" && $3 !~ own')" "" "non-function exports"
# MPI is never a link dependency of the shared library (the executable
# carries the optional MPI runs)
readelf -d "$SO" | grep NEEDED > "$TMP/needed"
if grep -qi 'mpi' "$TMP/needed"; then fail "libfabriclint needs MPI: $(grep -i mpi "$TMP/needed")"; else pass; fi
# plugins need none of it: the built-in and test plugins (loaded with
# dlopen, linked with -z defs against nothing of fabriclint) reach the host
# only through the fl_host_api table, so no plugin has an undefined fl_*
# symbol that hidden visibility could break
for so in "$FL_BUILD"/plugins/*.so "$FL_BUILD"/tests/plugins/*.so; do
  nm -D --undefined-only "$so" | awk -v so="$so" '$2 ~ /^fl_/ {print so ": " $2}'
done > "$TMP/plugin_undef"
expect_eq "$(cat "$TMP/plugin_undef")" "" "host symbols plugins import"
[ "$(ls "$FL_BUILD"/plugins/*.so | wc -l)" -ge 5 ] && pass || fail "built-in plugins not built"
# the library is usable on its own: a program that calls only the public
# API links against it with -z defs and runs
cat > "$TMP/use.c" <<'C'
#include <fabriclint/error.h>
#include <stdio.h>
int main(void) {
  fl_error e;
  fl_error_clear(&e);
  fl_error_set(&e, 2, "f.txt", 3, 4, "expected %s", "x");
  char buf[256];
  fl_error_format(&e, buf, sizeof buf);
  puts(buf);
  return 0;
}
C
# a library built with sanitizers (CI step 3: clang, address,undefined,
# the shared runtime: CMakeLists.txt FABRICLINT_SANITIZE) needs a program
# built as it was: the same runtime, first in the list
ucc=gcc usan=
if nm -D --undefined-only "$SO" | grep -q ' __asan_\| __ubsan_'; then
  need_tool clang
  ucc=clang
  usan="-fsanitize=address,undefined -shared-libsan -Wl,-rpath,$(clang -print-runtime-dir)"
fi
# shellcheck disable=SC2086
if $ucc $usan -std=c11 -I"$INC" "$TMP/use.c" -o "$TMP/use" -L"$(dirname "$SO")" -l:"$(basename "$SO")" \
     -Wl,-rpath,"$(dirname "$SO")" 2>"$TMP/cc.err"; then pass
else fail "a program using the public API does not link"; cat "$TMP/cc.err" >&2; fi
expect_rc 0 "$TMP/use"
expect_grep "$TMP/out" '^f\.txt:3:4: expected x$'
# an internal function is not reachable
printf 'int fl_host_init(void *);\nint main(void) { return fl_host_init(0); }\n' > "$TMP/internal.c"
if gcc "$TMP/internal.c" -o "$TMP/internal" -L"$(dirname "$SO")" -l:"$(basename "$SO")" 2>/dev/null; then
  fail "an internal function (fl_host_init) links from libfabriclint.so"; else pass; fi
finish
