/*
 * core/host_ext.c — fills the fl_host_api members that belong to later
 * modules (adaptive-routing state, ...), so that those modules do not need
 * to edit core/host.c. Called at the end of fl_host_init().
 */
#include "fabriclint/plugin.h"

void fl_host_fill_ext(fl_host_api *a);

void fl_host_fill_ext(fl_host_api *a) { (void)a; }
