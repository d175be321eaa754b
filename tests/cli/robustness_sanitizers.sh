# SPDX-License-Identifier: MIT
# Inputs that once broke the sanitizer build (tests/data/robustness/, from
# the project's robustness cases): the normal build checks the results, the
# ASan+UBSan build (FABRICLINT_SANITIZE, .ci/run) that they are clean —
# a sanitizer report there changes the exit code and fails the test.
. "$(dirname "$0")/lib.bash"
R="$FL_SRC/tests/data/robustness"

# two switches and no CA: every empty list of the model was sorted with
# qsort(NULL, 0, ...) (undefined behaviour)
expect_rc 0 "$FL" info "$R/ubsan-qsort-null-two-switches.xml"
expect_grep "$TMP/out" '^fabric: 2 switches, 0 CAs, 0 routers, 1 links$'
expect_rc 0 "$FL" check "$R/ubsan-qsort-null-two-switches.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; 61 rule\(s\) run$'

# an annotation CSV naming a column twice: refused at the second one, and
# the key already read is not leaked
expect_rc 2 "$FL" info "$R/ubsan-qsort-null-two-switches.xml" "$R/leak-annotations-dup-header.csv"
expect_eq "$(cat "$TMP/err")" \
  'fabriclint: '"$R"'/leak-annotations-dup-header.csv:1:11: header column `rack` appears twice' "dup header"
printf 'node,rack,,pdu\n' >"$TMP/empty-col.csv"
expect_rc 2 "$FL" info "$R/ubsan-qsort-null-two-switches.xml" "$TMP/empty-col.csv"
expect_grep "$TMP/err" 'empty-col\.csv:1:11: header column 3 is empty; expected an attribute key$'

# rail-alignment on a fabric that is not rail-optimised (a fat tree with
# hosts): nothing to report, and the host names it collected are freed
"$FL" gen fat-tree --radix 4 --tiers 2 -o "$TMP/ft.xml"
expect_rc 0 "$FL" check --rules rail-alignment --format json "$TMP/ft.xml"
expect_eq "$(jget "$TMP/out" "=(d['fabric']['cas'], d['findings'])")" "(8, [])" "rail on a fat tree"
finish
