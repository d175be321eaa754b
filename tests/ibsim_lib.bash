# SPDX-License-Identifier: MIT
# tests/ibsim_lib.bash — the start-up every script shares that runs the real
# InfiniBand tools (OpenSM, infiniband-diags) against a fabric simulated by
# ibsim (Debian ibsim-utils): the fabrics/regen*.sh generators, the fixture
# make scripts under tests/, the *_live tests and bench/vs_ibdmchk.sh.
#
# Source it from bash (it works with and without `set -eu`):
#   . "$src/tests/ibsim_lib.bash"
#
# Functions, in the order a script uses them:
#
#   ibsim_need [--skip] TOOL...
#       Every TOOL is on PATH. Otherwise: "NAME: TOOL not found (apt install
#       PKG)" on stderr and exit 2 — or, with --skip (a test), "NAME: SKIP:
#       TOOL not installed (apt install PKG)" on stdout and exit 77, a ctest
#       SKIP. NAME is $ibsim_name (default: the script's file name).
#
#   ibsim_init TAG [WORK]
#       The private state of the run. The work folder $ibsim_work is WORK, or
#       a new `mktemp -d ${TMPDIR:-/tmp}/fl-TAG.XXXXXX`; it is removed on
#       exit (kept, and named on stderr, when KEEP_WORK is set). ibsim
#       listens on the socket name IBSIM_SOCKNAME=fl<TAG><pid> (exported), so
#       parallel runs do not meet; LD_PRELOAD and SIM_HOST are unset. Traps:
#       EXIT runs ibsim_cleanup (stop OpenSM and ibsim, call the script's
#       own `ibsim_on_exit` if it defines one, remove the work folder);
#       INT, TERM and HUP exit 130 (through the EXIT trap). This replaces
#       any EXIT trap set before (tests/cli/lib.bash's `rm -rf $TMP`: pass
#       $TMP as WORK and it is removed as before).
#
#   ibsim_opensm_conf OUT LOG DUMPDIR [KEY VALUE]...
#       Writes OUT, an OpenSM config: OpenSM's defaults (`opensm -c`, made
#       once per run in the work folder) with log_file LOG, dump_files_dir
#       DUMPDIR/ and partition_config_file in the work folder (no such file:
#       the default partition), then each `KEY VALUE` pair replacing the line
#       of KEY (e.g. log_flags 0x43: OpenSM writes its routing dumps;
#       force_log_flush TRUE). Returns 1 when `opensm -c` wrote nothing.
#
#   ibsim_start NET LOG [console]
#       Starts ibsim on the net file NET, with the table sizes named by its
#       header line "# Simulate with: ibsim -s OPTIONS FILE" (fabriclint gen
#       --format ibsim writes it; none: ibsim's defaults), output to LOG, and
#       waits until LOG says "Network simulator ready" (at most
#       $ibsim_start_wait tenths of a second, default 100). Without
#       `console` ibsim runs with -n (no console); with it, ibsim's console
#       reads a FIFO held open on file descriptor 3 (see ibsim_console). The
#       pid is $ibsim_pid. One ibsim at a time. Returns 1 (LOG on stderr,
#       ibsim stopped) when ibsim exits or is not ready in time.
#
#   ibsim_console CMD
#       Writes CMD to the console of the running ibsim (started with
#       `console`), e.g. 'Unlink "leaf-p01-05"[16]'. Returns 1 when the
#       console is closed or ibsim has gone (never a SIGPIPE to the caller).
#
#   ibsim_opensm SMHOST DIR OUT ARGS...
#       One OpenSM run, `ibsim-run opensm ARGS` (e.g. -o -R ftree -F CONF)
#       from the simulated port SMHOST ("node0001 mlx5_0"; empty: the
#       SIM_HOST of the environment), in DIR, with OSM_CACHE_DIR and
#       OSM_TMP_DIR there, stdout and stderr to OUT, under `timeout
#       $ibsim_timeout` (seconds, default 300). It runs in the background and
#       is waited for, so that a signal to the script is handled at once.
#       Returns OpenSM's exit status (124: timed out).
#
#   ibsim_opensm_start SMHOST DIR OUT ARGS...
#       The same without waiting and without timeout: OpenSM as a daemon
#       (pid $ibsim_osm_pid), e.g. to answer SA queries; ibsim_opensm_stop
#       (or the exit trap) stops it.
#
#   ibsim_engine_used LOG
#       Prints the routing engine that configured the tables according to
#       the OpenSM log LOG ("<engine> tables configured on all switches",
#       last sweep), or nothing. OpenSM falls back to minhop when an engine
#       refuses a topology: this says which one routed.
#
#   ibsim_stop
#       Stops the running ibsim (console: `quit` first, then the FIFO is
#       closed) and reaps it; nothing when none runs.
#
# Variables a script may set after sourcing: ibsim_name (message prefix),
# ibsim_timeout (seconds for each OpenSM run), ibsim_start_wait (tenths of a
# second for ibsim to get ready; large fabrics need more).

ibsim_name=${ibsim_name:-$(basename "$0")}
ibsim_timeout=${ibsim_timeout:-300}
ibsim_start_wait=${ibsim_start_wait:-100}
ibsim_work=""
ibsim_pid=""
ibsim_osm_pid=""
ibsim_console_fifo=""

# ibsim_pkg TOOL — the Debian package that installs TOOL.
ibsim_pkg() {
  case $1 in
  ibsim | ibsim-run) echo ibsim-utils ;;
  opensm) echo opensm ;;
  ibdmchk) echo ibutils ;;
  lldpd | lldpcli) echo lldpd ;;
  python3) echo python3 ;;
  ip) echo iproute2 ;;
  unshare) echo util-linux ;;
  *) echo infiniband-diags ;;
  esac
}

