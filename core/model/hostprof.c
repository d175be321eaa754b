/* SPDX-License-Identifier: MIT */
/*
 * core/model/hostprof.c — GPU<->NIC host profiles: NCCL's pairing rule, the
 * `gpu-nics` attribute string, and attaching profiles to the hosts of a
 * fabric at finalize (hostprof.h says what attaches where, and why).
 *
 * The pairing follows NCCL (src/graph/topo.cc, ncclTopoGetLocalNetType()
 * in 2.2x; ncclTopoGetLocalNet() before): a GPU's "local" NICs are those at
 * its best path; it takes local NIC number `dev % localGpuCount` (mirrored
 * bit-wise when the local NIC count is a power of two) modulo the local NIC
 * count, where localGpuCount is the number of GPUs local to the first local
 * NIC. Two GPUs behind one PCIe switch with a single NIC therefore share it
 * (NVIDIA/nccl#820, case c06), and two GPUs and two NICs at equal distance
 * split them one each (an ASUS ESC8000A-E12's dual-port cards at NODE).
 * NCCL ranks paths by bandwidth first; neither input carries per-path
 * bandwidth reliably (nvidia-smi never does), so only the class is used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fabric_impl.h"
#include "model/grow.h"
#include "model/hostprof.h"

typedef struct fl_hp_rec {
  char *path;  /* input path */
  char *host;  /* the file's base name up to its first dot */
  char *value; /* the gpu-nics string */
  char **nic;  /* NIC names (owned) */
  uint32_t n_nics;
} fl_hp_rec;

static const char *const CLASS[] = {"?", "PIX", "PXB", "PHB", "NODE", "SYS"};

const char *fl_pci_class_name(uint32_t cls) {
  return cls >= FL_PCI_PIX && cls <= FL_PCI_SYS ? CLASS[cls] : "?";
}

int fl_hostprof_init(fl_hostprof *p, uint32_t n_gpus, uint32_t n_nics) {
  memset(p, 0, sizeof *p);
  size_t cells = (size_t)n_gpus * n_nics;
  p->gpu = calloc(n_gpus ? n_gpus : 1, sizeof *p->gpu);
  p->nic = calloc(n_nics ? n_nics : 1, sizeof *p->nic);
  p->dist = calloc(cells ? cells : 1, 1);
  p->sw = calloc(cells ? cells : 1, sizeof *p->sw);
  p->n_gpus = n_gpus;
  p->n_nics = n_nics;
  if (!p->gpu || !p->nic || !p->dist || !p->sw) {
    fl_hostprof_free(p);
    return FL_ENOMEM;
  }
  return FL_OK;
}

void fl_hostprof_free(fl_hostprof *p) {
  if (p->nic)
    for (uint32_t k = 0; k < p->n_nics; k++)
      free(p->nic[k]);
  if (p->sw)
    for (size_t i = 0; i < (size_t)p->n_gpus * p->n_nics; i++)
      free(p->sw[i]);
  free(p->gpu);
  free(p->nic);
  free(p->dist);
  free(p->sw);
  memset(p, 0, sizeof *p);
}

/* NCCL's mirrorBits(): @val's bits reversed within log2(@pow2) bits. */
static uint32_t mirror_bits(uint32_t val, uint32_t pow2) {
  uint32_t m = 0;
  for (uint32_t b = 1, mb = pow2 >> 1; b < pow2; b <<= 1, mb >>= 1)
    if (val & b)
      m |= mb;
  return m;
}

/* Smallest class from GPU @g to any NIC (@by_gpu) or from NIC @g to any
 * GPU. */
static uint8_t best(const fl_hostprof *p, uint32_t x, int by_gpu) {
  uint8_t b = 255;
  uint32_t n = by_gpu ? p->n_nics : p->n_gpus;
  for (uint32_t y = 0; y < n; y++) {
    uint8_t d = by_gpu ? p->dist[(size_t)x * p->n_nics + y]
                       : p->dist[(size_t)y * p->n_nics + x];
    if (d < b)
      b = d;
  }
  return b;
}

void fl_hostprof_pair(const fl_hostprof *p, uint32_t *nic_of) {
  for (uint32_t g = 0; g < p->n_gpus; g++) {
    uint8_t bg = best(p, g, 1);
    uint32_t n_local = 0, first = 0;
    for (uint32_t k = 0; k < p->n_nics; k++)
      if (p->dist[(size_t)g * p->n_nics + k] == bg && n_local++ == 0)
        first = k;
    if (n_local == 0) {
      nic_of[g] = 0;
      continue;
    }
    uint8_t bn = best(p, first, 0);
    uint32_t n_gpus_local = 0;
    for (uint32_t h = 0; h < p->n_gpus; h++)
      n_gpus_local += p->dist[(size_t)h * p->n_nics + first] == bn;
    uint32_t net = p->gpu[g] % (n_gpus_local ? n_gpus_local : 1);
    if ((n_local & (n_local - 1)) == 0)
      net = mirror_bits(net, n_local);
    uint32_t want = net % n_local, seen = 0;
    for (uint32_t k = 0; k < p->n_nics; k++)
      if (p->dist[(size_t)g * p->n_nics + k] == bg && seen++ == want)
        nic_of[g] = k;
  }
}

