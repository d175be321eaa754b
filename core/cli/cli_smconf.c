/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_smconf.c — fl_cli_sm_config(): opensm.conf as parameters.
 *
 * Why parameters: the rules already take the routing engine, the LMC and
 * the AR SL mask as typed parameters (deadlock.*.routing-engine,
 * topology.lid-space.lmc, adaptive-routing.*.sl-mask); the SM's file is
 * one more source of their values, below --param and --policy, so one
 * mechanism checks them and `rules`/`explain` document them.
 *
 * The file: OpenSM's osm_subn_write_conf() writes `KEY VALUE` lines under
 * `#` comment blocks (opensm/osm_subnet.c; `opensm --create-config FILE`
 * writes the defaults, which tests/cli/sm_config.sh uses). Unknown keys
 * are ignored (the file has about 150); a key is read from its last line,
 * as OpenSM reads it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_progress.h"
#include "cli/cli_smconf.h"
#include "io/fileio.h"

/* OpenSM's routing engines (opensm/osm_opensm.c routing_modules) that the
 * credit-loop model does not reproduce, and why. */
static const struct {
  const char *name, *why;
} UNMODELLED[] = {
    {"lash", "VL-based (layered shortest path)"},
    {"dfsssp", "VL-based (deadlock-free SSSP)"},
    {"nue", "VL-based (Nue)"},
    {"torus-2QoS", "VL-based (torus-2QoS)"},
    {"dor", "dimension-order"},
    {"sssp", "SSSP without VLs"},
    {"dnup", "down*-up*"},
    {"file", "LFTs from a file (load that dump instead)"},
};

typedef struct sm_val {
  char value[256];
  unsigned line, col; /* 0: not in the file */
} sm_val;

typedef struct sm_conf {
  sm_val engine, lmc, ar_sl_mask;
} sm_conf;

/* The line @s..@e (no newline) into @c when its key is one we read. */
static void take(sm_conf *c, const char *s, const char *e, unsigned line) {
  const char *k = s;
  while (k < e && (*k == ' ' || *k == '\t'))
    k++;
  if (k == e || *k == '#')
    return;
  const char *ke = k;
  while (ke < e && !isspace((unsigned char)*ke))
    ke++;
  const char *v = ke;
  while (v < e && (*v == ' ' || *v == '\t'))
    v++;
  const char *ve = e;
  while (ve > v && isspace((unsigned char)ve[-1]))
    ve--;
  static const struct {
    const char *key;
    size_t off;
  } KEYS[] = {{"routing_engine", offsetof(sm_conf, engine)},
              {"lmc", offsetof(sm_conf, lmc)},
              {"ar_sl_mask", offsetof(sm_conf, ar_sl_mask)}};
  for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++) {
    if ((size_t)(ke - k) != strlen(KEYS[i].key) ||
        strncmp(k, KEYS[i].key, (size_t)(ke - k)) != 0)
      continue;
    sm_val *sv = (sm_val *)((char *)c + KEYS[i].off);
    snprintf(sv->value, sizeof sv->value, "%.*s", (int)(ve - v), v);
    sv->line = line;
    sv->col = (unsigned)(v - s) + 1;
  }
}

static int bad(const fl_cli_opts *o, const sm_val *v, const char *what) {
  fprintf(stderr, "fabriclint: %s:%u:%u: %s, got '%s'\n", o->sm_config, v->line,
          v->col, what, v->value);
  return FL_EXIT_USAGE;
}

/* Append "SPEC" (a --param) to the SM's list. */
static int add(fl_cli_opts *o, const char *spec) {
  char **n = realloc(o->sm_params, (o->n_sm_params + 1) * sizeof *n);
  if (!n)
    return -1;
  o->sm_params = n;
  if (!(n[o->n_sm_params] = strdup(spec)))
    return -1;
  o->n_sm_params++;
  return 0;
}

/* Take --param @spec from key @key (value @v): said with -v (@tail after
 * it), then appended to the SM's list. 0, or FL_EXIT_USAGE out of memory. */
static int use_param(fl_cli_opts *o, const sm_val *v, const char *key,
                     const char *spec, const char *tail) {
  if (o->verbose)
    fl_cli_progress_printf(o->progress,
                           "fabriclint: %s:%u: %s %s: %s (unless --param or "
                           "--policy sets it)%s",
                           o->sm_config, v->line, key, v->value, spec, tail);
  return add(o, spec) ? FL_EXIT_USAGE : 0;
}

