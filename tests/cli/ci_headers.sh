# SPDX-License-Identifier: MIT
# Header compile test (ABI guard): every public header compiles on its own,
# as C99 with -pedantic and as C++ (a C++ host or plugin must be able to use
# them), with warnings as errors. FL_CC / FL_CXX come from CMake.
. "$(dirname "$0")/lib.bash"
CC=${FL_CC:-cc}
CXX=${FL_CXX:-c++}
INC="$FL_SRC/include"
# the ABI this tree implements (FL_ABI_MAJOR.FL_ABI_MINOR of plugin.h)
ABI=$(sed -n 's/^#define FL_ABI_MAJOR \([0-9]*\)u.*/\1/p' "$INC/fabriclint/plugin.h").$(sed -n 's/^#define FL_ABI_MINOR \([0-9]*\)u.*/\1/p' "$INC/fabriclint/plugin.h")
need_tool "$CC" "$CXX" # build-essential (setup.sh) has both
for h in "$INC"/fabriclint/*.h; do
  name=fabriclint/$(basename "$h")
  printf '#include "%s"\n#include "%s" /* include guard */\nint fl_header_test_%s;\n' \
    "$name" "$name" "$(basename "$h" .h)" > "$TMP/t.c"
  if $CC -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$INC" "$TMP/t.c" 2>"$TMP/cc.err"; then pass
  else
    fail "$name does not compile as C99 -pedantic"; head -5 "$TMP/cc.err" >&2; fi
  if $CC -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$INC" "$TMP/t.c" 2>"$TMP/cc.err"; then pass; else
    fail "$name does not compile as C11 -pedantic"; head -5 "$TMP/cc.err" >&2; fi
  cp "$TMP/t.c" "$TMP/t.cpp"
  if $CXX -std=c++11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$INC" "$TMP/t.cpp" 2>"$TMP/cxx.err"; then pass; else
    fail "$name does not compile as C++11"; head -5 "$TMP/cxx.err" >&2; fi
done
# a plugin-sized program: the whole plugin SDK in one translation unit, C++
# (view.h too: its inline helpers must build and link under -z,defs)
printf '#include <fabriclint/plugin.h>\n#include <fabriclint/view.h>\nextern "C" FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void);\nstatic const fl_plugin_desc D = {sizeof(fl_plugin_desc), FL_ABI_MAJOR, FL_ABI_MINOR, 0, "cxx", "1", "v", "MIT", 0, 0, 0};\nconst fl_plugin_desc *fabriclint_plugin_v1(void) { return &D; }\n' > "$TMP/p.cpp"
{
  if $CXX -std=c++11 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden -Wl,-z,defs -I"$INC" "$TMP/p.cpp" -o "$TMP/cxx.so" 2>"$TMP/cxx.err"; then pass; else
    fail "a C++ plugin does not build"; head -5 "$TMP/cxx.err" >&2; fi
  expect_rc 0 "$FL" rules --no-builtin-plugins --plugin "$TMP/cxx.so"
  expect_grep "$TMP/out" "^cxx 1 \\(v, MIT, ABI ${ABI//./\\.}\\)"
}
finish
