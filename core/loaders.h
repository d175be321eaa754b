/*
 * core/loaders.h — the per-format loaders behind fl_fabric_load() (internal).
 *
 * Each takes a fabric under construction, the input path, the options (never
 * NULL here: fl_fabric_load() passes zeroed defaults) and an error record.
 * Each returns FL_OK, or FL_EIO / FL_EPARSE / FL_ENOMEM with @err naming
 * file, line (and column where known) and what was expected.
 * Loaders only read their input; they never modify or create files.
 */
#ifndef FABRICLINT_CORE_LOADERS_H
#define FABRICLINT_CORE_LOADERS_H

#include "fabriclint/load.h"

/** ibnetdiscover topology output (default and -g modes), core/ibnd.c. */
int fl_load_ibnetdiscover(fl_fabric *fab, const char *path,
                          const fl_load_options *opts, fl_error *err);
/** ibnetdiscover -p ports report, core/ibnd.c. */
int fl_load_ibnd_ports(fl_fabric *fab, const char *path,
                       const fl_load_options *opts, fl_error *err);
/** ibsim net file (ibsim/sim_net.c dialect), core/ibnd.c. */
int fl_load_ibsim_net(fl_fabric *fab, const char *path,
                      const fl_load_options *opts, fl_error *err);
/** fabriclint design XML, validated against schema/design.rng, core/design_xml.c. */
int fl_load_design_xml(fl_fabric *fab, const char *path,
                       const fl_load_options *opts, fl_error *err);

/* Routing state, core/routing_load.c. Switches, ports and LIDs are resolved
 * against the topology already loaded (load topology first). */
int fl_load_lfts(fl_fabric *fab, const char *path, const fl_load_options *opts,
                 fl_error *err);
int fl_load_fdbs(fl_fabric *fab, const char *path, const fl_load_options *opts,
                 fl_error *err);
int fl_load_sl2vl(fl_fabric *fab, const char *path, const fl_load_options *opts,
                  fl_error *err);
int fl_load_path_sl(fl_fabric *fab, const char *path,
                    const fl_load_options *opts, fl_error *err);
int fl_load_subnet_lst(fl_fabric *fab, const char *path,
                       const fl_load_options *opts, fl_error *err);
int fl_load_saquery_pr(fl_fabric *fab, const char *path,
                       const fl_load_options *opts, fl_error *err);

/** Attribute side file (node name -> attributes; CSV or YAML) that
 * annotates an already loaded topology, core/annotate.c. */
int fl_load_annotations(fl_fabric *fab, const char *path,
                        const fl_load_options *opts, fl_error *err);
/** ibdiagnet2.far adaptive-routing groups, core/ar_load.c. */
int fl_load_ar(fl_fabric *fab, const char *path, const fl_load_options *opts,
               fl_error *err);

/**
 * fl_schema_path() — path of the shipped schema file @name ("design.rng"):
 * beside the library (<libdir of libfabriclint.so>/schema/), else the
 * install prefix, else the source tree. Writes into @buf; returns @buf or
 * NULL when not found. Implemented in core/load.c.
 */
const char *fl_schema_path(const char *name, char *buf, size_t size);

#endif