/* Append to the growing string *@s (*@n bytes, capacity *@cap). */
static int sappend(char **s, size_t *n, size_t *cap, const char *t) {
  size_t m = strlen(t);
  if (*n + m + 1 > *cap) {
    size_t c = (*cap ? *cap : 128);
    while (c < *n + m + 1)
      c *= 2;
    char *q = realloc(*s, c);
    if (!q)
      return -1;
    *s = q;
    *cap = c;
  }
  memcpy(*s + *n, t, m + 1);
  *n += m;
  return 0;
}

char *fl_hostprof_string(const fl_hostprof *p) {
  uint32_t *nic_of = calloc(p->n_gpus ? p->n_gpus : 1, sizeof *nic_of);
  uint8_t *used = calloc(p->n_nics ? p->n_nics : 1, 1);
  char *s = NULL, ent[512];
  size_t n = 0, cap = 0;
  int bad = !nic_of || !used;
  if (!bad)
    fl_hostprof_pair(p, nic_of);
  for (uint32_t g = 0; !bad && g < p->n_gpus && p->n_nics; g++) {
    size_t c = (size_t)g * p->n_nics + nic_of[g];
    used[nic_of[g]] = 1;
    snprintf(ent, sizeof ent, "%s%u,%s,%s,%s", n ? ";" : "", p->gpu[g],
             p->nic[nic_of[g]], fl_pci_class_name(p->dist[c]),
             p->sw[c] ? p->sw[c] : "-");
    bad = sappend(&s, &n, &cap, ent) != 0;
  }
  for (uint32_t k = 0; !bad && k < p->n_nics; k++) {
    if (used[k])
      continue;
    snprintf(ent, sizeof ent, "%s-,%s,%s,-", n ? ";" : "", p->nic[k],
             fl_pci_class_name(best(p, k, 0)));
    bad = sappend(&s, &n, &cap, ent) != 0;
  }
  if (!bad && !s)
    bad = sappend(&s, &n, &cap, "") != 0;
  free(nic_of);
  free(used);
  if (bad) {
    free(s);
    return NULL;
  }
  return s;
}

static void rec_free(fl_hp_rec *r) {
  free(r->path);
  free(r->host);
  free(r->value);
  for (uint32_t k = 0; k < r->n_nics; k++)
    free(r->nic[k]);
  free(r->nic);
}

/* The file's base name up to its first dot ("" for standard input). */
static char *base_host(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  if (strcmp(path, "-") == 0)
    b = "";
  size_t n = strcspn(b, ".");
  char *h = malloc(n + 1);
  if (h) {
    memcpy(h, b, n);
    h[n] = '\0';
  }
  return h;
}

