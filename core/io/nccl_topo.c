/*
 * core/io/nccl_topo.c — NCCL topology XML (<system>, written by NCCL when
 * NCCL_TOPO_DUMP_FILE is set): recognised and, for now, refused: it
 * describes one host's PCIe tree, not the fabric's cables.
 */
#include <string.h>

#include "io/formats.h"

static uint32_t detect_nccl_topo(const fl_detect_ctx *c, fl_error *err) {
  if (!c->xml_root || strcmp(c->xml_root, "system") != 0 ||
      !strstr(c->text, "<cpu"))
    return FL_FMT_AUTO;
  fl_error_set(err, FL_EPARSE, c->path, 0, 0,
               "NCCL topology XML (<system>, NCCL_TOPO_DUMP_FILE) is not "
               "a format fabriclint reads: it describes one host's PCIe "
               "tree, not the fabric's cables");
  return FL_FMT_REFUSED;
}

const fl_format_def fl_fmt_nccl_topo = {
    FL_FMT_AUTO, "nccl-topo",      NULL, FL_FORMAT_XML,
    NULL,        detect_nccl_topo, NULL};
