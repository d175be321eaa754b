#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/slurm_parse_live.sh — Slurm's own parser reads the topology.conf
# that `convert --format slurm-tree` writes (issue #36): a private munged
# and slurmctld (Debian 12's slurmctld 22.05, topology/tree plugin) start on
# the generated 3-tier plan of tests/cli/convert_slurm.sh, and `scontrol
# show topology` must list every switch with its level and nodes as written;
# then on the same plan with host names too long to fold, whose lists are
# continued with a backslash, so Slurm joins the continued lines. SKIP
# without slurmctld, munged and scontrol, or when not root (munged and
# slurmctld run as the invoking user here, as SlurmUser=root).
. "$(dirname "$0")/lib.bash"
for t in slurmctld munged scontrol; do
  command -v "$t" >/dev/null || command -v "/usr/sbin/$t" >/dev/null || {
    echo "slurm_parse_live: SKIP: no $t (Debian: apt-get install slurmctld slurm-client munge)"
    exit 77
  }
done
[ "$(id -u)" -eq 0 ] || { echo "slurm_parse_live: SKIP: needs root (SlurmUser=root)"; exit 77; }
PATH=$PATH:/usr/sbin
W=$TMP/slurm
mkdir -p "$W/state"
head -c 1024 /dev/urandom >"$W/munge.key"
chmod 400 "$W/munge.key"
munged -f --key-file="$W/munge.key" --socket="$W/munge.sock" \
  --pid-file="$W/munged.pid" --log-file="$W/munged.log" --seed-file="$W/munged.seed" ||
  { fail "munged did not start"; finish; }
ctld=""
cleanup() {
  [ -n "$ctld" ] && kill -9 "$ctld" 2>/dev/null
  munged -s --socket="$W/munge.sock" >/dev/null 2>&1 || kill "$(cat "$W/munged.pid")" 2>/dev/null
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# show TOPOLOGY_FILE NODES: slurmctld on it, `scontrol show topology`
# into $TMP/shown (each line without its LinkSpeed); NODES is a file of
# NodeName lines (names with a number inside, which Slurm's hostlist
# cannot range in slurm.conf, one per line)
show() {
  [ -n "$ctld" ] && kill -9 "$ctld" 2>/dev/null && wait "$ctld" 2>/dev/null
  rm -rf "$W/state"/* "$W/slurmctld.log"
  cp "$1" "$W/topology.conf"
  cat >"$W/slurm.conf" <<CONF
ClusterName=fl
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge.sock
CredType=cred/munge
StateSaveLocation=$W/state
SlurmctldPidFile=$W/slurmctld.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmctldPort=$port
SelectType=select/cons_tres
TopologyPlugin=topology/tree
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MailProg=/bin/true
PartitionName=all Nodes=ALL Default=YES
CONF
  cat "$2" >>"$W/slurm.conf"
  slurmctld -D -i -f "$W/slurm.conf" >"$W/ctld.out" 2>&1 &
  ctld=$!
  local i
  for i in $(seq 1 50); do
    SLURM_CONF=$W/slurm.conf scontrol show topology >"$TMP/shown.raw" 2>/dev/null && break
    sleep 0.2
  done
  sed 's/ LinkSpeed=[0-9]*//' "$TMP/shown.raw" >"$TMP/shown"
}

"$FL" gen rail-su --sus 4 --tiers 3 --sus-per-group 2 >"$TMP/t3.xml"
expect_rc 0 "$FL" convert "$TMP/t3.xml" -o "$TMP/t3.conf" --format slurm-tree
echo 'NodeName=dgx-[001-128] CPUs=1 State=FUTURE' >"$TMP/nodes"
show "$TMP/t3.conf" "$TMP/nodes"
expect_eq "$(cat "$TMP/shown")" "SwitchName=leaf-su01 Level=0 Nodes=dgx-[001-032]
SwitchName=leaf-su02 Level=0 Nodes=dgx-[033-064]
SwitchName=leaf-su03 Level=0 Nodes=dgx-[065-096]
SwitchName=leaf-su04 Level=0 Nodes=dgx-[097-128]
SwitchName=spine-p01 Level=1 Nodes=dgx-[001-064] Switches=leaf-su[01-02]
SwitchName=spine-p02 Level=1 Nodes=dgx-[065-128] Switches=leaf-su[03-04]
SwitchName=core Level=2 Nodes=dgx-[001-128] Switches=spine-p[01-02]" "slurmctld: the 3-tier tree as written"
expect_rc 1 grep -iE "error: .*(topology|switch)" "$W/slurmctld.log"

sed 's/dgx-\([0-9][0-9][0-9]\)/compute-node-in-data-hall-a-row-12-\1-x/g' "$TMP/t3.xml" >"$TMP/long.xml"
expect_rc 0 "$FL" convert "$TMP/long.xml" -o "$TMP/long.conf" --format slurm-tree
expect_grep "$TMP/long.conf" '\\$'
for i in $(seq -w 1 128); do
  echo "NodeName=compute-node-in-data-hall-a-row-12-$i-x CPUs=1 State=FUTURE"
done >"$TMP/nodes"
show "$TMP/long.conf" "$TMP/nodes"
nodes_of() { grep "^SwitchName=$1 " "$TMP/shown" | sed 's/.* Nodes=\([^ ]*\).*/\1/' | tr ',' '\n' | grep -c .; }
expect_eq "$(nodes_of leaf-su01)" 32 "slurmctld: leaf-su01's 32 hosts across the continued lines"
expect_eq "$(nodes_of core)" 128 "slurmctld: the core's 128 hosts"
expect_grep "$TMP/shown" '^SwitchName=core Level=2 Nodes=compute-node-in-data-hall-a-row-12-001-x,.* Switches=spine-p\[01-02\]$'
expect_eq "$(wc -l <"$TMP/shown")" 7 "slurmctld: 7 switches from the continued lines"
[ "$FAILS" -gt 0 ] && tail -5 "$W/ctld.out" >&2
finish
