#!/usr/bin/env bash
# fabrics/director/regen.sh — the director demo fabric, captured by the real
# ibnetdiscover from ibsim (README.md beside this script says what each file
# is). Writes, next to this script:
#   director.net                   make_net.py             (ibsim input)
#   director.ibnetdiscover         ibsim-run ibnetdiscover on director.net
#   director-miswired.net          make_net.py --miswire   (one cable moved)
#   director-miswired.ibnetdiscover   ibnetdiscover on that
# The command, for each net file NET and output OUT:
#   IBSIM_SOCKNAME=<private> ibsim -s -n NET &
#   SIM_HOST="host-01 ibp11s0f0" ibsim-run ibnetdiscover > OUT
# No SM runs (LIDs stay 0): the diff compares cabling, not LIDs.
# The date line of ibnetdiscover's header is the only part that changes
# between runs. Needs ibsim, ibsim-run (ibsim-utils), ibnetdiscover
# (infiniband-diags), python3. About 2 s. OUT=DIR writes there instead
# (tests/cli/director_live.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
for tool in ibsim ibsim-run ibnetdiscover python3; do
  command -v "$tool" >/dev/null || { echo "regen.sh: $tool not found" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/fl-director.XXXXXX")
ibsim_pid=""
stop_ibsim() {
  if [ -n "$ibsim_pid" ]; then
    kill "$ibsim_pid" 2>/dev/null || true
    wait "$ibsim_pid" 2>/dev/null || true
    ibsim_pid=""
  fi
}
trap 'stop_ibsim; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

capture() { # NET OUT
  export IBSIM_SOCKNAME="fldir$$"
  unset LD_PRELOAD SIM_HOST
  ibsim -s -n "$1" >"$work/ibsim.log" 2>&1 </dev/null &
  ibsim_pid=$!
  for _ in $(seq 1 100); do
    grep -q "Network simulator ready" "$work/ibsim.log" && break
    kill -0 "$ibsim_pid" 2>/dev/null || { cat "$work/ibsim.log" >&2; exit 1; }
    sleep 0.1
  done
  grep -q "Network simulator ready" "$work/ibsim.log" || { echo "ibsim did not start" >&2; exit 1; }
  SIM_HOST="host-01 ibp11s0f0" timeout 120 ibsim-run ibnetdiscover >"$2.tmp"
  mv "$2.tmp" "$2"
  stop_ibsim
}

python3 "$here/make_net.py" >"$out/director.net"
python3 "$here/make_net.py" --miswire >"$out/director-miswired.net"
capture "$out/director.net" "$out/director.ibnetdiscover"
capture "$out/director-miswired.net" "$out/director-miswired.ibnetdiscover"
echo "regen.sh: wrote director{,-miswired}.{net,ibnetdiscover} in $out"
