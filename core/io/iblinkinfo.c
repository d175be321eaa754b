/*
 * core/io/iblinkinfo.c — iblinkinfo output (infiniband-diags): recognised
 * by its link lines (`... ==( 4X 2.5 Gbps Active/ LinkUp)==> ...`) and, for
 * now, refused with a pointer to ibnetdiscover.
 */
#include <string.h>

#include "io/formats.h"

/* Line number (1-based) of the first iblinkinfo link line in [buf, end)
 * ("... ==( 4X 2.5 Gbps Active/ LinkUp)==> ..."), 0 if none. */
static uint32_t iblinkinfo_line(const char *buf, const char *end) {
  uint32_t lineno = 1;
  for (const char *s = buf; s < end; lineno++) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end, *open = NULL;
    for (const char *q = s; le - q >= 3 && !open; q++)
      if (memcmp(q, "==(", 3) == 0)
        open = q;
    for (const char *q = open; q && le - q >= 4; q++)
      if (memcmp(q, ")==>", 4) == 0)
        return lineno;
    s = nl ? nl + 1 : end;
  }
  return 0;
}

/* iblinkinfo output, recognised and refused: fabriclint reads ibnetdiscover
 * output of the same fabric instead. */
static uint32_t detect_iblinkinfo(const fl_detect_ctx *c, fl_error *err) {
  if (c->xml_root)
    return FL_FMT_AUTO;
  uint32_t lineno = iblinkinfo_line(c->text, c->text + c->len);
  if (lineno == 0)
    return FL_FMT_AUTO;
  fl_error_set(err, FL_EPARSE, c->path, lineno, 0,
               "iblinkinfo output is not a format fabriclint reads; give "
               "ibnetdiscover output of the same fabric (run on the same "
               "node, it lists every cable with its width and speed)");
  return FL_FMT_REFUSED;
}

const fl_format_def fl_fmt_iblinkinfo = {
    FL_FMT_AUTO, "iblinkinfo", NULL, 0, NULL, detect_iblinkinfo, NULL};
