/* SPDX-License-Identifier: MIT */
/*
 * core/model/infer.h — computing the inference records at finalize
 * (internal; the read accessors are in fabriclint/infer.h).
 */
#ifndef FABRICLINT_CORE_INFER_H
#define FABRICLINT_CORE_INFER_H

#include <stdint.h>

#include "fabriclint/fabric.h"

/**
 * fl_infer_finalize() — record, for every switch of @fab, the evidence of
 * its tier (endpoints, switch neighbours by tier), and infer the scalable
 * unit of every compute NIC and leaf (core/model/infer.c). Called by
 * fl_fabric_finalize() after fl_derive_tiers(). FL_OK or FL_ENOMEM.
 * O(V + E).
 */
int fl_infer_finalize(fl_fabric *fab, fl_error *err);

/** Free what fl_infer_finalize() allocated (fl_fabric_free()). */
void fl_infer_free(fl_fabric *fab);

/**
 * fl_su_of_name() — the N of `su<N>` in name @s ("su" at the start or
 * after a character that is not a letter or digit, case-insensitive, an
 * optional - or _, then decimal digits not followed by another digit;
 * N > 0): leaf-su02-r3 -> 2, SU-7-leaf -> 7; 0 when there is none
 * (`result`, `su0`). Pure.
 */
uint32_t fl_su_of_name(const char *s);

#endif
