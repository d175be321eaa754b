/*
 * fabriclint/write.h — writing a fabric in the formats fabriclint reads.
 *
 * Used by `fabriclint gen` and by tests and benchmarks to produce the same
 * fabric in several formats. Writers take a finalized fabric, write to an
 * open stream they do not close, and produce deterministic output (the same
 * fabric gives byte-identical text).
 */
#ifndef FABRICLINT_WRITE_H
#define FABRICLINT_WRITE_H

#include <stdio.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fl_write_design_xml() — the fabric as fabriclint design XML
 * (docs/design-xml.md, schema/design.rng): every node with kind, name, GUID
 * when known, port count, tier and attributes; every port that has a label,
 * GUID or LID; every link with width, speed and attributes.
 * Returns FL_OK or FL_EIO (write failed) with @err set.
 */
int fl_write_design_xml(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_ibnetdiscover() — the fabric as `ibnetdiscover` default-mode
 * output (rdma-core infiniband-diags/ibnetdiscover.c out_switch/out_ca and
 * port lines): switches first, then CAs, then routers; each cable listed
 * from both ends. Nodes without a GUID get a synthetic one derived from
 * their id. Returns FL_OK or FL_EIO.
 */
int fl_write_ibnetdiscover(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_ibsim_net() — the fabric as an ibsim net file (ibsim/sim_net.c
 * parse_netconf dialect: `Switch N "id"` / `Hca N "id"` headers and
 * `[p] "peer"[rp]` lines with w=/s= link options), so `ibsim -s FILE` can
 * simulate it. Node ids are the node names. Returns FL_OK or FL_EIO.
 */
int fl_write_ibsim_net(const fl_fabric *fab, FILE *out, fl_error *err);

#ifdef __cplusplus
}
#endif
#endif
