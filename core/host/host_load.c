/* SPDX-License-Identifier: MIT */
/*
 * core/host/host_load.c — loading plugins: the trust check on the plugin
 * file and its folders (sshd's StrictModes), dlopen() and the entry point,
 * the descriptor and its rules copied into host-size structs (see host.c's
 * opening comment for the pattern), whole plugin folders, and the built-in
 * plugin folder.
 */
#define _GNU_SOURCE /* RTLD_*, realpath */
#include "host/host.h"
#include "host/host_impl.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/param_check.h"
#include "io/data_path.h"

/* The built-in plugin folder relative to an installed executable and to
 * libfabriclint.so; CMake defines both from the install directories. */
#ifndef FL_REL_BIN_PLUGINS
#define FL_REL_BIN_PLUGINS "../lib/fabriclint/plugins"
#endif
#ifndef FL_REL_LIB_PLUGINS
#define FL_REL_LIB_PLUGINS "fabriclint/plugins"
#endif
#ifndef FL_PLUGIN_INSTALL_DIR
#define FL_PLUGIN_INSTALL_DIR ""
#endif

/* ---- loading
 * ---------------------------------------------------------------------- */

/* Plugin trust, the rule of sshd's StrictModes (secure_filename()): a
 * plugin runs with the user's rights, so nobody else may be able to change
 * or replace it. For the real path (symlinks resolved) of the plugin file or
 * folder, every component up to "/" must be owned by root or the effective
 * user and be writable neither by its group nor by others, except that an
 * ancestor folder (not the plugin's own folder) may be writable when it has
 * the sticky bit: others cannot then rename or remove what they do not own
 * in it (/tmp, /var/tmp). The plugin's own folder gets no such exception:
 * anyone could add a .so to a sticky folder. */
static int check_component(const char *path, const char *what, int sticky_ok,
                           fl_error *err) {
  struct stat st;
  if (stat(path, &st) != 0)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0, "cannot stat %s: %s", what,
                        strerror(errno));
  if (st.st_uid != 0 && st.st_uid != geteuid())
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "refusing to load plugins: %s is owned by uid %u, "
                        "neither root nor the current user",
                        what, (unsigned)st.st_uid);
  if (sticky_ok && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX))
    return FL_OK;
  if (st.st_mode & (S_IWOTH | S_IWGRP))
    return fl_error_set(
        err, FL_EPLUGIN, path, 0, 0,
        "refusing to load plugins: %s is writable by %s "
        "(mode %03o); run chmod %s on it",
        what, (st.st_mode & S_IWOTH) ? "other users" : "its group",
        (unsigned)(st.st_mode & 0777), (st.st_mode & S_IWOTH) ? "go-w" : "g-w");
  return FL_OK;
}

/* Check @real (an absolute, resolved path) and every folder above it. The
 * first @strict components (the file and its folder: 2; a plugin folder: 1)
 * get no sticky exception. @what names the first component. */
static int check_perms_chain(const char *real, const char *what, int strict,
                             fl_error *err) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s", real);
  for (int level = 0;; level++) {
    const char *w = level == 0       ? what
                    : level < strict ? "the plugin's folder"
                                     : "a folder above the plugins";
    int rc = check_component(p, w, level >= strict, err);
    if (rc != FL_OK || strcmp(p, "/") == 0 || !strchr(p, '/'))
      return rc;
    char *slash = strrchr(p, '/');
    if (slash == p)
      p[1] = '\0';
    else
      *slash = '\0';
  }
}

static int valid_rule_id(const char *id, const char *plugin) {
  size_t n = strlen(plugin);
  if (strncmp(id, plugin, n) != 0 || id[n] != '.' || id[n + 1] == '\0')
    return 0;
  for (const char *s = id; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '.' ||
          *s == '-' || *s == '_'))
      return 0;
  return 1;
}

/* The rule @id among loaded plugins (rules of a plugin being loaded count
 * as far as they are copied). */
const fl_rule_def *find_rule(const fl_host *h, const char *id) {
  for (size_t i = 0; i < h->n_plugins; i++)
    for (uint32_t r = 0; h->plugins[i].rules && r < h->plugins[i].desc.n_rules;
         r++)
      if (h->plugins[i].rules[r] && h->plugins[i].rules[r]->id &&
          strcmp(h->plugins[i].rules[r]->id, id) == 0)
        return h->plugins[i].rules[r];
  return NULL;
}

/* fl_param_def as ABI 1.0 defined it (up to @doc). */
#define PARAM_DEF_V1_0_SIZE                                                    \
  (offsetof(fl_param_def, doc) + sizeof(((fl_param_def *)0)->doc))

