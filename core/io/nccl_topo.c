/* SPDX-License-Identifier: MIT */
/*
 * core/io/nccl_topo.c — NCCL topology XML (`<system>`, written by NCCL when
 * NCCL_TOPO_DUMP_FILE is set; RCCL writes the same shape) as a host
 * profile (model/hostprof.h; docs/formats/nccl-topo.md).
 *
 * The dump is the host's PCIe tree as NCCL sees it: `<cpu numaid=..>` (a
 * NUMA node) holds `<pci busid=.. class=..>` elements, nested as bridges
 * and PCIe switches nest (NCCL flattens a Broadcom/PLX switch to one
 * `<pci>`), whose leaves hold `<gpu dev=N ..>` (CUDA device N) or
 * `<nic><net name="mlx5_0" dev= speed= port= guid= ../></nic>` (a `<nic>`
 * may also sit directly in `<cpu>`: a NIC NCCL found no PCI path for).
 * The distance class of a GPU and a NIC is NCCL's path type
 * (src/graph/paths.cc): across NUMA nodes SYS; in one NUMA node without a
 * common bridge PHB; through one common bridge PIX, through more PXB. The
 * deepest common bridge is the PCIe switch the pair shares.
 *
 * A topology *input* for NCCL_TOPO_FILE (the files cloud providers ship,
 * e.g. NCCL's own src/test/ndv5) has the same `<pci>` tree without `<gpu>`
 * and `<nic>` children: it names no GPU index and no NIC, so it is refused
 * with a message saying so rather than guessed from bus order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlreader.h>

#include "io/formats.h"
#include "io/loaders.h"
#include "model/hostprof.h"

#define MAX_DEPTH 64
#define MAX_DEV   1024

/* One GPU or NIC port: its PCIe ancestors (bus ids, outermost first,
 * excluding the device itself) and NUMA node. */
typedef struct dev {
  char *name; /* NIC name, or NULL for a GPU */
  uint32_t gpu;
  int cpu;
  uint32_t line;
  uint32_t depth;
  char *anc[MAX_DEPTH];
} dev;

typedef struct xtopo {
  fl_xr x;
  int cpu; /* index of the current <cpu>, -1 outside */
  uint32_t n_cpu;
  char *pci[MAX_DEPTH];     /* bus ids of the open <pci> elements */
  int pci_depth[MAX_DEPTH]; /* their XML depths */
  uint32_t n_pci;
  int gpu_class_pci; /* <pci> of class 0x0302.. seen (a GPU) */
  dev d[MAX_DEV];
  uint32_t n_dev;
} xtopo;

static void pop_to(xtopo *t, int depth) {
  while (t->n_pci && t->pci_depth[t->n_pci - 1] >= depth)
    free(t->pci[--t->n_pci]);
}

/* A GPU (@name NULL) or NIC at the current position. The device's own
 * <pci> (the innermost open one, for a GPU; for a NIC the one holding its
 * <nic>) is not an ancestor. */
static int add_dev(xtopo *t, char *name, uint32_t gpu) {
  if (t->n_dev >= MAX_DEV) {
    free(name);
    return fl_xr_fail(&t->x, "more than %d GPUs and NICs", MAX_DEV);
  }
  dev *d = &t->d[t->n_dev];
  memset(d, 0, sizeof *d);
  d->name = name;
  d->gpu = gpu;
  d->cpu = t->cpu;
  d->line = fl_xr_line(&t->x);
  uint32_t own = t->n_pci ? 1 : 0;
  for (uint32_t i = 0; i + own < t->n_pci; i++) {
    d->anc[i] = strdup(t->pci[i]);
    if (!d->anc[i]) {
      t->n_dev++; /* freed with the others */
      return fl_error_set(t->x.err, FL_ENOMEM, t->x.path, 0, 0,
                          "out of memory");
    }
    d->depth = i + 1;
  }
  t->n_dev++;
  return FL_OK;
}

/* Parse decimal @s into *@v; 0 ok. */
static int dec(const char *s, uint32_t *v) {
  char *e;
  if (!s || !*s || *s < '0' || *s > '9')
    return -1;
  unsigned long x = strtoul(s, &e, 10);
  if (*e || x > 1000000)
    return -1;
  *v = (uint32_t)x;
  return 0;
}

