/* SPDX-License-Identifier: MIT */
/*
 * core/report/html_assets.h — the CSS and JavaScript of the HTML report
 * (core/report/assets/report.css, report.js), compiled in as strings by
 * cmake/embed.cmake so that the report needs no file at run time.
 */
#ifndef FABRICLINT_CORE_HTML_ASSETS_H
#define FABRICLINT_CORE_HTML_ASSETS_H

/** The report's style sheet, NUL-terminated. */
extern const char fl_html_css[];
/** The report's script (tabs, pan and zoom, table sort and filter). */
extern const char fl_html_js[];

#endif
