/* SPDX-License-Identifier: MIT */
/*
 * core/model/chassis.h — director chassis: the switch ASICs of one modular
 * switch grouped as one logical switch, with front-panel port names
 * (internal; the read accessors are in fabriclint/fabric.h).
 *
 * A director (NVIDIA CS7500, CS8500/MCS8500, QM9790-class) is discovered as
 * many switch ASICs: leaf-board ASICs, whose low ports are the front panel,
 * and spine (fabric-board) ASICs cabled to them inside the chassis.
 * docs/formats/ufm-ndt.md ("Director chassis") gives the rules and sources.
 */
#ifndef FABRICLINT_CORE_CHASSIS_H
#define FABRICLINT_CORE_CHASSIS_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/fabric.h"

/**
 * fl_derive_chassis() — group the switches of finalized-record fabric @fab
 * into chassis: switches whose descriptions read
 * `MF0;<name>:<model>/<L|S><nn>/U<k>` (libibnetdisc chassis.c; UFM) with
 * the same <name> are one chassis, and so are switches cabled to each other
 * that share a non-zero system image GUID (the -g grouping of ibnetdiscover,
 * kept to cabled ASICs so that a generator that repeats one GUID does not
 * merge a fabric). A group is a chassis when it has two or more switches or
 * one switch with a board position. Called by fl_fabric_finalize() after
 * the records are sealed, before tiers. FL_OK or FL_ENOMEM. O(nodes +
 * links + atoms).
 */
int fl_derive_chassis(fl_fabric *fab, fl_error *err);

/** Free what fl_derive_chassis() allocated (fl_fabric_free()). */
void fl_chassis_free(fl_fabric *fab);

/**
 * fl_panel_parse() — parse a UFM NDT director port name `Blade <b>_Port
 * <u>/<p>` (case-insensitive, blanks around the parts allowed; the blade
 * may be written 1 or 01) into blade @b, leaf-board ASIC @u and ASIC port
 * @p (each 1..65535). 0 on success, -1 when (@s, @len) is not such a name.
 * Pure.
 */
int fl_panel_parse(const char *s, size_t len, uint32_t *b, uint32_t *u,
                   uint32_t *p);

/** fl_panel_format() — `Blade <bb>_Port <u>/<p>` (blade two digits, as
 * UFM writes it) into @buf; returns the length written. */
size_t fl_panel_format(char *buf, size_t size, uint32_t b, uint32_t u,
                       uint32_t p);

#endif
