# SPDX-License-Identifier: MIT
# The man page (build/share/man/man1/fabriclint.1, made at build time by
# `fabriclint help --man` from the option table): man -l renders it without
# a groff warning, it names every option of every command and every exit
# code, and `cmake --install` puts it, the bash and the zsh completion under
# the prefix. SKIP (77) without man-db.
. "$(dirname "$0")/lib.bash"
command -v man >/dev/null || { echo "SKIP: man (man-db) is not installed (setup.sh installs it)"; exit 77; }
PAGE="$FL_BUILD/share/man/man1/fabriclint.1"
[ -r "$PAGE" ] || { fail "not built: $PAGE"; finish; exit 1; }
expect_eq "$(cmp -s "$PAGE" <("$FL" help --man) && echo same)" same "built page = help --man"
# option names are written with \- (minus), not - (hyphen): groff 1.23
# renders a hyphen as U+2010 in UTF-8, which breaks copying and searching
# for "--fail-on" (man-pages(7)); Debian 12's groff hides the difference, so
# the source is checked: no bare '-' in any .TP tag line
expect_eq "$(awk 'p == ".TP" {print} {p = $0}' "$PAGE" | grep -cE '(^|[^\\])-')" 0 "bare hyphens in .TP tags"
expect_grep "$PAGE" '^\\fB\\-\\-fail\\-on\\fR \\fISEVERITY\\fR$'
# man -l renders it (formatting through groff, as a user's man would)
if MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$PAGE" > "$TMP/page.txt" 2> "$TMP/man.err"; then pass; else fail "man -l exit $?"; fi
expect_eq "$(cat "$TMP/man.err")" "" "man -l stderr"
# no groff warning of any kind (-ww), e.g. an unescaped control line
expect_eq "$(groff -man -ww -z "$PAGE" 2>&1)" "" "groff -ww warnings"
expect_grep "$TMP/page.txt" '^FABRICLINT\(1\) +User Commands +FABRICLINT\(1\)$'
expect_grep "$TMP/page.txt" '^ +fabriclint - validate GPU-cluster network fabrics \(InfiniBand and RoCE\)$'
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS 'GEN KINDS' 'HELP OPTIONS' ENVIRONMENT 'EXIT STATUS' EXAMPLES FILES 'SEE ALSO'; do
  expect_grep "$TMP/page.txt" "^$s\$"
done
# every command has a synopsis line, every option of every command an entry
for c in $("$FL" help --list commands); do
  expect_grep "$TMP/page.txt" "^ +fabriclint $c "
  for o in $("$FL" help --list options "$c" | grep '^--'); do
    grep -Eq -- "^ +(-[a-z], )?$o( |$)" "$TMP/page.txt" && pass || fail "man page: no entry for $o of $c"
  done
done
for k in $("$FL" help --list kinds); do expect_grep "$TMP/page.txt" "^   $k\$"; done
for e in 0 1 2 3; do expect_grep "$TMP/page.txt" "^ +$e +[a-z]"; done
expect_grep "$TMP/page.txt" '^ +FABRICLINT_PLUGIN_PATH$'
expect_grep "$TMP/page.txt" "^ +ibnetdiscover\(8\), opensm\(8\), ibsim\(1\), lldpcli\(8\)$"
# each command's --help lists exactly the options the command takes
for c in $("$FL" help --list commands); do
  "$FL" "$c" --help > "$TMP/h.txt" || fail "$c --help"
  expect_eq "$(sed -nE 's/^  (-[a-z], )?(--[a-z-]+).*/\2/p' "$TMP/h.txt" | LC_ALL=C sort -u)" \
    "$("$FL" help --list options "$c" | grep '^--' | LC_ALL=C sort -u)" "$c --help options"
done
# --help and the page come from one table: each option of check --help is
# in the page with the same first words of help
"$FL" check --help > "$TMP/help.txt"
expect_grep "$TMP/help.txt" '^  --fail-on SEVERITY +exit 1 when a finding is at least this severe:$'
expect_grep "$TMP/page.txt" '^ +exit 1 when a finding is at least this severe: error \(default\),'

# cmake --install: the page under share/man/man1, the completions where
# bash-completion and zsh look for them
P="$TMP/prefix"
if cmake --install "$FL_BUILD" --prefix "$P" > "$TMP/install.log" 2>&1; then pass; else
  fail "cmake --install"; tail -5 "$TMP/install.log" >&2; fi
for f in share/man/man1/fabriclint.1 share/bash-completion/completions/fabriclint share/zsh/site-functions/_fabriclint; do
  expect_eq "$(cmp -s "$P/$f" "$FL_BUILD/$f" && echo same)" same "installed $f"
done
# man finds the installed page by name through the prefix's man folder
if MANWIDTH=80 man -M "$P/share/man" fabriclint > "$TMP/installed.txt" 2>&1; then pass; else fail "man -M PREFIX/share/man fabriclint"; fi
expect_eq "$(cmp -s "$TMP/installed.txt" "$TMP/page.txt" && echo same)" same "installed page renders as the built one"
# the installed executable writes the same page and scripts
expect_eq "$("$P/bin/fabriclint" help --man | cmp -s - "$PAGE" && echo same)" same "installed fabriclint help --man"
finish
