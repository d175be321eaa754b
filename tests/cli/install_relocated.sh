# SPDX-License-Identifier: MIT
# Relocatable install (issue 36, docs/install.md): `cmake --install` into
# one prefix, the tree moved to another path, and the moved fabriclint finds
# its own built-in plugins, RelaxNG schema and documentation relative to
# itself (/proc/self/exe), not at the configured or the first prefix; the
# SARIF helpUri is the published docs URL, never a local path of the build
# machine. A symlink to the moved executable (a PATH entry) works too.
. "$(dirname "$0")/lib.bash"
A="$TMP/first-prefix"
B="$TMP/moved/elsewhere"
if cmake --install "$FL_BUILD" --prefix "$A" >"$TMP/install.log" 2>&1; then pass; else
  fail "cmake --install"; tail -5 "$TMP/install.log" >&2; finish; exit 1; fi
mkdir -p "$(dirname "$B")" && mv "$A" "$B"
[ ! -e "$A" ] && pass || fail "the first prefix still exists"
F="$B/bin/fabriclint"
# the executable needs no libfabriclint.so (the core is linked in)
if readelf -d "$F" | grep -q 'libfabriclint'; then fail "fabriclint needs libfabriclint.so"; else pass; fi

# plugins: the moved built-in folder, every one of them
expect_rc 0 "$F" rules
NPL=$(ls "$B"/lib*/fabriclint/plugins/*.so 2>/dev/null | wc -l)
expect_eq "$NPL" "$(ls "$FL_BUILD"/plugins/*.so | wc -l)" "built-in plugins installed"
expect_eq "$(grep -c "ABI [0-9.]*) $B/bin/\.\./lib[^ ]*/fabriclint/plugins/[a-z-]*\.so$" "$TMP/out")" "$NPL" \
  "plugins loaded from the moved prefix"
# and through a symlink elsewhere (/proc/self/exe is the real file)
mkdir -p "$TMP/path" && ln -s "$F" "$TMP/path/fabriclint"
expect_rc 0 "$TMP/path/fabriclint" rules
expect_eq "$(grep -c "$B/bin/\.\./lib[^ ]*/fabriclint/plugins/" "$TMP/out")" "$NPL" "plugins through a symlink"

# schema: --relaxng validates with the moved copy. A generated design
# passes; with the moved schema replaced by one that admits only
# <nothing/>, the same design fails — so the moved file is the one read.
"$F" gen fat-tree --radix 4 --tiers 2 -o "$TMP/ft.xml"
expect_rc 0 "$F" check --relaxng "$TMP/ft.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\)'
RNG="$B/share/fabriclint/schema/design.rng"
[ -r "$RNG" ] && pass || fail "schema not installed at $RNG"
cp "$RNG" "$TMP/design.rng.orig"
printf '<grammar xmlns="http://relaxng.org/ns/structure/1.0"><start><element name="nothing"><empty/></element></start></grammar>\n' > "$RNG"
expect_rc 2 "$F" check --relaxng "$TMP/ft.xml"
expect_grep "$TMP/err" 'ft\.xml:2:1: does not match schema/design\.rng: Did not expect element fabric there'
cp "$TMP/design.rng.orig" "$RNG"

# SARIF helpUri: the published docs URL of this release, never a file:// or
# a path of the build machine; a rule gets one only when the moved docs
# folder has its page (a page removed there: its rules lose the helpUri)
unset FABRICLINT_DOCS_URL
expect_rc 0 "$F" check --format sarif "$TMP/ft.xml"
cp "$TMP/out" "$TMP/ft.sarif"
expect_eq "$(jget "$TMP/ft.sarif" "=sorted({r['helpUri'].split('/docs/')[0].split('://')[0] for r in d['runs'][0]['tool']['driver']['rules']})")" \
  "['https']" "helpUri scheme"
expect_eq "$(jget "$TMP/ft.sarif" "=[r['id'] for r in d['runs'][0]['tool']['driver']['rules'] if not r.get('helpUri', '').endswith('/v' + d['runs'][0]['tool']['driver']['version'] + '/docs/rules/' + r['id'].split('.')[0] + '.md#' + r['id'])]")" \
  "[]" "every rule's helpUri is its page of this release"
expect_eq "$(jget "$TMP/ft.sarif" "=[r['helpUri'] for r in d['runs'][0]['tool']['driver']['rules'] if 'file:' in r['helpUri'] or '$FL_SRC' in r['helpUri'] or '$B' in r['helpUri']]")" "[]" "local paths in helpUri"
NTOPO=$(jget "$TMP/ft.sarif" "=len([r for r in d['runs'][0]['tool']['driver']['rules'] if r['id'].startswith('topology.')])")
[ "$NTOPO" -ge 5 ] && pass || fail "only $NTOPO topology rules in the run"
mv "$B/share/doc/fabriclint/rules/topology.md" "$TMP/topology.md"
expect_rc 0 "$F" check --format sarif "$TMP/ft.xml"
expect_eq "$(jget "$TMP/out" "=len([r for r in d['runs'][0]['tool']['driver']['rules'] if r['id'].startswith('topology.') and 'helpUri' not in r])")" \
  "$NTOPO" "topology rules without their page in the moved docs"
expect_eq "$(jget "$TMP/out" "=len([r for r in d['runs'][0]['tool']['driver']['rules'] if not r['id'].startswith('topology.') and 'helpUri' not in r])")" \
  "0" "other rules keep their helpUri"
mv "$TMP/topology.md" "$B/share/doc/fabriclint/rules/topology.md"
expect_rc 0 "$F" explain topology.lid
expect_grep "$TMP/out" '^  docs      https://.*/docs/rules/topology\.md#topology\.lid$'

# man page and completions in the moved prefix, made from the same option
# table as --help
for f in share/man/man1/fabriclint.1 share/bash-completion/completions/fabriclint \
         share/zsh/site-functions/_fabriclint; do
  if grep -q -- 'relaxng' "$B/$f" 2>/dev/null; then pass; else fail "$f missing or without --relaxng"; fi
done
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l "$B/share/man/man1/fabriclint.1" 2>/dev/null > "$TMP/man.txt"
  expect_grep "$TMP/man.txt" '--relaxng'
fi
finish
