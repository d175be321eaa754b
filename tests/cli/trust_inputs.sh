#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/trust_inputs.sh — issue 12 (remaining items 4-7): what the user
# typed or fed is never ignored or misreported.
#   4. `rules` refuses stray words (they used to be ignored); `info` loads
#      every word as an input, so a stray one is a "cannot read" error;
#   5. a forced routing --input-format on a file of another format names the
#      first line its loader cannot read and what it expected there (it used
#      to say "no topology", hiding the mistake);
#   6. an out-of-range number is quoted as the input spells it (20 bytes,
#      then "...") with the allowed range, in every loader (it used to be
#      printed as a saturated value cut at 11 digits: "12345678901");
#   7. `-` fed from /dev/null or an empty pipe: "standard input is empty".
. "$(dirname "$0")/lib.bash"
S=$FL_SRC
T=$S/fabrics/rail-su.ibnetdiscover
R=$S/tests/fixtures/routing/ring-lash
BIG=123456789012345678901234567890123
Q='12345678901234567890\.\.\.' # how every message quotes $BIG

# ---- 4. stray arguments -------------------------------------------------------
expect_rc 2 "$FL" rules 'rail*'
expect_grep "$TMP/err" "^fabriclint: rules takes no arguments, got 'rail\*' \(to list some rules only: --rules PATTERN; for one rule: fabriclint explain RULE\)"
expect_eq "$(wc -c <"$TMP/out")" 0 "rules with a stray word prints no list"
expect_rc 2 "$FL" rules --format json --rules 'rail*' extra
expect_grep "$TMP/err" "got 'extra'"
expect_rc 0 "$FL" rules --format json --rules 'rail-alignment.swapped'
expect_eq "$(jget "$TMP/out" "=[r['id'] for p in d['plugins'] for r in p['rules']]")" "['rail-alignment.swapped']" "rules --rules still works"
# info: every word is an input; a stray one is named, never skipped
expect_rc 2 "$FL" info "$T" rules
expect_grep "$TMP/err" "^fabriclint: rules: cannot read: No such file or directory"

# ---- 5. forced format on the wrong file ---------------------------------------
expect_rc 2 "$FL" check --input-format lfts "$T"
expect_grep "$TMP/err" "^fabriclint: $T:6:1: this is not lfts input \(--input-format lfts says every input is\): unrecognised line \"vendid=0x2c9\" in an LFT dump: expected a \"Unicast lids\" header, a \"0x<lid> <port>\" entry or a \"lids dumped\" footer$"
expect_rc 2 "$FL" check --input-format sl2vl "$T"
expect_grep "$TMP/err" "$T:6:1: this is not sl2vl input .*expected a \"<Switch\|Channel Adapter\|Router> 0x<guid>, base LID\""
expect_rc 2 "$FL" diff --as-built-format fdbs "$T" "$T"
expect_grep "$TMP/err" "$T:6:1: this is not fdbs input \(--as-built-format fdbs says every input is\): unrecognised line \"vendid=0x2c9\" in an fdbs dump"
# an LFT dump that is one: it parses, and the missing topology is the news
expect_rc 2 "$FL" check --input-format lfts "$R/opensm-lfts.dump"
expect_grep "$TMP/err" "^fabriclint: no topology among the inputs: routing and attribute files \(lfts, \.\.\.\)"
# annotation files parse only against a topology: "no topology" too
expect_rc 2 "$FL" check --input-format annotations "$S/tests/data/cases/roce/rails.csv"
expect_grep "$TMP/err" "^fabriclint: no topology among the inputs: routing and attribute files \(annotations"

