# SPDX-License-Identifier: MIT
# The vendor plugin SDK: `cmake --install` into a fresh prefix, then the
# example plugin (examples/vendor-plugin) built out of tree against that
# prefix only — with pkg-config and with find_package — and loaded by the
# installed fabriclint from FABRICLINT_PLUGIN_PATH on a fabric where it fires.
. "$(dirname "$0")/lib.bash"
P="$TMP/prefix"
if cmake --install "$FL_BUILD" --prefix "$P" >"$TMP/install.log" 2>&1; then pass; else
  fail "cmake --install"; tail -5 "$TMP/install.log" >&2; finish; exit 1; fi
F="$P/bin/fabriclint"
for f in bin/fabriclint include/fabriclint/plugin.h include/fabriclint/types.h \
         lib/pkgconfig/fabriclint-plugin.pc lib/pkgconfig/fabriclint.pc \
         lib/cmake/fabriclint/fabriclintConfig.cmake \
         lib/cmake/fabriclint/fabriclintConfigVersion.cmake \
         lib/fabriclint/plugins/topology.so; do
  [ -e "$P/$f" ] && pass || fail "not installed: $f"
done
ls "$P"/lib/libfabriclint.so* >/dev/null 2>&1 && pass || fail "libfabriclint not installed"

# pkg-config variables
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
expect_eq "$(pkg-config --variable=abi fabriclint-plugin)" "1.7" "pc abi"
expect_eq "$(cd "$(pkg-config --variable=plugindir fabriclint-plugin)" && pwd -P)" "$(cd "$P/lib/fabriclint/plugins" && pwd -P)" "pc plugindir"
expect_eq "$(pkg-config --libs fabriclint-plugin | tr -d ' ')" "" "plugins link nothing"
case "$(pkg-config --cflags fabriclint-plugin)" in *"$FL_SRC"*) fail "cflags point into the source tree";; *) pass;; esac

# the example, copied away from the source tree
mkdir -p "$TMP/ex" && cp "$FL_SRC"/examples/vendor-plugin/* "$TMP/ex/"
# 1. pkg-config + make
if make -s -C "$TMP/ex" >"$TMP/make.log" 2>&1; then pass; else fail "make with pkg-config"; cat "$TMP/make.log" >&2; fi
# 2. find_package + fabriclint_add_plugin()
if cmake -S "$TMP/ex" -B "$TMP/ex/build" -DCMAKE_PREFIX_PATH="$P" >"$TMP/cmake.log" 2>&1 &&
   cmake --build "$TMP/ex/build" >>"$TMP/cmake.log" 2>&1; then pass; else
  fail "find_package build"; tail -20 "$TMP/cmake.log" >&2; fi
for so in "$TMP/ex/acme.so" "$TMP/ex/build/acme.so"; do
  # one exported symbol: everything else is hidden
  expect_eq "$(nm -D --defined-only "$so" | awk '$2 == "T" {print $3}')" fabriclint_plugin_v1 "exports of $so"
  # no undefined symbol of the host (libfabriclint)
  if nm -D --undefined-only "$so" | grep -q ' fl_'; then fail "$so needs host symbols"; else pass; fi
done

# a fabric where the rule fires: a generated 3-tier fat tree with one
# leaf-to-spine cable removed by a scripted edit
"$F" gen fat-tree --radix 4 --tiers 3 -o "$TMP/ft.xml"
grep -v '<link a="leaf-p01-01" a-port="3" b="spine-p01-01"' "$TMP/ft.xml" > "$TMP/ft-cut.xml"
expect_eq "$(($(wc -l < "$TMP/ft.xml") - $(wc -l < "$TMP/ft-cut.xml")))" 1 "one cable removed"
for dir in "$TMP/ex" "$TMP/ex/build"; do
  mkdir -p "$TMP/pp" && cp "$dir/acme.so" "$TMP/pp/acme.so"
  export FABRICLINT_PLUGIN_PATH="$TMP/pp"
  expect_rc 0 "$F" rules --rules acme
  expect_grep "$TMP/out" '^acme 1\.0\.0 \(ACME Networks \(example\), MIT, ABI 1\.7\)'
  expect_grep "$TMP/out" 'acme\.even-uplinks\.multiple=<int>'
  expect_rc 0 "$F" check --rules 'acme.*' "$TMP/ft.xml"
  expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; 1 rule\(s\) run$'
  expect_rc 1 "$F" check --rules 'acme.*' --fail-on warning --format json "$TMP/ft-cut.xml"
  expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['nodes'], f['evidence']) for f in d['findings']]")" \
    "[('acme.even-uplinks', ['spine-p01-01'], {'multiple': 2, 'pod': '1', 'uplinks': 1})]" "acme finding"
  expect_eq "$(jget "$TMP/out" "['findings'][0]['location']['file']")" "$TMP/ft-cut.xml" "finding file"
  # ... and among all the installed built-in plugins' findings too
  expect_rc 0 "$F" check --fail-on never "$TMP/ft-cut.xml"
  expect_grep "$TMP/out" 'ft-cut\.xml:[0-9]+:3: warning: spine "spine-p01-01" has 1 uplink\(s\) from pod 1.* \[acme\.even-uplinks\]$'
  # its parameter, from the command line and from a policy (type-checked)
  expect_rc 0 "$F" check --rules 'acme.*' --param acme.even-uplinks.multiple=1 --fail-on warning "$TMP/ft-cut.xml"
  printf 'params:\n  acme.even-uplinks:\n    multiple: two\n' > "$TMP/acme.yaml"
  expect_rc 2 "$F" check --rules 'acme.*' --policy "$TMP/acme.yaml" "$TMP/ft-cut.xml"
  expect_grep "$TMP/err" 'acme.yaml:3:15: params: acme.even-uplinks.multiple expects an integer'
  # the SARIF of the installed tool carries the vendor rule's metadata
  expect_rc 0 "$F" check --rules 'acme.*' --format sarif "$TMP/ft-cut.xml"
  expect_eq "$(jget "$TMP/out" "=[(r['id'], r['defaultConfiguration']['level']) for r in d['runs'][0]['tool']['driver']['rules']]")" \
    "[('acme.even-uplinks', 'warning')]" "sarif vendor rule"
  rm -rf "$TMP/pp"
done
unset FABRICLINT_PLUGIN_PATH
finish
