# SPDX-License-Identifier: MIT
# Third robustness review, part A (issue #32 cases 1, 2, 3, 14, 15, 16, 17,
# 22): pictures of a fabric with a same-tier cable, names never cut into
# each other, convert never drops a cable nor writes what its own reader
# refuses (a round trip through every writer), noncharacters cleaned on
# input, a fresh DOT scanner per input, names equal once cleaned, and two
# devices one plan declares (sw1, sw1.example.com) kept two. The inputs are
# the review's reproducers (tests/fixtures/robustness-3/PROVENANCE-cases-A.md).
. "$(dirname "$0")/lib.bash"
R="$FL_SRC/tests/fixtures/robustness-3"
counts() { jget "$TMP/out" "=[d['fabric'][k] for k in ('switches', 'cas', 'links')]"; }
wellformed() { # FILE — an XML document (xmllint when installed, else python)
  if command -v xmllint >/dev/null; then
    xmllint --noout "$1" 2>"$TMP/xml" && pass || { fail "$1 is not well-formed"; head -3 "$TMP/xml" >&2; }
  else
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" && pass || fail "$1 is not well-formed"
  fi
}

# --- case 15, the round trip, first: every fixture of this folder through
# every writer; a writer that succeeds writes what its reader accepts, with
# the same counts. Each run's exit status, output and stderr are kept in
# $RT (NAME.rc/.json/.err: info --format json of fixture NAME; NAME.W,
# NAME.W.rc, NAME.W.err: its convert to writer W; NAME.W.json: the info of
# what was written), and the cases below that ask the same of a fixture
# read them there (rt_info, rt_convert, rt_read) instead of running the
# same command again.
RT=$TMP/rt
mkdir "$RT"
for f in "$R"/*.dot "$R"/*.ndt "$R"/*.xml "$R"/*.csv; do
  b=$(basename "$f")
  "$FL" info --format json "$f" >"$RT/$b.json" 2>"$RT/$b.err"
  rc=$?
  echo $rc >"$RT/$b.rc"
  [ $rc -eq 0 ] || continue
  for o in xml ibnetdiscover net dot graphml ndt; do
    "$FL" convert "$f" -o "$RT/$b.$o" 2>"$RT/$b.$o.err"
    rc=$?
    echo $rc >"$RT/$b.$o.rc"
    if [ $rc -eq 0 ]; then
      expect_rc 0 "$FL" info --format json "$RT/$b.$o" && cp "$TMP/out" "$RT/$b.$o.json"
      case $o in
        xml | dot | graphml) expect_eq "$(counts)" \
          "$(jget "$RT/$b.json" "=[d['fabric'][k] for k in ('switches', 'cas', 'links')]")" \
          "$b -> $o counts" ;;
      esac
    else
      [ ! -e "$RT/$b.$o" ] && pass || fail "$b -> $o: refused but written"
      grep -q '^fabriclint: ' "$RT/$b.$o.err" && pass || fail "$b -> $o: refused without a message"
    fi
  done
done
# rt_info NAME — the round trip's `info --format json` of fixture NAME
# exited 0; its report is now $TMP/out (as expect_rc leaves it)
rt_info() {
  local rc
  rc=$(cat "$RT/$1.rc" 2>/dev/null)
  if [ "$rc" = 0 ]; then pass; else
    fail "exit ${rc:-?} (want 0): info --format json $1"; sed 's/^/  err: /' "$RT/$1.err" | head -5 >&2; fi
  cp "$RT/$1.json" "$TMP/out" 2>/dev/null
}
# rt_convert WANT NAME W — its `convert NAME -o X.W` exited WANT; its
# stderr is now $TMP/err, what it wrote (if it wrote) $RT/NAME.W
rt_convert() {
  local rc
  rc=$(cat "$RT/$2.$3.rc" 2>/dev/null)
  if [ "$rc" = "$1" ]; then pass; else
    fail "exit ${rc:-?} (want $1): convert $2 -o X.$3"; sed 's/^/  err: /' "$RT/$2.$3.err" | head -5 >&2; fi
  cp "$RT/$2.$3.err" "$TMP/err" 2>/dev/null
}
# rt_read NAME W — what that convert wrote was read back (info --format
# json, exit 0, checked in the loop); that report is now $TMP/out
rt_read() {
  [ -e "$RT/$1.$2.json" ] && pass || fail "$1 -> $2: not read back"
  cp "$RT/$1.$2.json" "$TMP/out" 2>/dev/null
}

# --- case 1: every picture of a fabric with a same-tier cable is drawn
FLAT="$R/svg-flat-edge-double-free.xml"
for view in tiers rails load domains; do
  expect_rc 0 "$FL" check --format svg --view $view -o "$TMP/$view.svg" "$FLAT"
  wellformed "$TMP/$view.svg"
done
# the leaf-to-leaf cable is drawn, named by its warning, its label outside
# the layout (xlabel: no virtual label node in a rank of its own)
expect_grep "$TMP/tiers.svg" 'id="link&#45;leaf&#45;p01&#45;01~5~leaf&#45;p01&#45;04~5"'
expect_grep "$TMP/tiers.svg" '>5 &#45; 5, 4xNDR<'
expect_rc 0 "$FL" check --format dot --view tiers "$FLAT"
expect_grep "$TMP/out" 'xlabel="5 - 5, 4xNDR"'
expect_rc 0 "$FL" check --format html --view tiers,load,domains -o "$TMP/r.html" "$FLAT"
expect_grep "$TMP/r.html" 'topology.same-tier-link'
# the same fabric from the generator, both ways round (the extra cable first)
expect_rc 0 "$FL" gen fat-tree --radix 4 --extra-leaf-link -o "$TMP/g.xml"
expect_rc 0 "$FL" check --format svg -o "$TMP/g.svg" "$TMP/g.xml"
wellformed "$TMP/g.svg"

# --- case 2: names longer than 255 bytes stay whole (4 switches, no merge)
for f in long-names-merge.ndt long-names-merge.dot; do
  rt_info "$f"
  expect_eq "$(counts)" "[4, 0, 3]" "$f counts"
  expect_rc 0 "$FL" check "$R/$f"
done
expect_rc 0 "$FL" check "$R/long-port-labels-merge.dot"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\)'
# an NDT cell holds 511 bytes: 511 whole, 512 refused naming the limit
long() { python3 -c "import sys; print('$1' + 'x' * (int(sys.argv[1]) - ${#1}))" "$2"; }
{ echo '#StartDevice,StartPort,EndDevice,EndPort,LinkType'
  echo "$(long sw 511),Port 1,$(long sw 510)A,Port 1,Data"
  echo "$(long sw 510)B,Port 1,spine,Port 1,Data"; } >"$TMP/n511.ndt"
expect_rc 0 "$FL" info --format json "$TMP/n511.ndt"
expect_eq "$(counts)" "[4, 0, 2]" "511-byte NDT names"
{ echo '#StartDevice,StartPort,EndDevice,EndPort,LinkType'
  echo "$(long sw 512),Port 1,spine,Port 1,Data"; } >"$TMP/n512.ndt"
expect_rc 2 "$FL" info "$TMP/n512.ndt"
expect_grep "$TMP/err" 'n512.ndt:2:1: StartDevice of 512 bytes; the limit is 511 bytes per cell'
# an ibdm topo field holds 255 bytes: 255 whole, 256 refused
printf 'MTS3600 %s\n  P10 -> MTS3600 %s P10\n' "$(long s 255)" "$(long s 254)B" >"$TMP/t255.topo"
expect_rc 0 "$FL" info --format json "$TMP/t255.topo"
expect_eq "$(counts)" "[2, 0, 1]" "255-byte topo names"
printf 'MTS3600 %s\n  P10 -> MTS3600 %s P10\n' "$(long s 256)" "$(long s 255)B" >"$TMP/t256.topo"
expect_rc 2 "$FL" info "$TMP/t256.topo"
expect_grep "$TMP/err" 't256.topo:1:9: a field of 256 bytes; system names, types and ports are at most 255 bytes'

# --- case 3: convert never drops a cable of a port with several
expect_rc 1 "$FL" check "$R/convert-ibsim-drops-double-booked-port.ndt"
expect_grep "$TMP/out" 'topology.port-connected-twice'
X=convert-ibsim-drops-double-booked-port.ndt
rt_convert 2 $X net
expect_grep "$TMP/err" '^fabriclint: an ibsim net file cannot say port 1 of "sw1": it has several cables \(topology.port-connected-twice\)'
[ ! -e "$RT/$X.net" ] && pass || fail "$X.net written"
# nor an ibnetdiscover dump (a port has one peer); design XML keeps both
rt_convert 2 $X ibnetdiscover
expect_grep "$TMP/err" '^fabriclint: ibnetdiscover cannot say port 1 of "sw1": it has several cables'
[ ! -e "$RT/$X.ibnetdiscover" ] && pass || fail "$X.ibnetdiscover written"
rt_convert 0 $X xml
expect_rc 1 "$FL" check "$RT/$X.xml"
expect_grep "$TMP/out" 'topology.port-connected-twice'
# a cable one plan lists twice is two cables, not merged
expect_rc 1 "$FL" check "$R/dot-duplicate-cable-merged.dot"
expect_grep "$TMP/out" '^2 error\(s\)'
rt_convert 2 dot-duplicate-cable-merged.dot net
expect_grep "$TMP/err" 'cannot say port 1 of "a": it has several cables'

# --- case 15: what a writer writes, its reader reads (port 255 / 256 / 257;
# a switch without a cable; every fixture: the round trip at the top)
for n in 255 256 257; do
  printf 'graph g { a -- b [src_port=%s, dst_port=1]; }\n' $n >"$TMP/p$n.dot"
done
for o in ibnetdiscover net; do
  expect_rc 0 "$FL" convert "$TMP/p255.dot" -o "$TMP/p255.$o"
  expect_rc 0 "$FL" info "$TMP/p255.$o"
  for n in 256 257; do
    expect_rc 2 "$FL" convert "$TMP/p$n.dot" -o "$TMP/p$n.$o"
    expect_grep "$TMP/err" "cannot name port $n of \"a\": InfiniBand port numbers are 1..255"
    [ ! -e "$TMP/p$n.$o" ] && pass || fail "p$n.$o written"
  done
  rt_convert 2 convert-unreadable-port-257.dot $o
  rt_convert 0 convert-unreadable-switch-0.dot $o
  rt_read convert-unreadable-switch-0.dot $o
done
expect_grep "$RT/convert-unreadable-switch-0.dot.ibnetdiscover" '^Switch	1 '

# --- case 14: U+FFFE / U+FFFF cleaned on input like control characters
NC="$R/xml-noncharacter-fffe.dot"
expect_rc 1 "$FL" check --format junit -o "$TMP/r.junit" "$NC"
wellformed "$TMP/r.junit"
expect_rc 1 "$FL" check --format svg -o "$TMP/nc.svg" "$NC"
wellformed "$TMP/nc.svg"
rt_convert 0 xml-noncharacter-fffe.dot graphml
rt_read xml-noncharacter-fffe.dot graphml
expect_eq "$(counts)" "[3, 0, 2]" "graphml of U+FFFE names"
expect_grep "$RT/xml-noncharacter-fffe.dot.graphml" '>sw\?X<'
printf 'graph g { "a\xef\xbf\xbf" -- b [src_port=1,dst_port=1]; "\xef\xb7\x90c" -- b [src_port=2,dst_port=2]; "d\xf4\x8f\xbf\xbe" -- b [src_port=3,dst_port=3]; "e\xef\xbf\xbd" -- b [src_port=4,dst_port=4]; }\n' >"$TMP/nc2.dot"
expect_rc 0 "$FL" info --format json "$TMP/nc2.dot"
expect_rc 0 "$FL" convert "$TMP/nc2.dot" -o "$TMP/nc2.graphml"
expect_grep "$TMP/nc2.graphml" '>a\?<'
expect_grep "$TMP/nc2.graphml" '>\?c<'
expect_grep "$TMP/nc2.graphml" '>d\?<'
expect_grep "$TMP/nc2.graphml" $'>e\xef\xbf\xbd<' # U+FFFD is a character: kept

# --- case 16: each DOT input parsed in a fresh scanner
L="$R/dot-parser-state-leak"
expect_rc 0 "$FL" info "$L/a-trailing.dot" "$L/b-good.dot"
expect_rc 0 "$FL" info "$L/b-good.dot" "$L/a-trailing.dot"
expect_rc 2 "$FL" info "$L/c-one-line-error.dot"
expect_grep "$TMP/err" "c-one-line-error.dot:1: DOT: syntax error in line 1 near"
expect_rc 2 "$FL" info "$L/b-good.dot" "$L/c-one-line-error.dot"
expect_grep "$TMP/err" "c-one-line-error.dot:1: DOT: syntax error in line 1 near"
expect_rc 2 "$FL" info "$L/a-trailing.dot" "$L/c-one-line-error.dot"
expect_grep "$TMP/err" "c-one-line-error.dot:1: DOT: syntax error in line 1 near"

# --- case 17: two names equal once cleaned are not written as one NDT node
E=names-equal-after-cleaning.dot
rt_info $E
expect_eq "$(counts)" "[2, 2, 2]" "names equal after cleaning: two switches"
rt_convert 2 $E ndt
expect_grep "$TMP/err" 'NDT cannot tell apart two nodes called "sw a"'
[ ! -e "$RT/$E.ndt" ] && pass || fail "$E.ndt written"
# design XML and DOT keep both (the second gets a suffix)
rt_convert 0 $E xml
rt_read $E xml
expect_eq "$(counts)" "[2, 2, 2]" "names equal after cleaning: design XML"

# --- case 22: two devices one plan declares stay two; across inputs a
# short name matches a full one, when only one could be meant
for f in fqdn-short-name-merge.dot fqdn-short-name-merge.ndt; do
  rt_info "$f"
  expect_eq "$(counts)" "[3, 0, 2]" "$f counts"
done
printf 'graph g { sw1 -- spine [src_port=1,dst_port=1]; }\n' >"$TMP/short.dot"
printf '#StartDevice,StartPort,EndDevice,EndPort,LinkType\nsw1.example.com,Port 1,spine,Port 1,Data\n' >"$TMP/full.ndt"
expect_rc 0 "$FL" info --format json "$TMP/short.dot" "$TMP/full.ndt"
expect_eq "$(counts)" "[2, 0, 1]" "short then full: one switch, one cable"
expect_rc 0 "$FL" info --format json "$TMP/full.ndt" "$TMP/short.dot"
expect_eq "$(counts)" "[2, 0, 1]" "full then short: one switch, one cable"
# ambiguous: sw1 of the second input could be either of the first's two
expect_rc 0 "$FL" info --format json "$R/fqdn-short-name-merge.dot" "$TMP/short.dot"
expect_eq "$(counts)" "[3, 0, 2]" "short name of two declared devices"
# NetBox -> DOT keeps every switch
NB=netbox-dot-roundtrip-node-lost.csv
rt_info $NB
before=$(counts)
rt_convert 0 $NB dot
rt_read $NB dot
expect_eq "$(counts)" "$before" "NetBox -> DOT counts"
finish
