# SPDX-License-Identifier: MIT
# The CI recipes of docs/ci.md (issue 36: they missed libgraphviz-dev and
# nettle-dev): every recipe that builds fabriclint installs the build
# packages through `setup.sh --build-deps` (no package list of its own that
# could drift), that list names the Debian package of every library
# CMakeLists.txt looks for with pkg_check_modules, and each recipe's
# configure line, run against this source tree, configures.
. "$(dirname "$0")/lib.bash"
need_tool dpkg-query pkg-config cmake
DOC="$FL_SRC/docs/ci.md"
# recipes: the lines of the fenced blocks that clone fabriclint
N=$(grep -c 'git clone .*FABRICLINT_GIT' "$DOC")
[ "$N" -ge 2 ] && pass || fail "only $N recipe(s) clone fabriclint"
expect_eq "$(grep -c 'fabriclint[a-z-]*/setup\.sh --build-deps$' "$DOC")" "$N" "recipes calling setup.sh --build-deps"
# no recipe installs -dev packages by name
expect_eq "$(grep -E 'apt-get install.*-dev|^ +lib[a-z0-9-]*-dev' "$DOC")" "" "package lists in docs/ci.md"

# setup.sh's build list covers every pkg-config module CMake requires
PKGS=" $(sh "$FL_SRC/setup.sh" --build-deps --print) "
for w in libgraphviz-dev nettle-dev libigraph-dev; do
  case "$PKGS" in *" $w "*) pass ;; *) fail "setup.sh --build-deps lacks $w" ;; esac
done
MODS=$(sed -n 's/^pkg_check_modules([A-Z0-9]* REQUIRED IMPORTED_TARGET \([^)]*\)).*/\1/p' "$FL_SRC/CMakeLists.txt")
[ "$(echo $MODS | wc -w)" -ge 6 ] && pass || fail "pkg_check_modules not parsed: $MODS"
for m in $MODS; do
  pc=$(pkg-config --variable=pcfiledir "$m" 2>/dev/null)/$m.pc
  pkg=$(dpkg-query -S "$pc" 2>/dev/null | head -1 | cut -d: -f1)
  # the .pc may sit in a multiarch folder or come through a symlink
  [ -n "$pkg" ] || pkg=$(dpkg-query -S "$(readlink -f "$pc")" 2>/dev/null | head -1 | cut -d: -f1)
  case "$PKGS" in *" $pkg "*) pass ;; *) fail "module $m ($pc, package '$pkg') not in setup.sh --build-deps" ;; esac
done

# each recipe's configure line (paths of the recipe replaced by this source
# tree and a temporary build folder) configures. Lines that are the same
# command once so replaced (the GitHub and GitLab recipes share theirs) are
# configured once, and each such line gets that run's verdict: a configure
# costs about 4 s of CPU, the same command on the same tree the same.
grep -E '^ *(- )?cmake -S ' "$DOC" | sed -E 's/^ *(- )?//' > "$TMP/lines"
expect_eq "$(wc -l < "$TMP/lines")" "$N" "one configure line per recipe"
declare -A verdict=()
i=0
while read -r line; do
  i=$((i + 1))
  src=$(echo "$line" | sed -E 's/.*-S ([^ ]+).*/\1/')
  bld=$(echo "$line" | sed -E 's/.*-B ([^ ]+).*/\1/')
  cmd=${line//"$bld"/"$TMP/b$i"} # first: the build folder may be inside src
  cmd=${cmd//"$src"/"$FL_SRC"}
  case "$cmd" in *"$TMP/b$i"*) pass ;; *) fail "recipe line not understood: $line" ;; esac
  key=${cmd//"$TMP/b$i"/BUILD}
  if [ -z "${verdict[$key]:-}" ]; then
    if bash -c "$cmd" >"$TMP/cfg$i.log" 2>&1; then verdict[$key]=ok; else
      verdict[$key]=failed; tail -5 "$TMP/cfg$i.log" >&2; fi
  fi
  [ "${verdict[$key]}" = ok ] && pass || fail "recipe configure: $line"
done < "$TMP/lines"
finish
