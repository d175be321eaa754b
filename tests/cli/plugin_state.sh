#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/plugin_state.sh — the built-in plugins keep no global mutable
# state (DESIGN.md §3): no object of theirs lives in .data, .bss, .tdata or
# .tbss (a `static` variable in a function or at file scope that is not
# const lands there). Only the toolchain's own objects are allowed
# (completed.0, __dso_handle, __TMC_END__ from crtbegin/crtend), and the
# sanitizers' own data in a FABRICLINT_SANITIZE build (clang's UBSan source
# locations are anonymous __unnamed_N objects; ASan's ___asan_gen_*).
# Regression: rail-alignment's check_schemes kept `static char best[32]`,
# shared by every analysis in the process and stale when no NIC counted.
. "$(dirname "$0")/lib.bash"

command -v objdump >/dev/null || { echo "objdump (binutils) not found" >&2; exit 1; }
n=0
for so in "$FL_BUILD"/plugins/*.so; do
  n=$((n + 1))
  objdump -t "$so" >"$TMP/syms" || { fail "objdump -t $so"; continue; }
  awk '$3 ~ /^\.(data|bss|tdata|tbss)$/ || $4 ~ /^\.(data|bss|tdata|tbss)$/ {print $NF}' \
    "$TMP/syms" | grep -Ev '^(completed\.[0-9]+|__dso_handle|__TMC_END__|__unnamed_[0-9]+|___?asan_.*|__sancov_.*|__ubsan_.*)$' >"$TMP/state"
  if [ -s "$TMP/state" ]; then
    fail "$(basename "$so") has writable static objects: $(tr '\n' ' ' <"$TMP/state")"
  else pass; fi
done
expect_eq "$n" 8 "built-in plugins checked"
finish
