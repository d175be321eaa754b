/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_xml.h — validation modes of the design XML loader (internal).
 *
 * fl_load_design_xml() (core/loaders.h) picks a mode from its options:
 * FL_DX_BUILTIN normally, FL_DX_LENIENT with opts->no_schema, and
 * FL_DX_RELAXNG when the environment variable FABRICLINT_DESIGN_RELAXNG is
 * set to a non-empty value other than "0".
 *
 * Why three: libxml2's streaming RELAX NG validation (xmlTextReader +
 * xmlTextReaderRelaxNGSetSchema) streams (constant memory) but takes 4.3 s
 * on a 93 MB fat-tree plan that parses and builds in 1.7 s (libxml2 2.9.14;
 * docs/design-xml.md, "Validation"). The built-in validator checks exactly
 * the rules of schema/design.rng at parse speed; the RELAX NG mode keeps the
 * schema itself as the reference (the unit tests run both on the same
 * documents and expect the same verdicts at the same positions).
 */
#ifndef FABRICLINT_CORE_DESIGN_XML_H
#define FABRICLINT_CORE_DESIGN_XML_H

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"

/** Lenient: unknown elements, attributes, text ignored; the rest checked. */
#define FL_DX_LENIENT 0
/** Built-in checks equivalent to schema/design.rng (the default). */
#define FL_DX_BUILTIN 1
/** Built-in checks plus libxml2 RELAX NG validation against design.rng. */
#define FL_DX_RELAXNG 2

/**
 * fl_load_design_xml_mode() — fl_load_design_xml() with an explicit
 * validation @mode (FL_DX_*). @schema is the design.rng path for
 * FL_DX_RELAXNG, or NULL to find it with fl_schema_path(). Same returns and
 * error reporting as fl_load_design_xml().
 */
int fl_load_design_xml_mode(fl_fabric *fab, const char *path,
                            const fl_load_options *opts, int mode,
                            const char *schema, fl_error *err);

/**
 * fl_design_attr_check() — is @key a design attribute that design XML writes
 * as an XML attribute of an element of @ent_kind (FL_ENT_NODE/PORT/LINK),
 * and is @value valid for it? Returns 1 (known, valid), 0 (known, invalid:
 * the loader would refuse it) or -1 (not such a key: written as <attr>).
 * Used by the writer so that what it writes always loads. O(1).
 */
int fl_design_attr_check(uint32_t ent_kind, const char *key, const char *value);

#endif /* FABRICLINT_CORE_DESIGN_XML_H */
