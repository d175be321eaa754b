#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/neighbour_views.sh — per-device neighbour listings are one-ended
# by nature (core/model/views.c; real-corpus classes F3, F4, F7 in
# docs/real-fabrics.md). On the real lldpd captures of the RoCE case
# (tests/data/cases/roce/lldp: lldpd in network namespaces, one file per
# device):
#   - one device's file alone: no error, one info saying whose views the
#     input holds (neighbours not listed are `peer-only`);
#   - every file: no one-sided cable at all;
#   - one host's file left out: its two cables seen from one end, info;
#   - a cable one LISTED device leaves out (an <interface> element removed
#     from its file, either end in turn): a real one-sided cable, an error
#     naming the silent end;
# and on a real `ibnetdiscover -p` excerpt (treydock/infiniband_exporter),
# an island is not judged cut off (info) while the listings of a node are
# missing.
. "$(dirname "$0")/lib.bash"
L="$FL_SRC/tests/data/cases/roce/lldp"

# drop FILE NEIGHBOUR — copy FILE without the <interface> whose neighbour
# chassis is NEIGHBOUR (the device no longer lists that cable)
drop() {
  python3 - "$1" "$2" <<'PY'
import re, sys
src, peer = sys.argv[1], sys.argv[2]
text = open(src, encoding="utf-8").read()
blocks = re.findall(r"\s*<interface\b.*?</interface>", text, re.S)
hit = [b for b in blocks if re.search(r"<name[^>]*>%s</name>" % re.escape(peer), b)]
if len(hit) != 1:
    sys.exit("drop: %d interfaces to %s in %s" % (len(hit), peer, src))
sys.stdout.write(text.replace(hit[0], "", 1))
PY
}
rules() { jget "$TMP/out" "=' '.join('%s:%s' % (f['severity'], f['rule']) for f in d['findings'])"; }

# ---- one device's listing alone -----------------------------------------------
expect_rc 0 "$FL" check --format json "$L/leaf-r0.xml"
expect_eq "$(rules)" "info:topology.one-sided-link" "one listing: one info, no error"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']")" \
  "{'cables_from_one_end': 6, 'listing_devices': 1, 'neighbours_not_listed': 6}" "one listing: whose views"
# the HTML report's rule table gives the severity the finding has (info),
# not the rule's default (error), as the text tally does
expect_rc 0 "$FL" check --format html -o "$TMP/views.html" "$L/leaf-r0.xml"
expect_eq "$(grep -o '<tr><td>topology.one-sided-link</td><td class="sev-[a-z]*">[a-z]*' "$TMP/views.html" | sed 's/.*>//')" \
  "info" "HTML rule table: the finding's severity"
expect_rc 0 "$FL" info --format json "$L/leaf-r0.xml"
expect_eq "$(jget "$TMP/out" "=(d['one_sided_links'], d['one_sided_links_by_filter'])")" "(6, 6)" "info: all six to neighbours not listed"

# ---- every listing ------------------------------------------------------------------
expect_rc 0 "$FL" check --format json "$L"
expect_eq "$(rules)" "" "all listings: nothing one-sided"

# ---- one host's listing left out ------------------------------------------------------
mkdir "$TMP/no3"
cp "$L"/*.xml "$TMP/no3/" && rm "$TMP/no3/host-03.xml"
expect_rc 0 "$FL" check --format json "$TMP/no3"
expect_eq "$(rules)" "info:topology.one-sided-link" "host-03 not listed: info"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']")" \
  "{'cables_from_one_end': 2, 'listing_devices': 7, 'neighbours_not_listed': 1}" "host-03 not listed: its two cables"

# the inference is shown with its evidence (info --explain, JSON views)
expect_rc 0 "$FL" info --explain "$TMP/no3"
expect_grep "$TMP/out" '^    host-03: only a neighbour in 2 listing\(s\) of other devices \(e\.g\. "leaf-r0"\); its own listing was not given: its other cables are unknown \(confidence high\)$'
expect_rc 0 "$FL" info --explain --format json "$TMP/no3"
expect_eq "$(jget "$TMP/out" "=[(v['node'], v['confidence']) for v in d['inferences']['views']]")" "[('host-03', 'high')]" "explain JSON: one view"
# an annotation pins it: host-03 said to be a device whose view counts
# (peer-only = no): its missing listing is an error again, one finding for
# its two cables (the capture lacks a node's listing: one cause)
printf 'node,peer-only\nhost-03,no\n' >"$TMP/pin.csv"
expect_rc 1 "$FL" check --format json "$TMP/no3" "$TMP/pin.csv"
expect_eq "$(rules)" "error:topology.one-sided-link" "pinned: host-03's listing missing, one error"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']")" \
  "{'cables_from_one_end': 2, 'example': 'host-03', 'nodes_without_listing': 1}" "pinned: its two cables in one finding"

# ---- a listed device leaves a cable out: a real one-sided cable, both ways -----------
for silent in host-01 leaf-r0; do
  other=$([ "$silent" = host-01 ] && echo leaf-r0 || echo host-01)
  rm -rf "$TMP/cut" && mkdir "$TMP/cut" && cp "$L"/*.xml "$TMP/cut/"
  drop "$L/$silent.xml" "$other" >"$TMP/cut/$silent.xml" || fail "drop $silent"
  expect_rc 1 "$FL" check --format json "$TMP/cut"
  expect_eq "$(rules)" "error:topology.one-sided-link" "$silent leaves a cable out: error"
  expect_eq "$(jget "$TMP/out" "=(d['findings'][0]['evidence']['listed_by'], d['findings'][0]['evidence']['silent_end'])")" \
    "('$other', '$silent')" "$silent leaves a cable out: the silent end named"
done

# ---- an island in an excerpt is not judged cut off ---------------------------------------
x="$FL_EXTERNAL/treydock__infiniband_exporter__collectors__fixtures__ibnetdiscover__test.out"
expect_rc 0 "$FL" check --format json --rules 'topology.disconnected' "$x"
expect_eq "$(jget "$TMP/out" "=[(f['severity'], f['evidence']['unlisted_nodes'], f['nodes']) for f in d['findings']]")" \
  "[('info', 1, ['p0001 HCA-1', 'ib-i4l1s01'])]" "excerpt: the island is info, one node's listing missing"
finish