int fl_b_hostprof_add(fl_fabric *fab, const char *path, fl_hostprof *p,
                      fl_error *err) {
  if (fab->finalized)
    return fl_error_set(err, FL_EINVAL, path, 0, 0, "fabric is finalized");
  if (fl_grow((void **)&fab->hostprofs, &fab->cap_hostprofs,
              fab->n_hostprofs + 1, sizeof *fab->hostprofs) != 0)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  fl_hp_rec *r = &fab->hostprofs[fab->n_hostprofs];
  memset(r, 0, sizeof *r);
  r->path = strdup(path);
  r->host = base_host(path);
  r->value = fl_hostprof_string(p);
  if (!r->path || !r->host || !r->value) {
    rec_free(r);
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  r->nic = p->nic; /* the fabric takes the names */
  r->n_nics = p->n_nics;
  p->nic = NULL; /* n_nics stays: fl_hostprof_free() frees the switch ids */
  fl_hostprof_free(p);
  fab->n_hostprofs++;
  return FL_OK;
}

void fl_hostprof_free_all(fl_fabric *fab) {
  for (size_t i = 0; i < fab->n_hostprofs; i++)
    rec_free(&fab->hostprofs[i]);
  free(fab->hostprofs);
  fab->hostprofs = NULL;
  fab->n_hostprofs = fab->cap_hostprofs = 0;
}

static int lists_nic(const fl_hp_rec *r, const char *dev) {
  for (uint32_t k = 0; k < r->n_nics; k++)
    if (strcmp(r->nic[k], dev) == 0)
      return 1;
  return 0;
}

/* The profile for host atom @sys: a profile named after it, else the one
 * fleet profile listing one of its devices. -1 none, -2 error (@err). The
 * host's CAs are the nodes with system @sys. */
static long pick(const fl_fabric *fab, uint32_t sys, const uint8_t *named,
                 fl_error *err) {
  const char *host = fl_b_atom_str(fab, sys);
  long found = -1;
  for (size_t i = 0; i < fab->n_hostprofs; i++)
    if (strcmp(fab->hostprofs[i].host, host) == 0) {
      if (found >= 0)
        return fl_error_set(err, FL_EPARSE, fab->hostprofs[i].path, 0, 0,
                            "host %s has two host profiles, %s and this "
                            "one; give one per host",
                            host, fab->hostprofs[found].path),
               -2;
      found = (long)i;
    }
  if (found >= 0)
    return found;
  for (size_t n = 0; n < fab->n_nodes; n++) {
    const fl_node_rec *r = &fab->nodes[n];
    if (r->kind != FL_NODE_CA || r->system != sys || !r->device)
      continue;
    const char *dev = fl_b_atom_str(fab, r->device);
    for (size_t i = 0; i < fab->n_hostprofs; i++) {
      if (named[i] || !lists_nic(&fab->hostprofs[i], dev) || found == (long)i)
        continue;
      if (found >= 0)
        return fl_error_set(
                   err, FL_EPARSE, fab->hostprofs[i].path, 0, 0,
                   "host %s matches two host profiles, %s and this one (both "
                   "list its NICs); name each file after its host "
                   "(%s.xml, %s.nvidia-smi.txt)",
                   host, fab->hostprofs[found].path, host, host),
               -2;
      found = (long)i;
    }
  }
  return found;
}

/* Attach profile @i to every CA of host atom @sys. */
static int attach_host(fl_fabric *fab, uint32_t sys, size_t i) {
  const fl_hp_rec *h = &fab->hostprofs[i];
  for (size_t n = 0; n < fab->n_nodes; n++) {
    const fl_node_rec *r = &fab->nodes[n];
    if (r->kind != FL_NODE_CA || r->system != sys)
      continue;
    if (fl_b_attr_sealed(fab, FL_ENT_NODE, (fl_id)n, "gpu-nics", h->value) ||
        fl_b_attr_sealed(fab, FL_ENT_NODE, (fl_id)n, "host-profile", h->path))
      return FL_ENOMEM;
  }
  return FL_OK;
}

int fl_hostprof_attach(fl_fabric *fab, fl_error *err) {
  if (!fab->n_hostprofs)
    return FL_OK;
  size_t np = fab->n_hostprofs;
  uint8_t *named = calloc(np, 1), *used = calloc(np, 1);
  uint8_t *done = calloc(fl_strmap_len(&fab->atoms) + 1, 1);
  int rc = named && used && done ? FL_OK : FL_ENOMEM;
  for (size_t n = 0; rc == FL_OK && n < fab->n_nodes; n++) {
    const fl_node_rec *r = &fab->nodes[n];
    if (r->kind == FL_NODE_CA && r->system)
      for (size_t i = 0; i < np; i++)
        if (strcmp(fab->hostprofs[i].host, fl_b_atom_str(fab, r->system)) == 0)
          named[i] = 1;
  }
  for (size_t n = 0; rc == FL_OK && n < fab->n_nodes; n++) {
    const fl_node_rec *r = &fab->nodes[n];
    if (r->kind != FL_NODE_CA || !r->system || done[r->system])
      continue;
    done[r->system] = 1;
    long i = pick(fab, r->system, named, err);
    if (i == -2)
      rc = FL_EPARSE;
    else if (i >= 0) {
      used[i] = 1;
      rc = attach_host(fab, r->system, (size_t)i);
    }
  }
  for (size_t i = 0; rc == FL_OK && i < np; i++)
    if (!used[i])
      rc = fl_error_set(
          err, FL_EPARSE, fab->hostprofs[i].path, 0, 0,
          "host profile matches no host of the fabric: no CA is named "
          "\"%s%s%s\" (the profile's first NIC)%s; give the fabric "
          "(ibnetdiscover dump, plan) as another input, or name the file "
          "after its host",
          named[i] ? fab->hostprofs[i].host : "<host> ", named[i] ? " " : "",
          fab->hostprofs[i].n_nics ? fab->hostprofs[i].nic[0] : "?",
          named[i] ? "" : " on any host");
  if (rc == FL_ENOMEM)
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  if (rc == FL_OK)
    fl_b_attrs_reindex(fab);
  free(named);
  free(used);
  free(done);
  return rc;
}
