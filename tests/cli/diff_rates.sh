# diff.different only for cables BELOW plan, never above, and the rate of
# a cable is its slower end: a real ibsim dump with three leaf-spine cables
# trained low (4xEDR, 1xHDR, 1xEDR) against a plan that also plans two
# cables lower than they are built (EDR, 1x) — those two are fine
# (tests/fixtures/ibsim-faults/make.sh). Kills the mutants diff-speed-ne,
# diff-speed-gt, diff-width-ne, diff-width-gt and diff-attr
# (tests/mutation/mutants.txt).
. "$(dirname "$0")/lib.bash"
F="$FL_SRC/tests/fixtures/ibsim-faults"

expect_rc 0 "$FL" diff --format json "$F/rates.design.xml" "$F/rates.asbuilt.ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['severity'], f['evidence']['cable'][0]['node'], f['evidence']['attribute'], f['evidence']['design'], f['evidence']['as_built']) for f in d['findings']]")" \
  "[('diff.different', 'warning', 'leaf-su01-r2', 'width', '4xHDR', '1xHDR'), ('diff.different', 'warning', 'leaf-su01-r4', 'speed', '4xHDR', '4xEDR'), ('diff.different', 'warning', 'leaf-su01-r5', 'width,speed', '4xHDR', '1xEDR')]" "three below plan, none above"
expect_eq "$(jget "$TMP/out" "['findings'][2]['message']")" \
  'cable "leaf-su01-r5" port 33 - "spine-01" port 41 runs at 1xEDR, planned 4xHDR (width and speed below plan: reseat or replace the cable)' "both below: message"
expect_eq "$(jget "$TMP/out" "['findings'][1]['message']")" \
  'cable "leaf-su01-r4" port 33 - "spine-01" port 33 runs at 4xEDR, planned 4xHDR (speed below plan: reseat or replace the cable)' "speed below: message"
# --fail-on warning turns them into exit 1; the work order has three rows
expect_rc 1 "$FL" diff --fail-on warning "$F/rates.design.xml" "$F/rates.asbuilt.ibnetdiscover"
expect_rc 0 "$FL" diff --format csv "$F/rates.design.xml" "$F/rates.asbuilt.ibnetdiscover"
expect_eq "$(grep -c ',replace,diff.different,' "$TMP/out")" 3 "work order rows"
# the reverse direction: the dump as the plan, the edited plan as built —
# now only the two cables the plan "built" lower are below plan
expect_rc 0 "$FL" diff --format json "$F/rates.asbuilt.ibnetdiscover" "$F/rates.design.xml"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['cable'][0]['node'], f['evidence']['attribute'], f['evidence']['design'], f['evidence']['as_built']) for f in d['findings']]")" \
  "[('leaf-su01-r6', 'width', '4xHDR', '1xHDR'), ('leaf-su01-r3', 'speed', '4xHDR', '4xEDR')]" "reverse: two below plan"
finish
