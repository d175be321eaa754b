/* SPDX-License-Identifier: MIT */
/*
 * core/io/port_state.h — the words of a port's state (internal to
 * core/io): IBA vol. 1 14.2.5.6 PortInfo PortState and PortPhysicalState,
 * in value order, as libibmad's mad_dump_portstate() and
 * mad_dump_physportstate() print them (iblinkinfo's "Active/ LinkUp") and
 * as the port attribute `state` holds them ("Active/LinkUp", read by
 * plugins/topology/link_state.c). One table for the loaders that read
 * words (iblinkinfo.c) and those that read codes (dbcsv_topo.c).
 */
#ifndef FABRICLINT_CORE_IO_PORT_STATE_H
#define FABRICLINT_CORE_IO_PORT_STATE_H

#include <stddef.h>

/** PortState 0..4: NoChange, Down, Initialize, Armed, Active. */
#define FL_PORT_STATES 5u
extern const char *const fl_port_state_words[FL_PORT_STATES];

/** PortPhysicalState 0..7: NoChange, Sleep, Polling, Disabled,
 * PortConfigurationTraining, LinkUp, LinkErrorRecovery, PhyTest. */
#define FL_PHYS_STATES 8u
extern const char *const fl_phys_state_words[FL_PHYS_STATES];

#endif
