/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_hostprof.c — host-profile loaders (issue 16) and their
 * attachment to a fabric at finalize (core/model/hostprof.c). Selector:
 * '0' NCCL topology XML (core/io/nccl_topo.c), '1' nvidia-smi topo -m
 * (core/io/nvsmi_topo.c). Then an ibnetdiscover topology, FZ_SPLIT, the
 * profile.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t fmts[] = {FL_FMT_NCCL_TOPO, FL_FMT_NVSMI_TOPO};
  unsigned v = fz_select(&data, &size, 2);
  uint32_t ctx[] = {FL_FMT_IBNETDISCOVER, fmts[v]};
  fz_parts parts;
  fz_split(data, size, &parts);
  fz_load_chain(&parts, ctx, 2, fmts[v], NULL);
  return 0;
}
