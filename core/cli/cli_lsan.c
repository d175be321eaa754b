/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_lsan.c — LeakSanitizer's built-in suppressions, compiled
 * only into sanitizer builds of the executable (-DFABRICLINT_SANITIZE=
 * address, docs/building.md).
 *
 * Graphviz 2.43 (Debian 12) does not free the cells of HTML-like labels
 * it parses (make_html_label -> htmlparse, sizeArray): a known leak of the
 * library (graphviz issue 1908, "memory leaks in gvLayout ... html-like
 * tables"), a few kilobytes per picture, in memory fabriclint never owns.
 * Full stacks (ASAN_OPTIONS=fast_unwind_on_malloc=0) end in
 * make_html_label; the default fast unwinder stops at libgvc's allocator
 * (the library has no frame pointers), so the suppression names the
 * library: leaks whose stack reaches into libgvc. A leak of fabriclint's
 * own memory, or of a cgraph graph it forgets to close (libcgraph), is
 * still reported.
 */
#if defined(__SANITIZE_ADDRESS__)
#define FL_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FL_LSAN 1
#endif
#endif

#ifdef FL_LSAN
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
  return "leak:libgvc.so\n";
}

/* Not "Suppressions used: ..." on stderr after every picture: tests read
 * stderr. LSAN_OPTIONS still overrides it. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) {
  return "print_suppressions=0";
}
#else
typedef int
    fl_cli_lsan_unused; /* ISO C: a translation unit declares something */
#endif