# ---- 6. huge numbers, quoted as written with the allowed range ----------------
big() { # big NAME SED-EXPR FILE REGEX [INPUT BEFORE]
  local name=$1 expr=$2 file=$3 want=$4
  shift 4
  sed "$expr" "$file" >"$TMP/$name"
  if ! grep -q "$BIG" "$TMP/$name"; then fail "$name: the sed put no huge number in"; return; fi
  expect_rc 2 "$FL" info "$@" "$TMP/$name"
  expect_grep "$TMP/err" "^fabriclint: $TMP/$name:$want"
}
big local.ibnetdiscover "0,/^\[1\](/s//[$BIG](/" "$T" "851:2: port number $Q is out of range \(allowed 1\.\.255\)$"
big peer.ibnetdiscover "0,/\"\[1\](/s//\"[$BIG](/" "$T" "11:26: port number $Q is out of range \(allowed 1\.\.255\)$"
big ports.p.ibnetdiscover "1s/ SW    12 32 / SW    12 $BIG /" "$S/fabrics/rail-su.p.ibnetdiscover" "1:50: port number $Q is out of range \(allowed 1\.\.255\)$"
big sim.net "0,/^\[1\]/s//[$BIG]/" "$S/fabrics/rail-su.net" "11:2: port number $Q is out of range \(allowed 1\.\.64\)$"
big lft.dump "0,/^0x0001 001/s//0x0001 $BIG/" "$R/opensm-lfts.dump" "2:8: output port $Q is out of range \(allowed 0\.\.254, 255 = no route\)$" "$R/topology.ibnetdiscover"
big range.dump "0,/Unicast lids \[0-/s//Unicast lids [0-$BIG/" "$R/opensm-lfts.dump" "1:17: last LID of the range $Q is out of range \(allowed 0\.\.49151\)$" "$R/topology.ibnetdiscover"
big a.fdbs "0,/^0x0001 : 001 /s//0x0001 : $BIG /" "$R/opensm.fdbs" "3:10: output port $Q is out of range \(allowed 0\.\.254, 255 = no route\)$" "$R/topology.ibnetdiscover"
big a.sl2vl "0,/^0   1   : 0 /s//0   1   : $BIG /" "$R/opensm-sl2vl.dump" "4:11: VL $Q is out of range \(allowed 0\.\.15\)$" "$R/topology.ibnetdiscover"
big a.psl "1s/ 7 0/ $BIG 0/" "$R/path-sl.psl" "1:20: DLID $Q is out of range \(allowed 0\.\.49151\)$" "$R/topology.ibnetdiscover"
big a.lst "0,/PN:01 }/s//PN:$BIG }/" "$R/opensm-subnet.lst" "1:153: port number $Q is out of range \(allowed 0\.\.FF, 1 or 2 hex digits\)$"
printf 'MQM8700 sw1\n   P1 -4x-HDR-> MQM8700 sw2 P1\n' >"$TMP/ok.topo"
big a.topo "2s/P1$/P$BIG/" "$TMP/ok.topo" "2:29: port number P1234567890123456789\.\.\. is out of range \(allowed P1 to P65535\)$"
"$FL" gen fat-tree --radix 4 -o "$TMP/ft4.xml" || fail "gen ft4.xml"
big a.xml "0,/a-port=\"[0-9]*\"/s//a-port=\"$BIG\"/" "$TMP/ft4.xml" "45:29: invalid a-port=\"$BIG\" on <link>: expected a port number 1\.\.65535$"
big b.xml "0,/a-port=\"[0-9]*\"/s//a-port=\"$BIG$BIG\"/" "$TMP/ft4.xml" "45:29: invalid a-port=\"${BIG}1234567\.\.\.\" on <link>: expected a port number 1\.\.65535$"
big a.far "s/^1      0          0     3,4,/1      0          0     3,$BIG,/" "$S/tests/fixtures/ar/good.far" "11:27: port number $Q is out of range \(allowed 0\.\.255\)$" \
  "$S/tests/fixtures/routing/fat-tree-2tier-ftree/topology.ibnetdiscover"
big b.far "s/^0x0001 1 Static 0/0x$BIG 1 Static 0/" "$S/tests/fixtures/ar/good.far" "16:1: LID 0x123456789012345678\.\.\. is out of range \(allowed 0x0001\.\.0xbfff, unicast\)$" \
  "$S/tests/fixtures/routing/fat-tree-2tier-ftree/topology.ibnetdiscover"
printf 'node,tier\nleaf-su01-r0,1\n' >"$TMP/tier.csv"
big big-tier.csv "2s/,1$/,$BIG/" "$TMP/tier.csv" "2:1: tier=$Q: expected a number 0\.\.255" "$T"
printf '0x0002c90302000011 "x"\n' >"$TMP/ok.map"
sed "s/0x0002c90302000011/0x$BIG/" "$TMP/ok.map" >"$TMP/big.map"
expect_rc 2 "$FL" info --node-name-map "$TMP/big.map" "$T"
expect_grep "$TMP/err" "big.map:1:1: node-name-map: GUID \"0x$BIG\" is out of range \(allowed 0\.\.0xffffffffffffffff: 64 bits\)"

# ---- 7. empty standard input --------------------------------------------------
expect_rc 2 "$FL" check - </dev/null
expect_eq "$(cat "$TMP/err")" "fabriclint: -: standard input is empty: nothing was piped or redirected into it (expected the input's text)" "- </dev/null"
expect_rc 2 "$FL" info - < <(printf '')
expect_grep "$TMP/err" "^fabriclint: -: standard input is empty"
expect_rc 2 "$FL" check --input-format ibnetdiscover - </dev/null
expect_grep "$TMP/err" "^fabriclint: -: standard input is empty"
expect_rc 2 "$FL" check --baseline - "$T" </dev/null
expect_grep "$TMP/err" "^fabriclint: -: standard input is empty: expected a baseline JSON file written by --write-baseline"
expect_rc 2 "$FL" check /dev/null
expect_grep "$TMP/err" "^fabriclint: /dev/null: file is empty$"
# a device that never ends is still refused, never read
expect_rc 2 "$FL" check - </dev/zero
expect_grep "$TMP/err" "not a regular file \(a character device, which may never end\)"
finish
