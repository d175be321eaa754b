/* SPDX-License-Identifier: MIT */
/*
 * core/io/formats.c — the table of input formats (formats.def) and lookups
 * by code and by name. The per-format rows live with their loaders.
 */
#include <string.h>

#include "io/formats.h"

#define FL_FORMAT(x) extern const fl_format_def fl_fmt_##x;
#include "io/formats.def"
#undef FL_FORMAT

static const fl_format_def *const FORMATS[] = {
#define FL_FORMAT(x) &fl_fmt_##x,
#include "io/formats.def"
#undef FL_FORMAT
};

size_t fl_format_count(void) {
  return sizeof FORMATS / sizeof *FORMATS;
}

const fl_format_def *fl_format_at(size_t i) {
  return i < fl_format_count() ? FORMATS[i] : NULL;
}

const fl_format_def *fl_format_find(uint32_t code) {
  if (code == FL_FMT_AUTO)
    return NULL;
  for (size_t i = 0; i < fl_format_count(); i++)
    if (FORMATS[i]->code == code && FORMATS[i]->load)
      return FORMATS[i];
  return NULL;
}

int fl_format_is_topology(uint32_t fmt) {
  const fl_format_def *d = fl_format_find(fmt);
  return d && (d->flags & FL_FORMAT_TOPOLOGY);
}

const char *fl_format_name(uint32_t fmt) {
  const fl_format_def *d = fl_format_find(fmt);
  return d ? d->name : "auto";
}

uint32_t fl_format_parse(const char *name) {
  if (strcmp(name, "auto") == 0)
    return FL_FMT_AUTO;
  for (size_t i = 0; i < fl_format_count(); i++) {
    const fl_format_def *d = FORMATS[i];
    if (d->load && (strcmp(d->name, name) == 0 ||
                    (d->alias && strcmp(d->alias, name) == 0)))
      return d->code;
  }
  return (uint32_t)-1;
}

const char *fl_format_name_at(size_t i) {
  for (size_t k = 0; k < fl_format_count(); k++)
    if (FORMATS[k]->load && i-- == 0)
      return FORMATS[k]->name;
  return NULL;
}
