/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_docs.h — where a rule is documented (core/cli/cli_docs.c):
 * the URI of its page and anchor, for SARIF helpUri and `fabriclint
 * explain` (internal to the command line).
 */
#ifndef FABRICLINT_CORE_CLI_DOCS_H
#define FABRICLINT_CORE_CLI_DOCS_H

#include <stddef.h>

#include "report/report.h"

/**
 * fl_cli_docs_base() — the base URI of fabriclint's documentation folder
 * (the folder holding rules/ and ci.md), ending in '/', into @buf:
 * $FABRICLINT_DOCS_URL when set (an absolute URI: a published copy such as
 * https://github.com/ORG/fabriclint/blob/v0.1.0/docs/), else the
 * published docs of this release (FL_DOCS_URL, CMake FABRICLINT_DOCS_URL),
 * else (FABRICLINT_DOCS_URL=local) the file:// URI of the docs folder this
 * fabriclint ships with. @local receives that local folder, found relative
 * to the executable (<prefix>/share/doc/fabriclint of an install, wherever
 * it was moved), else the source tree of a build ("" when none is found):
 * pages are checked there.
 * Returns 0, or 2 (the usage exit code; message printed) when the
 * variable is not an absolute URI. core/cli/cli_docs.c.
 */
int fl_cli_docs_base(char *buf, size_t size, char *local, size_t lsize);

/**
 * fl_cli_help_uri() — the documentation URI of rule @id into @buf:
 * <base>rules/<plugin>.md#<id> (policy rules: <base>ci.md#<id>), when the
 * local docs folder @local has that page and the page has the anchor
 * `id="<id>"`; returns 1 then, else 0 (a rule of a third-party plugin, or
 * no docs folder). core/cli/cli_docs.c.
 */
int fl_cli_help_uri(const char *base, const char *local, const char *id,
                    char *buf, size_t size);

/**
 * fl_cli_help_uris() — set @rules[i].help_uri for every rule that has a
 * page (fl_cli_help_uri() with @base and @local from fl_cli_docs_base());
 * returns the strings to free with fl_cli_help_uris_free() (NULL when no
 * docs folder was found, or on ENOMEM: the report then has no helpUri).
 */
char **fl_cli_help_uris(fl_report_rule *rules, size_t n, const char *base,
                        const char *local);
void fl_cli_help_uris_free(char **uris, size_t n);

#endif
