/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/counters.h — port counters of the running fabric, attached to
 * the ports of the model: the IBA performance-management counters
 * (PortCounters, PortCountersExtended, PortRcvErrorDetails,
 * PortXmitDiscardDetails; IBA vol. 1 §16.1.3-16.1.4) as `perfquery`,
 * `ibqueryerrors`, ibdiagnet's `ibdiagnet2.pm` and the Prometheus
 * `infiniband_exporter` report them (loaders in core/io/ctr_*.c,
 * docs/formats/).
 *
 * Counters are not topology: they load after the topology and attach to it
 * at fl_fabric_finalize(), as routing dumps do. A counter record names its
 * port by GUID and port number, by LID and port number, or by node name
 * (through the alias layer) and port number, in that order of preference;
 * records that name a node or port the model does not have are kept as
 * "unmapped" (fl_fabric_counter_unmapped()), never dropped.
 *
 * Snapshots: each counter input carries a capture time when its format has
 * one (ibdiagnet's banner, a Prometheus sample timestamp or the exporter's
 * last-execution gauge, or a `# captured <ISO 8601 time>` line written by
 * the capture recipe of docs/formats/). Inputs with the same time, or
 * without any, are one snapshot; two distinct times are two snapshots, and
 * the accessors then also give the change between them (rates). A third
 * capture time is refused at load.
 *
 * Everything here is read-only after fl_fabric_finalize(); values are raw
 * counter values as the PMA reports them (PortXmitData/PortRcvData in units
 * of 4 octets, as IBA defines them; PortXmitWait in ticks).
 */
#ifndef FABRICLINT_COUNTERS_H
#define FABRICLINT_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/fabric.h"

#include "fabriclint/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Counter ids (stable): the IBA name in brackets is what perfquery prints
 * and fl_counter_name() returns. */
#define FL_CTR_SYMBOL_ERRORS           0u /**< [SymbolErrorCounter] */
#define FL_CTR_LINK_ERROR_RECOVERY     1u /**< [LinkErrorRecoveryCounter] */
#define FL_CTR_LINK_DOWNED             2u /**< [LinkDownedCounter] */
#define FL_CTR_RCV_ERRORS              3u /**< [PortRcvErrors] */
#define FL_CTR_RCV_REMOTE_PHYS_ERRORS  4u /**< [PortRcvRemotePhysicalErrors] */
#define FL_CTR_RCV_SWITCH_RELAY_ERRORS 5u /**< [PortRcvSwitchRelayErrors] */
#define FL_CTR_XMIT_DISCARDS           6u /**< [PortXmitDiscards] */
#define FL_CTR_XMIT_CONSTRAINT_ERRORS  7u /**< [PortXmitConstraintErrors] */
#define FL_CTR_RCV_CONSTRAINT_ERRORS   8u /**< [PortRcvConstraintErrors] */
#define FL_CTR_LOCAL_LINK_INTEGRITY    9u /**< [LocalLinkIntegrityErrors] */
#define FL_CTR_EXCESSIVE_BUFFER_OVERRUN                                        \
  10u                                    /**< [ExcessiveBufferOverrunErrors] */
#define FL_CTR_VL15_DROPPED          11u /**< [VL15Dropped] */
#define FL_CTR_XMIT_WAIT             12u /**< [PortXmitWait], ticks */
#define FL_CTR_XMIT_DATA             13u /**< [PortXmitData], 4-octet words */
#define FL_CTR_RCV_DATA              14u /**< [PortRcvData], 4-octet words */
#define FL_CTR_XMIT_PKTS             15u /**< [PortXmitPkts] */
#define FL_CTR_RCV_PKTS              16u /**< [PortRcvPkts] */
#define FL_CTR_UNICAST_XMIT_PKTS     17u /**< [PortUnicastXmitPkts] */
#define FL_CTR_UNICAST_RCV_PKTS      18u /**< [PortUnicastRcvPkts] */
#define FL_CTR_MULTICAST_XMIT_PKTS   19u /**< [PortMulticastXmitPkts] */
#define FL_CTR_MULTICAST_RCV_PKTS    20u /**< [PortMulticastRcvPkts] */
#define FL_CTR_QP1_DROPPED           21u /**< [QP1Dropped] */
#define FL_CTR_LOCAL_PHYSICAL_ERRORS 22u /**< [PortLocalPhysicalErrors] */
#define FL_CTR_MALFORMED_PKT_ERRORS  23u /**< [PortMalformedPktErrors] */
#define FL_CTR_BUFFER_OVERRUN_ERRORS 24u /**< [PortBufferOverrunErrors] */
#define FL_CTR_DLID_MAPPING_ERRORS   25u /**< [PortDLIDMappingErrors] */
#define FL_CTR_VL_MAPPING_ERRORS     26u /**< [PortVLMappingErrors] */
#define FL_CTR_LOOPING_ERRORS        27u /**< [PortLoopingErrors] */
#define FL_CTR_INACTIVE_DISCARDS     28u /**< [PortInactiveDiscards] */
#define FL_CTR_NEIGHBOR_MTU_DISCARDS 29u /**< [PortNeighborMTUDiscards] */
#define FL_CTR_SW_LIFETIME_DISCARDS  30u /**< [PortSwLifetimeLimitDiscards] */
#define FL_CTR_SW_HOQ_LIFETIME_DISCARDS                                        \
  31u /**< [PortSwHOQLifetimeLimitDiscards] */
