#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
. "$here/../../tests/ibsim_lib.bash"
ibsim_need ibsim ibsim-run ibnetdiscover python3
ibsim_init director
ibsim_timeout=120
work=$ibsim_work

capture() { # NET OUT
  ibsim_start "$1" "$work/ibsim.log" || exit 1
  SIM_HOST="host-01 ibp11s0f0" timeout "$ibsim_timeout" ibsim-run ibnetdiscover >"$2.tmp"
  mv "$2.tmp" "$2"
  ibsim_stop
}

python3 "$here/make_net.py" >"$out/director.net"
python3 "$here/make_net.py" --miswire >"$out/director-miswired.net"
capture "$out/director.net" "$out/director.ibnetdiscover"
capture "$out/director-miswired.net" "$out/director-miswired.ibnetdiscover"
echo "regen.sh: wrote director{,-miswired}.{net,ibnetdiscover} in $out"