static int on_gpu(xtopo *t) {
  char *s = fl_xr_attr(&t->x, "dev");
  uint32_t g;
  int bad = dec(s, &g);
  if (bad) {
    int rc = fl_xr_fail(&t->x,
                        "<gpu dev=\"%s\">: expected the CUDA device "
                        "number (0, 1, ...)",
                        s ? s : "");
    free(s);
    return rc;
  }
  free(s);
  if (t->n_pci == 0)
    return fl_xr_fail(&t->x, "<gpu dev=\"%u\"> outside a <pci> element", g);
  for (uint32_t i = 0; i < t->n_dev; i++)
    if (!t->d[i].name && t->d[i].gpu == g)
      return fl_xr_fail(&t->x, "GPU %u appears twice (first on line %u)", g,
                        t->d[i].line);
  return add_dev(t, NULL, g);
}

static int on_net(xtopo *t, int in_nic) {
  if (!in_nic)
    return fl_xr_fail(&t->x, "<net> outside a <nic> element");
  char *name = fl_xr_attr(&t->x, "name");
  if (!name || !*name) {
    free(name);
    return fl_xr_fail(&t->x, "<net> without a name (expected name=\"mlx5_0\")");
  }
  for (uint32_t i = 0; i < t->n_dev; i++)
    if (t->d[i].name && strcmp(t->d[i].name, name) == 0) {
      /* another port of a multi-port device: one NIC, one PCIe place */
      int same = t->d[i].depth + (t->n_pci ? 1 : 0) == t->n_pci;
      free(name);
      return same ? FL_OK
                  : fl_xr_fail(&t->x,
                               "NIC %s appears twice, at two PCIe "
                               "places (first on line %u)",
                               t->d[i].name, t->d[i].line);
    }
  return add_dev(t, name, 0); /* in <cpu> directly: no <pci> of its own */
}

static int on_pci(xtopo *t, int depth) {
  if (t->n_pci >= MAX_DEPTH)
    return fl_xr_fail(&t->x, "<pci> nested more than %d deep", MAX_DEPTH);
  char *bus = fl_xr_attr(&t->x, "busid");
  char *cls = fl_xr_attr(&t->x, "class");
  if (cls && strncmp(cls, "0x0302", 6) == 0)
    t->gpu_class_pci = 1;
  free(cls);
  if (!bus || !*bus) {
    free(bus);
    return fl_xr_fail(&t->x, "<pci> without a busid");
  }
  if (fl_xr_empty(&t->x)) {
    free(bus);
    return FL_OK;
  }
  t->pci[t->n_pci] = bus;
  t->pci_depth[t->n_pci++] = depth;
  return FL_OK;
}

static int element(xtopo *t, int *in_nic, int *nic_depth) {
  const char *nm = fl_xr_name(&t->x);
  int depth = fl_xr_depth(&t->x);
  pop_to(t, depth);
  if (*in_nic && depth <= *nic_depth)
    *in_nic = 0;
  if (depth == 0)
    return strcmp(nm, "system") == 0
               ? FL_OK
               : fl_xr_fail(&t->x, "root element <%s>: expected <system>", nm);
  if (strcmp(nm, "cpu") == 0) {
    t->cpu = (int)t->n_cpu++;
    return FL_OK;
  }
  if (t->cpu < 0 && (strcmp(nm, "pci") == 0 || strcmp(nm, "nic") == 0))
    return fl_xr_fail(&t->x, "<%s> outside a <cpu> element", nm);
  if (strcmp(nm, "pci") == 0)
    return on_pci(t, depth);
  if (strcmp(nm, "gpu") == 0)
    return on_gpu(t);
  if (strcmp(nm, "nic") == 0) {
    *in_nic = !fl_xr_empty(&t->x);
    *nic_depth = depth;
    return FL_OK;
  }
  if (strcmp(nm, "net") == 0)
    return on_net(t, *in_nic);
  return FL_OK; /* nvlink, c2c, pcilink, ...: not about GPU<->NIC */
}

/* NCCL's path class between GPU @g and NIC @n; *@sw = shared bridge. */
static uint8_t path_class(const dev *g, const dev *n, const char **sw) {
  *sw = NULL;
  if (g->cpu != n->cpu)
    return FL_PCI_SYS;
  uint32_t c = 0;
  while (c < g->depth && c < n->depth && strcmp(g->anc[c], n->anc[c]) == 0)
    c++;
  if (c == 0)
    return FL_PCI_PHB;
  *sw = g->anc[c - 1];
  return (g->depth - c) + (n->depth - c) + 1 == 1 ? FL_PCI_PIX : FL_PCI_PXB;
}