/* routing_engine: the first engine of the chain. */
static int engine(fl_cli_opts *o, const sm_val *v) {
  char first[64];
  size_t n = strcspn(v->value, ",");
  if (!v->line)
    return 0;
  if (!*v->value)
    return bad(o, v, "routing_engine: expected an engine name or (null)");
  snprintf(first, sizeof first, "%.*s", (int)n, v->value);
  const char *model = strcmp(first, "(null)") == 0 ? "minhop" : first;
  if (strcmp(model, "minhop") == 0 || strcmp(model, "updn") == 0 ||
      strcmp(model, "ftree") == 0) {
    char spec[96];
    snprintf(spec, sizeof spec, "deadlock.routing-engine=%s", model);
    return use_param(o, v, "routing_engine", spec,
                     v->value[n] ? " (OpenSM falls back to the next engine of "
                                   "the chain when it fails; the model takes "
                                   "the first)"
                                 : "");
  }
  for (size_t i = 0; i < sizeof UNMODELLED / sizeof *UNMODELLED; i++)
    if (strcmp(first, UNMODELLED[i].name) == 0) {
      fprintf(stderr,
              "fabriclint: note: %s:%u: routing_engine %s is not modelled "
              "(%s): design-mode credit loops are judged with the "
              "routing-engine parameter's own choice\n",
              o->sm_config, v->line, first, UNMODELLED[i].why);
      return 0;
    }
  return bad(o, v,
             "routing_engine: expected an OpenSM engine (minhop, updn, "
             "dnup, file, ftree, lash, dor, torus-2QoS, nue, dfsssp, sssp) "
             "or (null)");
}

static int lmc(fl_cli_opts *o, const sm_val *v) {
  if (!v->line)
    return 0;
  char *end = NULL;
  long n = v->value[0] >= '0' && v->value[0] <= '9' ? strtol(v->value, &end, 10)
                                                    : -1;
  if (n < 0 || n > 7 || !end || *end)
    return bad(o, v, "lmc: expected 0 to 7");
  char spec[64];
  snprintf(spec, sizeof spec, "topology.lid-space.lmc=%ld", n);
  return use_param(o, v, "lmc", spec, "");
}

static int ar_mask(fl_cli_opts *o, const sm_val *v) {
  if (!v->line)
    return 0;
  char *end = NULL;
  /* 0x... hexadecimal, else decimal, as OpenSM's strtoul(.., 0) reads it */
  unsigned long m =
      v->value[0] >= '0' && v->value[0] <= '9' ? strtoul(v->value, &end, 0) : 0;
  if (!v->value[0] || !end || *end || m > 0xffff)
    return bad(o, v,
               "ar_sl_mask: expected a 16-bit mask (0 to 0xffff, or 65535)");
  char spec[64];
  snprintf(spec, sizeof spec, "adaptive-routing.sl-mask=0x%04lx", m);
  return use_param(o, v, "ar_sl_mask", spec, "");
}

/* The SM's parameters first, then the user's (later values win). */
static int prepend(fl_cli_opts *o) {
  size_t n = o->n_sm_params + o->n_params;
  const char **p = malloc((n ? n : 1) * sizeof *p);
  if (!p)
    return -1;
  for (size_t i = 0; i < o->n_sm_params; i++)
    p[i] = o->sm_params[i];
  for (size_t i = 0; i < o->n_params; i++)
    p[o->n_sm_params + i] = o->params[i];
  free((void *)o->params);
  o->params = p;
  o->n_params = n;
  return 0;
}

int fl_cli_sm_config(fl_cli_opts *o) {
  fl_error err;
  fl_error_clear(&err);
  char *text = NULL;
  size_t len = 0;
  if (fl_read_file(o->sm_config, "subnet manager configuration", &text, &len,
                   &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  sm_conf c;
  memset(&c, 0, sizeof c);
  unsigned line = 1;
  for (const char *s = text, *end = text + len; s < end; line++) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *e = nl ? nl : end;
    take(&c, s, e, line);
    s = nl ? nl + 1 : end;
  }
  free(text);
  int rc = engine(o, &c.engine);
  if (rc == 0)
    rc = lmc(o, &c.lmc);
  if (rc == 0)
    rc = ar_mask(o, &c.ar_sl_mask);
  if (rc == 0 && o->n_sm_params && prepend(o) != 0) {
    fprintf(stderr, "fabriclint: out of memory\n");
    rc = FL_EXIT_USAGE;
  }
  return rc;
}