/* Copy and validate the rules of @p (descriptor already copied). */
static int copy_rules(fl_host *h, fl_loaded_plugin *p, const fl_plugin_desc *d,
                      fl_error *err) {
  p->rules = calloc(d->n_rules + 1, sizeof *p->rules);
  p->params = calloc(d->n_rules + 1, sizeof *p->params);
  if (!p->rules || !p->params)
    return fl_error_set(err, FL_ENOMEM, p->path, 0, 0, "out of memory");
  for (uint32_t i = 0; i < d->n_rules; i++) {
    const fl_rule_def *src = d->rules[i];
    if (!src || src->struct_size < sizeof(fl_rule_def))
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "plugin '%s': rule %u has no descriptor or an "
                          "fl_rule_def smaller than ABI 1.0's",
                          d->name, i);
    if (src->id && find_rule(h, src->id))
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "rule id '%s' is defined twice", src->id);
    fl_rule_def *r = calloc(1, sizeof *r);
    if (!r)
      return fl_error_set(err, FL_ENOMEM, p->path, 0, 0, "out of memory");
    memcpy(r, src, sizeof *r);
    p->rules[i] = r;
    if (!r->id || !valid_rule_id(r->id, d->name))
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "plugin '%s': rule id '%s' must be '%s.<rule>' in "
                          "lower case letters, digits, '-' and '_'",
                          d->name, r->id ? r->id : "(null)", d->name);
    if (!r->check || !r->summary)
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "plugin '%s': rule '%s' lacks check() or a summary",
                          d->name, r->id);
    if (r->default_severity < FL_SEV_INFO || r->default_severity > FL_SEV_ERROR)
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "rule '%s': default severity %u is not 1..3", r->id,
                          r->default_severity);
    p->params[i] = calloc(r->n_params + 1, sizeof **p->params);
    if (!p->params[i])
      return fl_error_set(err, FL_ENOMEM, p->path, 0, 0, "out of memory");
    for (uint32_t k = 0; k < r->n_params; k++) {
      const fl_param_def *ps = src->params[k];
      if (!ps || ps->struct_size < PARAM_DEF_V1_0_SIZE || !ps->name)
        return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                            "rule '%s': parameter %u is malformed", r->id, k);
      fl_param_def *pd = calloc(1, sizeof(fl_param_def));
      if (!pd)
        return fl_error_set(err, FL_ENOMEM, p->path, 0, 0, "out of memory");
      p->params[i][k] = pd;
      memcpy(pd, ps,
             ps->struct_size < sizeof *pd ? ps->struct_size : sizeof *pd);
      pd->struct_size = sizeof *pd; /* zero-filled beyond the plugin's */
      char why[256];
      if (fl_param_check_def(pd, why, sizeof why) != FL_OK)
        return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                            "rule '%s': parameter '%s': %s", r->id, pd->name,
                            why);
    }
    r->params = (const fl_param_def *const *)p->params[i];
  }
  return FL_OK;
}

static int check_desc(const char *path, const fl_plugin_desc *d,
                      fl_error *err) {
  if (!d)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "%s() returned no descriptor", FL_PLUGIN_ENTRY);
  if (d->abi_major != FL_ABI_MAJOR)
    return fl_error_set(
        err, FL_EPLUGIN, path, 0, 0,
        "plugin was built for fabriclint plugin ABI %u.%u; this "
        "fabriclint implements ABI %u.%u (the major versions "
        "must match): rebuild the plugin against this SDK",
        d->abi_major, d->abi_minor, FL_ABI_MAJOR, FL_ABI_MINOR);
  if (d->abi_minor > FL_ABI_MINOR)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "plugin needs fabriclint plugin ABI %u.%u, newer than "
                        "this fabriclint's ABI %u.%u: upgrade fabriclint",
                        d->abi_major, d->abi_minor, FL_ABI_MAJOR, FL_ABI_MINOR);
  if (d->struct_size < sizeof(fl_plugin_desc))
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "plugin descriptor is %u bytes, smaller than ABI 1.0's "
                        "%zu",
                        d->struct_size, sizeof(fl_plugin_desc));
  if (!d->name || !*d->name || (d->n_rules && !d->rules))
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "plugin descriptor lacks a name or its rules");
  return FL_OK;
}

static fl_loaded_plugin *find_plugin(fl_host *h, const char *name) {
  for (size_t i = 0; i < h->n_plugins; i++)
    if (strcmp(h->plugins[i].desc.name, name) == 0)
      return &h->plugins[i];
  return NULL;
}

