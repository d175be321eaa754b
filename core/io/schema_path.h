/*
 * core/io/schema_path.h — locating the data files shipped with fabriclint
 * (core/io/schema_path.c).
 */
#ifndef FABRICLINT_CORE_SCHEMA_PATH_H
#define FABRICLINT_CORE_SCHEMA_PATH_H

#include <stddef.h>

/**
 * fl_schema_path() — path of the shipped schema file @name ("design.rng"):
 * beside the library (<libdir of libfabriclint.so>/schema/), else the
 * install prefix, else the source tree. Writes into @buf; returns @buf or
 * NULL when not found. Implemented in core/io/schema_path.c.
 */
const char *fl_schema_path(const char *name, char *buf, size_t size);

#endif