ibsim_need() {
  local skip="" tool
  if [ "${1:-}" = --skip ]; then
    skip=1
    shift
  fi
  for tool in "$@"; do
    command -v "$tool" >/dev/null && continue
    if [ -n "$skip" ]; then
      echo "$ibsim_name: SKIP: $tool not installed (apt install $(ibsim_pkg "$tool"))"
      exit 77
    fi
    echo "$ibsim_name: $tool not found (apt install $(ibsim_pkg "$tool"))" >&2
    exit 2
  done
}

ibsim_init() {
  local tag=$1
  if [ -n "${2:-}" ]; then
    ibsim_work=$2
  else
    ibsim_work=$(mktemp -d "${TMPDIR:-/tmp}/fl-$tag.XXXXXX") || exit 1
  fi
  export IBSIM_SOCKNAME="fl${tag//[^a-zA-Z0-9]/}$$"
  unset LD_PRELOAD SIM_HOST
  trap ibsim_cleanup EXIT
  trap 'exit 130' INT TERM HUP
}

ibsim_cleanup() {
  ibsim_opensm_stop
  ibsim_stop
  if declare -F ibsim_on_exit >/dev/null; then
    ibsim_on_exit || true
  fi
  [ -n "$ibsim_work" ] || return 0
  if [ -n "${KEEP_WORK:-}" ]; then
    echo "$ibsim_name: work folder kept: $ibsim_work" >&2
  else
    rm -rf "$ibsim_work"
  fi
}

ibsim_opensm_conf() {
  local out=$1 log=$2 dump=$3 def=$ibsim_work/opensm.conf.default
  shift 3
  if [ ! -s "$def" ]; then
    opensm -c "$def" >/dev/null 2>&1 || true
    if [ ! -s "$def" ]; then
      echo "$ibsim_name: opensm -c wrote no default config" >&2
      return 1
    fi
  fi
  local edits=(-e "s#^log_file .*#log_file $log#"
    -e "s#^dump_files_dir .*#dump_files_dir $dump/#"
    -e "s#^partition_config_file .*#partition_config_file $ibsim_work/partitions.conf#")
  while [ $# -ge 2 ]; do
    edits+=(-e "s#^$1 .*#$1 $2#")
    shift 2
  done
  sed "${edits[@]}" "$def" >"$out"
}

ibsim_start() {
  local net=$1 log=$2 mode=${3:-} args i
  args=$(sed -n 's/^# Simulate with: ibsim -s \(.*\) FILE$/\1/p' "$net")
  ibsim_stop
  if [ "$mode" = console ]; then
    ibsim_console_fifo=$ibsim_work/ibsim.console
    rm -f "$ibsim_console_fifo"
    mkfifo "$ibsim_console_fifo" || return 1
    # shellcheck disable=SC2086 # the option list is meant to split
    ibsim -s $args "$net" <"$ibsim_console_fifo" >"$log" 2>&1 &
    ibsim_pid=$!
    exec 3>"$ibsim_console_fifo"
  else
    # shellcheck disable=SC2086 # the option list is meant to split
    ibsim -s -n $args "$net" >"$log" 2>&1 </dev/null &
    ibsim_pid=$!
  fi
  for ((i = 0; i <= ibsim_start_wait; i++)); do
    grep -qs "Network simulator ready" "$log" && return 0
    kill -0 "$ibsim_pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -qs "Network simulator ready" "$log" && return 0
  echo "$ibsim_name: ibsim did not start on $net:" >&2
  sed 's/^/  ibsim: /' "$log" >&2
  ibsim_stop
  return 1
}

ibsim_console() {
  [ -n "$ibsim_console_fifo" ] && [ -n "$ibsim_pid" ] || return 1
  (printf '%s\n' "$1" >&3) 2>/dev/null
}

ibsim_stop() {
  if [ -n "$ibsim_console_fifo" ]; then
    (echo quit >&3) 2>/dev/null || true
    exec 3>&-
    rm -f "$ibsim_console_fifo"
    ibsim_console_fifo=""
  fi
  if [ -n "$ibsim_pid" ]; then
    kill "$ibsim_pid" 2>/dev/null || true
    wait "$ibsim_pid" 2>/dev/null || true
    ibsim_pid=""
  fi
}

# ibsim_opensm_spawn SECONDS SMHOST DIR OUT ARGS... — OpenSM in the
# background (SECONDS empty: no timeout); its pid in $ibsim_osm_pid.
ibsim_opensm_spawn() {
  local secs=$1 sm=$2 dir=$3 out=$4
  shift 4
  ibsim_opensm_stop
  # shellcheck disable=SC2086 # "timeout SECONDS" is meant to split
  (cd "$dir" && exec env OSM_CACHE_DIR="$dir" OSM_TMP_DIR="$dir" ${sm:+"SIM_HOST=$sm"} \
    ${secs:+timeout $secs} ibsim-run opensm "$@" >"$out" 2>&1 </dev/null) &
  ibsim_osm_pid=$!
}

ibsim_opensm_start() {
  ibsim_opensm_spawn "" "$@"
}

ibsim_opensm() {
  local rc=0
  ibsim_opensm_spawn "$ibsim_timeout" "$@"
  wait "$ibsim_osm_pid" || rc=$?
  ibsim_osm_pid=""
  return "$rc"
}

ibsim_opensm_stop() {
  if [ -n "$ibsim_osm_pid" ]; then
    kill "$ibsim_osm_pid" 2>/dev/null || true
    wait "$ibsim_osm_pid" 2>/dev/null || true
    ibsim_osm_pid=""
  fi
}

ibsim_engine_used() {
  sed -n 's/.*osm_ucast_mgr_process: \(.*\) tables configured on all switches.*/\1/p' \
    "$1" 2>/dev/null | tail -1
}