/** Number of counter ids; also "no such counter" from fl_counter_parse(). */
#define FL_CTR_COUNT 32u

/** fl_fabric_port_counter() result bits. */
#define FL_CTRV_VALUE 0x1u /**< *value is the latest snapshot's value */
#define FL_CTRV_DELTA                                                          \
  0x2u /**< *delta is the change since the first snapshot                      \
        */
#define FL_CTRV_RESET                                                          \
  0x4u /**< the counter went down between the snapshots (cleared or reset):    \
        *delta is the latest value, a lower bound */
#define FL_CTRV_SATURATED                                                      \
  0x8u /**< the latest value is the largest the IBA PortCounters field holds   \
          (counters stop there): a lower bound */

/**
 * fl_counter_name() — the IBA name of counter @ctr as perfquery prints it
 * ("SymbolErrorCounter", "PortXmitWait"), or "?" for a bad id. Static.
 */
FL_EXTERN(const char *) fl_counter_name(uint32_t ctr);

/**
 * fl_counter_parse() — the counter id of IBA name (@s, @len) in perfquery's
 * spelling (case-sensitive; "PortMalformedPacketErrors" and the ibsim
 * spelling "PortMultiCastXmitPkts" are accepted too), or FL_CTR_COUNT.
 * O(counters).
 */
FL_EXTERN(uint32_t) fl_counter_parse(const char *s, size_t len);

/**
 * fl_counter_max() — the largest value counter @ctr holds in the basic IBA
 * PortCounters attribute (its field width: 0xFFFF for SymbolErrorCounter,
 * 0xFF for LinkDownedCounter, 0xF for LocalLinkIntegrityErrors), where the
 * counter stops; UINT64_MAX for counters that exist only as 64-bit fields.
 */
FL_EXTERN(uint64_t) fl_counter_max(uint32_t ctr);

/** Number of counter snapshots loaded: 0 (no counter input), 1 or 2. */
FL_EXTERN(uint32_t) fl_fabric_counter_snapshots(const fl_fabric *fab);

/**
 * fl_fabric_counter_interval() — seconds between the two snapshots'
 * capture times; 0 with fewer than two snapshots.
 */
FL_EXTERN(double) fl_fabric_counter_interval(const fl_fabric *fab);

/**
 * fl_fabric_counter_complete() — 1 when the latest snapshot lists every
 * port its tool read (perfquery, ibdiagnet2.pm, the exporter), so a cabled
 * port without a record was not read; 0 when it lists only ports whose
 * counters passed the tool's thresholds (ibqueryerrors), so a port without
 * a record is below them. 0 without counters.
 */
FL_EXTERN(int) fl_fabric_counter_complete(const fl_fabric *fab);

/**
 * fl_fabric_port_counter_mask() — which counters port @p has in the latest
 * snapshot: bit i set for counter id i. 0 for a port without a record or a
 * bad id. O(1).
 */
FL_EXTERN(uint64_t) fl_fabric_port_counter_mask(const fl_fabric *fab, fl_id p);

/**
 * fl_fabric_port_counter() — counter @ctr of port @p: the latest
 * snapshot's value in *@value and, with two snapshots where the port has
 * the counter in both, the change in *@delta (either output may be NULL).
 * Returns FL_CTRV_* bits (0: no value; *@value and *@delta are then 0).
 * O(counters of the record).
 */
FL_EXTERN(uint32_t)
fl_fabric_port_counter(const fl_fabric *fab, fl_id p, uint32_t ctr,
                       uint64_t *value, uint64_t *delta);

/** Number of counter records that name no port of the model. */
FL_EXTERN(uint32_t) fl_fabric_counter_unmapped_count(const fl_fabric *fab);

/**
 * fl_fabric_counter_unmapped() — the @i-th unmapped record: *@what says how
 * the input named the port (`GUID 0x0002c90301000005 port 7`, `LID 12 port
 * 3`, `"leaf-09" port 2`), *@file and *@line where; *@node is the node
 * when the input named a node the model has (the port is then what is
 * missing: an uncabled port of an ibnetdiscover dump, or a port the design
 * does not have), else FL_NONE; *@port the port number. Outputs may be
 * NULL; strings are owned by the fabric. FL_OK, or FL_ENOTFOUND past the
 * end.
 */
FL_EXTERN(int)
fl_fabric_counter_unmapped(const fl_fabric *fab, uint32_t i, const char **what,
                           const char **file, uint32_t *line, fl_id *node,
                           uint32_t *port);

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_COUNTERS_H */