static int cmp_gpu(const void *a, const void *b) {
  const dev *x = *(const dev *const *)a, *y = *(const dev *const *)b;
  return x->gpu < y->gpu ? -1 : x->gpu > y->gpu;
}

static int build(xtopo *t, fl_fabric *fab) {
  const dev *g[MAX_DEV], *n[MAX_DEV];
  uint32_t ng = 0, nn = 0;
  for (uint32_t i = 0; i < t->n_dev; i++) {
    if (t->d[i].name)
      n[nn++] = &t->d[i];
    else
      g[ng++] = &t->d[i];
  }
  if (ng == 0 || nn == 0)
    return fl_error_set(
        t->x.err, FL_EPARSE, t->x.path, 1, 0,
        ng == 0 && t->gpu_class_pci
            ? "no <gpu> element, though <pci> devices of class 0x0302 (GPUs) "
              "are listed: this is a topology input for NCCL_TOPO_FILE, "
              "which names no GPU index and no NIC; give the dump NCCL "
              "writes with NCCL_TOPO_DUMP_FILE on the host"
        : ng == 0 ? "no <gpu> element: there is no GPU<->NIC affinity to read"
                  : "no <nic><net> element: NCCL found no network device on "
                    "this host (no GPU<->NIC affinity to read)");
  qsort(g, ng, sizeof *g, cmp_gpu);
  fl_hostprof p;
  if (fl_hostprof_init(&p, ng, nn) != FL_OK)
    return fl_error_set(t->x.err, FL_ENOMEM, t->x.path, 0, 0, "out of memory");
  int rc = FL_OK;
  for (uint32_t k = 0; k < nn && rc == FL_OK; k++)
    if (!(p.nic[k] = strdup(n[k]->name)))
      rc = FL_ENOMEM;
  for (uint32_t i = 0; i < ng && rc == FL_OK; i++) {
    p.gpu[i] = g[i]->gpu;
    for (uint32_t k = 0; k < nn && rc == FL_OK; k++) {
      const char *sw;
      size_t c = (size_t)i * nn + k;
      p.dist[c] = path_class(g[i], n[k], &sw);
      if (sw && !(p.sw[c] = strdup(sw)))
        rc = FL_ENOMEM;
    }
  }
  if (rc == FL_OK)
    rc = fl_b_hostprof_add(fab, t->x.path, &p, t->x.err);
  else
    fl_error_set(t->x.err, FL_ENOMEM, t->x.path, 0, 0, "out of memory");
  fl_hostprof_free(&p);
  return rc;
}

int fl_load_nccl_topo(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  (void)opts;
  xtopo *t = calloc(1, sizeof *t);
  if (!t)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  t->cpu = -1;
  int rc = fl_xr_open(&t->x, in, err), r = 0;
  int in_nic = 0, nic_depth = 0;
  while (rc == FL_OK && (r = fl_xr_next(&t->x)) == 1)
    if (fl_xr_type(&t->x) == XML_READER_TYPE_ELEMENT)
      rc = element(t, &in_nic, &nic_depth);
  if (rc == FL_OK && r < 0)
    rc = r;
  if (rc == FL_OK)
    rc = build(t, fab);
  fl_xr_close(&t->x);
  pop_to(t, -1);
  for (uint32_t i = 0; i < t->n_dev; i++) {
    free(t->d[i].name);
    for (uint32_t k = 0; k < t->d[i].depth; k++)
      free(t->d[i].anc[k]);
  }
  free(t);
  return rc;
}

static uint32_t detect_nccl_topo(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (!c->xml_root || strcmp(c->xml_root, "system") != 0 ||
      !strstr(c->text, "<cpu"))
    return FL_FMT_AUTO;
  return FL_FMT_NCCL_TOPO;
}

const fl_format_def fl_fmt_nccl_topo = {
    FL_FMT_NCCL_TOPO,
    "nccl-topo",
    NULL,
    FL_FORMAT_XML,
    fl_load_nccl_topo,
    detect_nccl_topo,
    "NCCL topology XML (<system>, NCCL_TOPO_DUMP_FILE)"};
