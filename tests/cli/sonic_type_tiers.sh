#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/sonic_type_tiers.sh — tiers from the SONiC device type (issue
# 30: a minigraph of routers has no compute endpoint, so the switch graph
# ranks nothing and every tier was unknown, although each device says
# ToRRouter, LeafRouter or SpineRouter):
#   - the real sonic-buildimage samples: a ToRRouter is tier 1 and its
#     LeafRouters tier 2, "from the device type alone", confidence medium
#     (info --explain, text and JSON);
#   - the type must agree with the cables (a Clos cables adjacent layers):
#     a LeafRouter peer retyped SpineRouter (two layers from the ToR), or
#     ToRRouter (the same layer), gives neither end a tier, and the
#     evidence says why;
#   - with servers under the ToR the shape ranks it: the type agreeing
#     raises the confidence to high; a ToR typed LeafRouter keeps the
#     shape's tier 1 at low confidence, "contradicted";
#   - an annotation `tier` pins a tier over the type (confidence given).
. "$(dirname "$0")/lib.bash"
X=$(dirname "$0")/../data/external
S=$X/sonic-net__sonic-buildimage__src__sonic-config-engine__tests__simple-sample-graph.xml
D=$X/sonic-net__sonic-buildimage__src__sonic-config-engine__tests__sample-arista-7260-dualtor-minigraph.xml
tier_of() { # FILE NODE [ARGS] — "tier confidence evidence" of NODE from info --explain --format json
  "$FL" info --explain --format json "$1" "${@:3}" >"$TMP/out" 2>"$TMP/err" || { echo "info failed: $(cat "$TMP/err")"; return; }
  jget "$TMP/out" "=[(r.get('tier'), r['confidence'], r['evidence']) for r in d['inferences']['tiers'] if r['node'] == '$2'][0]"
}

# ---- the samples as shipped ---------------------------------------------------
expect_eq "$(tier_of "$S" switch-t0)" \
  "(1, 'medium', 'tier 1: from the device type ToRRouter (SONiC T0 ToR) alone; the switch graph gives none (no compute endpoint in its part of it)')" \
  "simple sample: the ToRRouter is tier 1, from its type"
expect_eq "$(tier_of "$S" ARISTA01T1)" \
  "(2, 'medium', 'tier 2: from the device type LeafRouter (SONiC T1 leaf router) alone; the switch graph gives none (no compute endpoint in its part of it)')" \
  "simple sample: its LeafRouter peer is tier 2"
expect_rc 0 "$FL" info --explain "$S"
expect_grep "$TMP/out" "switch-t0: tier 1: from the device type ToRRouter .* \(confidence medium\)"

# ---- types against the cables: adjacent layers only ---------------------------
sed '/<Device i:type="LeafRouter">/{N;s/<Device i:type="LeafRouter">\(\n *<Hostname>ARISTA01T1<\/Hostname>\)/<Device i:type="SpineRouter">\1/}' "$S" >"$TMP/skip.xml"
expect_eq "$(grep -c 'i:type="SpineRouter"' "$TMP/skip.xml")" 1 "one peer retyped SpineRouter"
expect_eq "$(tier_of "$TMP/skip.xml" ARISTA01T1)" \
  "(None, 'none', 'no tier: no compute endpoint in its part of the switch graph; its device type SpineRouter (SONiC T2 spine router) says tier 3, not used: it is cabled to switch-t0, whose device type states the same or a non-adjacent tier (a Clos cables adjacent layers only)')" \
  "a SpineRouter cabled to a ToRRouter (two layers apart): no tier"
expect_eq "$(tier_of "$TMP/skip.xml" switch-t0 | cut -c1-20)" "(None, 'none', 'no t" "and its ToR neither"
sed '/<Device i:type="LeafRouter">/{N;s/<Device i:type="LeafRouter">\(\n *<Hostname>ARISTA01T1<\/Hostname>\)/<Device i:type="ToRRouter">\1/}' "$S" >"$TMP/same.xml"
expect_eq "$(tier_of "$TMP/same.xml" ARISTA01T1 | cut -c1-20)" "(None, 'none', 'no t" "two ToRRouters cabled together: no tier"

# ---- the type as a second kind of evidence --------------------------------------
expect_eq "$(tier_of "$D" str2-7260cx3-acs-12 | sed 's/.*; the device/the device/')" \
  "the device type ToRRouter (SONiC T0 ToR) agrees')" "dual-ToR sample: the shape ranks the ToR, the type agrees"
expect_eq "$(tier_of "$D" str2-7260cx3-acs-12 | cut -c1-10)" "(1, 'high'" "dual-ToR sample: confidence high"
sed 's/<Device i:type="ToRRouter">/<Device i:type="LeafRouter">/' "$D" >"$TMP/contra.xml"
expect_eq "$(tier_of "$TMP/contra.xml" str2-7260cx3-acs-12 | cut -c1-9)" "(1, 'low'" "ToR typed LeafRouter: the shape's tier 1, low"
expect_grep "$TMP/out" "says tier 2: contradicted, so the switch graph's tier is kept with low confidence"

# ---- an annotation pins it ------------------------------------------------------
printf 'node,tier\nswitch-t0,2\n' >"$TMP/pin.csv"
expect_eq "$(tier_of "$S" switch-t0 "$TMP/pin.csv")" \
  "(2, 'given', 'tier 2: given by an input (tier attribute); the device type ToRRouter (SONiC T0 ToR) says tier 1')" \
  "annotation tier=2 pins it over the type"
finish
