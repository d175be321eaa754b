/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_hostprof.c — host profiles (core/model/hostprof.c): the
 * GPU->NIC pairing follows NCCL's ncclTopoGetLocalNet() (local NICs at the
 * best class, dev mod local GPUs, bit-mirrored for a power-of-two count),
 * and the gpu-nics attribute string, on profiles shaped like the real ones
 * (case c06, the ASUS ESC8000A-E12 nvidia-smi capture, NCCL's ncv4 dump)
 * and on the 4-GPU/4-NIC tie where NCCL's mirroring shows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/hostprof.h"

/* A profile of @ng GPUs 0..ng-1 and NICs @names, classes @d (row-major). */
static void make(fl_hostprof *p, uint32_t ng, uint32_t nn,
                 const char *const *names, const uint8_t *d) {
  assert_int_equal(fl_hostprof_init(p, ng, nn), FL_OK);
  for (uint32_t g = 0; g < ng; g++)
    p->gpu[g] = g;
  for (uint32_t k = 0; k < nn; k++)
    p->nic[k] = strdup(names[k]);
  memcpy(p->dist, d, (size_t)ng * nn);
}

static void c06_two_gpus_one_nic(void **state) {
  (void)state;
  static const char *const N[] = {"mlx5_0", "mlx5_1"};
  static const uint8_t D[] = {FL_PCI_PXB, FL_PCI_SYS, FL_PCI_PXB, FL_PCI_SYS};
  fl_hostprof p;
  uint32_t nic[2];
  make(&p, 2, 2, N, D);
  p.sw[0] = strdup("0000:03:00.0");
  p.sw[2] = strdup("0000:03:00.0");
  fl_hostprof_pair(&p, nic);
  assert_int_equal(nic[0], 0);
  assert_int_equal(nic[1], 0);
  char *s = fl_hostprof_string(&p);
  assert_string_equal(s, "0,mlx5_0,PXB,0000:03:00.0;1,mlx5_0,PXB,0000:03:00.0;"
                         "-,mlx5_1,SYS,-");
  free(s);
  fl_hostprof_free(&p);
}

static void asus_ties_split(void **state) {
  (void)state;
  static const char *const N[] = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"};
  const uint8_t n = FL_PCI_NODE, y = FL_PCI_SYS;
  const uint8_t D[] = {n, n, y, y, n, n, y, y, y, y, n, n, y, y, n, n};
  fl_hostprof p;
  uint32_t nic[4];
  make(&p, 4, 4, N, D);
  fl_hostprof_pair(&p, nic);
  for (uint32_t g = 0; g < 4; g++)
    assert_int_equal(nic[g], g);
  fl_hostprof_free(&p);
}

/* Four GPUs and four NICs all at one class: NCCL mirrors the bits of
 * dev % 4, so GPU1 takes NIC2 and GPU2 takes NIC1. */
static void mirror_bits_of_four(void **state) {
  (void)state;
  static const char *const N[] = {"a", "b", "c", "d"};
  uint8_t D[16];
  memset(D, FL_PCI_PXB, sizeof D);
  fl_hostprof p;
  uint32_t nic[4];
  make(&p, 4, 4, N, D);
  fl_hostprof_pair(&p, nic);
  assert_int_equal(nic[0], 0);
  assert_int_equal(nic[1], 2);
  assert_int_equal(nic[2], 1);
  assert_int_equal(nic[3], 3);
  fl_hostprof_free(&p);
}

/* NCCL's ncv4 dump: eth0 on NUMA node 0, one GPU per NUMA node. */
static void ncv4_one_nic(void **state) {
  (void)state;
  static const char *const N[] = {"eth0"};
  static const uint8_t D[] = {FL_PCI_PHB, FL_PCI_SYS, FL_PCI_SYS, FL_PCI_SYS};
  fl_hostprof p;
  make(&p, 4, 1, N, D);
  char *s = fl_hostprof_string(&p);
  assert_string_equal(s, "0,eth0,PHB,-;1,eth0,SYS,-;2,eth0,SYS,-;3,eth0,SYS,-");
  free(s);
  fl_hostprof_free(&p);
}

/* Three GPUs (not a power of two of local NICs): dev mod local GPUs. */
static void three_nics_no_mirror(void **state) {
  (void)state;
  static const char *const N[] = {"x", "y", "z"};
  uint8_t D[9];
  memset(D, FL_PCI_PIX, sizeof D);
  fl_hostprof p;
  uint32_t nic[3];
  make(&p, 3, 3, N, D);
  fl_hostprof_pair(&p, nic);
  assert_int_equal(nic[0], 0);
  assert_int_equal(nic[1], 1);
  assert_int_equal(nic[2], 2);
  assert_string_equal(fl_pci_class_name(FL_PCI_NODE), "NODE");
  assert_string_equal(fl_pci_class_name(9), "?");
  fl_hostprof_free(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(c06_two_gpus_one_nic), cmocka_unit_test(asus_ties_split),
      cmocka_unit_test(mirror_bits_of_four),  cmocka_unit_test(ncv4_one_nic),
      cmocka_unit_test(three_nics_no_mirror),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
