/* SPDX-License-Identifier: MIT */
/*
 * core/io/dot_bound.h — an upper bound on the edges a DOT text makes,
 * counted before Graphviz parses it (internal).
 *
 * cgraph expands an edge statement between subgraphs into the product of
 * their node sets (`{a0 .. a2999} -- {b0 .. b2999}` is 9,000,000 edges
 * from 34 KB), so the fabric size cap (fabriclint/load.h) must be checked
 * on the text: by the time the loader sees the edges, cgraph has already
 * made them.
 */
#ifndef FABRICLINT_CORE_IO_DOT_BOUND_H
#define FABRICLINT_CORE_IO_DOT_BOUND_H

#include <stddef.h>
#include <stdint.h>

/**
 * fl_dot_edge_bound() — an upper bound on the edges cgraph makes from the
 * DOT text @text (@len bytes): per edge statement `A -- B -- C`, the sum of
 * the products of neighbouring operands' sizes, where a node id is 1 and a
 * subgraph `{...}` the number of ids inside it (attribute values, ports and
 * keywords left out; `key=value` statements inside a subgraph counted,
 * which only overestimates). Comments, quoted and HTML strings are
 * skipped as DOT lexes them. Saturates at UINT64_MAX. O(len), no memory.
 */
uint64_t fl_dot_edge_bound(const char *text, size_t len);

#endif
