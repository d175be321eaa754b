/* SPDX-License-Identifier: MIT */
/* core/io/port_state.c — the tables of port_state.h. */
#include "io/port_state.h"

const char *const fl_port_state_words[FL_PORT_STATES] = {
    "NoChange", "Down", "Initialize", "Armed", "Active"};

const char *const fl_phys_state_words[FL_PHYS_STATES] = {
    "NoChange",
    "Sleep",
    "Polling",
    "Disabled",
    "PortConfigurationTraining",
    "LinkUp",
    "LinkErrorRecovery",
    "PhyTest"};