static int add_plugin(fl_host *h, const char *path, void *handle,
                      const fl_plugin_desc *d, fl_error *err) {
  if (h->n_plugins == h->cap_plugins) {
    size_t n = h->cap_plugins ? h->cap_plugins * 2 : 8;
    fl_loaded_plugin *v = realloc(h->plugins, n * sizeof *v);
    if (!v)
      return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
    h->plugins = v;
    h->cap_plugins = n;
  }
  fl_loaded_plugin *p = &h->plugins[h->n_plugins++];
  memset(p, 0, sizeof *p);
  p->path = strdup(path);
  p->handle = handle;
  memcpy(&p->desc, d, sizeof p->desc);
  int rc = p->path ? copy_rules(h, p, d, err)
                   : fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  if (rc == FL_OK && p->desc.init && p->desc.init(&h->api, &p->data) != 0)
    rc = fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                      "plugin '%s': init() refused to start", d->name);
  if (rc != FL_OK) {
    free_plugin(p);
    h->n_plugins--;
    return rc;
  }
  p->initialised = 1;
  return FL_OK;
}

int fl_host_load_file(fl_host *h, const char *path, fl_error *err) {
  char real[PATH_MAX];
  if (!realpath(path, real))
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0, "cannot open plugin: %s",
                        strerror(errno));
  int rc = check_perms_chain(real, "the plugin file", 2, err);
  if (rc != FL_OK)
    return rc;
  /* dlopen() of a FIFO blocks until a writer comes: regular files only */
  struct stat st;
  if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "not a regular file; a plugin is a shared object "
                        "file");
  void *handle = dlopen(real, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0, "dlopen failed: %s",
                        dlerror());
  void *sym = dlsym(handle, FL_PLUGIN_ENTRY);
  if (!sym)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "not a fabriclint plugin: no exported symbol %s()",
                        FL_PLUGIN_ENTRY);
  fl_plugin_entry_fn entry;
  memcpy(&entry, &sym, sizeof entry);
  const fl_plugin_desc *d = entry();
  rc = check_desc(path, d, err);
  if (rc != FL_OK)
    return rc;
  if (find_plugin(h, d->name)) {
    if (h->verbose && h->on_event) {
      char msg[1024];
      snprintf(msg, sizeof msg, "%s: plugin '%s' already loaded; skipped", path,
               d->name);
      fl_host_event ev;
      memset(&ev, 0, sizeof ev);
      ev.kind = FL_HOST_EV_NOTE;
      ev.plugin = d->name;
      ev.level = FL_SEV_INFO;
      ev.message = msg;
      h->on_event(h->event_ctx, &ev);
    }
    return FL_OK; /* never dlclose (DESIGN.md §3) */
  }
  return add_plugin(h, path, handle, d, err);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends a copy of @name to *@names (*@n used of *@cap). FL_OK or
 * FL_ENOMEM (nothing added). */
static int push_name(char ***names, size_t *n, size_t *cap, const char *name) {
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    char **v = realloc(*names, nc * sizeof *v);
    if (!v)
      return FL_ENOMEM;
    *names = v;
    *cap = nc;
  }
  char *c = strdup(name);
  if (!c)
    return FL_ENOMEM;
  (*names)[(*n)++] = c;
  return FL_OK;
}

int fl_host_load_dir(fl_host *h, const char *dir, fl_error *err) {
  char real[PATH_MAX];
  if (!realpath(dir, real))
    return fl_error_set(err, FL_EPLUGIN, dir, 0, 0,
                        "cannot open plugin folder: %s", strerror(errno));
  int rc = check_perms_chain(real, "the plugin folder", 1, err);
  if (rc != FL_OK)
    return rc;
  DIR *d = opendir(dir);
  if (!d)
    return fl_error_set(err, FL_EPLUGIN, dir, 0, 0,
                        "cannot open plugin folder: %s", strerror(errno));
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while (rc == FL_OK && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".so") != 0)
      continue;
    if (push_name(&names, &n, &cap, e->d_name) != FL_OK)
      rc = fl_error_set(err, FL_ENOMEM, dir, 0, 0,
                        "out of memory listing the plugin folder");
  }
  closedir(d);
  if (n > 1) /* an empty folder has no list at all: qsort(NULL) is UB */
    qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n && rc == FL_OK; i++) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    rc = fl_host_load_file(h, path, err);
  }
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return rc;
}

const char *fl_host_builtin_dir(char *buf, size_t size) {
  static const fl_data_where where = {
      "plugins", FL_REL_BIN_PLUGINS, FL_REL_LIB_PLUGINS, FL_PLUGIN_INSTALL_DIR};
  return fl_data_dir(&where, buf, size);
}
