/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_dist_split.c — fabriclint/dist_split.h: items split over
 * the processes of a distributed run, their findings reported in item
 * order on every process, as one process reports them.
 *
 * The processes are threads here, and the allgather a real collective
 * among them (a pthread barrier: each deposits its bytes, all concatenate
 * in rank order, as MPI_Allgatherv does), so fl_split_finish() runs as it
 * does under mpirun. The MPI build is tested end to end by
 * tests/cli/mpi_identical.sh.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabriclint/dist_split.h"
#include "host/split_impl.h"

#define MAXR 4
#define MAXF 256

/* ---- a run of threads: the allgather collective ---- */
typedef struct run {
  pthread_barrier_t bar;
  const void *part[MAXR];
  size_t len[MAXR];
  uint32_t size;
} run;

typedef struct proc {
  run *run;
  fl_dist dist;
  int have_dist;
  /* what api->report saw, flattened to one line each */
  char *got[MAXF];
  uint32_t n_got;
  int fails;
  char last_fail[200];
  /* the work */
  uint32_t n_items, per_item;
  int fail_here;   /* pass failed=1 to finish */
  uint32_t n_mine; /* items this process took */
  int rc;
} proc;

static int gather(void *ctx, const void *in, size_t n, void **out,
                  size_t *out_n) {
  proc *p = ctx;
  run *r = p->run;
  r->part[p->dist.rank] = in;
  r->len[p->dist.rank] = n;
  pthread_barrier_wait(&r->bar);
  size_t total = 0;
  for (uint32_t i = 0; i < r->size; i++)
    total += r->len[i];
  unsigned char *b = total ? malloc(total) : NULL;
  size_t off = 0;
  for (uint32_t i = 0; i < r->size; i++) {
    memcpy(b + off, r->part[i], r->len[i]);
    off += r->len[i];
  }
  pthread_barrier_wait(&r->bar); /* every part read before it is freed */
  *out = b;
  *out_n = total;
  return 0;
}

/* ---- the host table: report and fail record, dist returns the run ---- */
static int fake_report(fl_ctx *ctx, const fl_finding *f) {
  proc *p = (proc *)ctx;
  char line[1024];
  int o = snprintf(line, sizeof line, "sev=%u msg=%s ev=%s key=%s cause=%s/%s",
                   f->severity, f->message ? f->message : "(null)",
                   f->evidence_json ? f->evidence_json : "(null)",
                   f->key ? f->key : "(null)", f->cause ? f->cause : "(null)",
                   f->cause_message ? f->cause_message : "(null)");
  o += snprintf(line + o, sizeof line - (size_t)o, " root=%u/%u/%u/%s",
                f->root_kind, f->root_role, f->root_id,
                f->root_fact ? f->root_fact : "(null)");
  for (uint32_t i = 0; i < f->n_nodes; i++)
    o += snprintf(line + o, sizeof line - (size_t)o, " n%u", f->nodes[i]);
  for (uint32_t i = 0; i < f->n_ports; i++)
    o += snprintf(line + o, sizeof line - (size_t)o, " p%u:%u",
                  f->ports[i].node, f->ports[i].port);
  for (uint32_t i = 0; i < f->n_links; i++)
    o += snprintf(line + o, sizeof line - (size_t)o, " l%u", f->links[i]);
  if (p->n_got < MAXF)
    p->got[p->n_got++] = strdup(line);
  return 0;
}

static void fake_fail(fl_ctx *ctx, const char *msg) {
  proc *p = (proc *)ctx;
  p->fails++;
  snprintf(p->last_fail, sizeof p->last_fail, "%s", msg);
}

static const fl_dist *fake_dist(fl_ctx *ctx) {
  proc *p = (proc *)ctx;
  return p->have_dist ? &p->dist : NULL;
}

static fl_host_api make_api(void) {
  fl_host_api a;
  memset(&a, 0, sizeof a);
  a.struct_size = sizeof a;
  a.abi_major = FL_ABI_MAJOR;
  a.abi_minor = FL_ABI_MINOR;
  a.report = fake_report;
  a.fail = fake_fail;
  a.dist = fake_dist;
  /* the host's recording and replay (ABI 1.6), as fl_host_init() fills */
  a.split_emit = fl_split_record;
  a.split_finish = fl_split_end;
  return a;
}

/* Finding j of item i: every part filled, so a lost or misplaced byte
 * shows. Item 5 has a finding without evidence, key or arrays. */
static void finding_of(uint32_t i, uint32_t j, fl_finding *f, char *msg,
                       char *ev, fl_id *nodes, fl_port_ref *ports,
                       fl_id *links) {
  memset(f, 0, sizeof *f);
  f->struct_size = sizeof *f;
  snprintf(msg, 64, "item %u finding %u", i, j);
  f->message = msg;
  if (i == 5)
    return;
  f->severity = 1 + (i + j) % 3;
  snprintf(ev, 64, "{\"item\":%u,\"j\":%u}", i, j);
  f->evidence_json = ev;
  f->key = j % 2 ? "odd" : "";
  f->cause = i % 3 == 0 ? "c3" : NULL;
  f->cause_message = i % 3 == 0 ? "{count} items of three" : NULL;
  /* roots (one cause across rules) must survive the split too */
  if (i % 4 == 1)
    f->root_kind = FL_ROOT_NODE, f->root_role = FL_ROOT_CONSEQUENCE,
    f->root_id = 40 + i;
  else if (i % 4 == 2)
    f->root_kind = FL_ROOT_FACT, f->root_role = FL_ROOT_PRIMARY,
    f->root_fact = j % 2 ? "fact-odd" : "fact-even";
  for (uint32_t k = 0; k <= j; k++) {
    nodes[k] = 100 * i + k;
    ports[k] = (fl_port_ref){1000 * i + k, j + 1};
    links[k] = 7 * i + k;
  }
  f->nodes = nodes;
  f->n_nodes = j + 1;
  f->ports = ports;
  f->n_ports = (i + j) % 2 ? j + 1 : 0;
  f->links = links;
  f->n_links = i % 2 ? j + 1 : 0;
}

static void *work(void *arg) {
  proc *p = arg;
  fl_host_api api = make_api();
  fl_ctx *ctx = (fl_ctx *)p;
  fl_split sp;
  fl_split_init(&sp, &api, ctx);
  int rc = 0;
  for (uint32_t i = 0; !rc && i < p->n_items; i++) {
    if (!fl_split_mine(&sp, i))
      continue;
    p->n_mine++;
    for (uint32_t j = 0; !rc && j < p->per_item + i % 2; j++) {
      fl_finding f;
      char msg[64], ev[64];
      fl_id nodes[8], links[8];
      fl_port_ref ports[8];
      finding_of(i, j, &f, msg, ev, nodes, ports, links);
      rc = fl_split_emit(&sp, &api, ctx, i, &f);
    }
  }
  if (p->fail_here) {
    fake_fail(ctx, "work failed here");
    rc = 1;
  }
  p->rc = fl_split_finish(&sp, &api, ctx, rc);
  return NULL;
}

/* Run @size processes (0: alone, no dist) over @n_items items. */
static void run_procs(uint32_t size, uint32_t n_items, int fail_rank,
                      proc *ps) {
  run r;
  memset(&r, 0, sizeof r);
  uint32_t np = size ? size : 1;
  r.size = np;
  pthread_barrier_init(&r.bar, NULL, np);
  pthread_t th[MAXR];
  for (uint32_t k = 0; k < np; k++) {
    memset(&ps[k], 0, sizeof ps[k]);
    ps[k].run = &r;
    ps[k].have_dist = size > 0;
    ps[k].dist =
        (fl_dist){sizeof(fl_dist), k, np, 0, &ps[k], NULL, NULL, gather};
    ps[k].n_items = n_items;
    ps[k].per_item = 2;
    ps[k].fail_here = (int)k == fail_rank;
    assert_int_equal(pthread_create(&th[k], NULL, work, &ps[k]), 0);
  }
  for (uint32_t k = 0; k < np; k++)
    pthread_join(th[k], NULL);
  pthread_barrier_destroy(&r.bar);
}

static void free_procs(proc *ps, uint32_t n) {
  for (uint32_t k = 0; k < n; k++)
    for (uint32_t i = 0; i < ps[k].n_got; i++)
      free(ps[k].got[i]);
}

/* Every process of every size reports, line for line, what a process
 * alone reports; and that is item by item, ascending. */
static void test_same_as_alone(void **state) {
  (void)state;
  proc alone[1];
  run_procs(0, 11, -1, alone);
  assert_int_equal(alone[0].rc, 0);
  assert_int_equal(alone[0].fails, 0);
  /* 11 items, 2 findings each plus 1 for odd items (5 of them) */
  assert_int_equal(alone[0].n_got, 27);
  assert_string_equal(alone[0].got[0], "sev=1 msg=item 0 finding 0 "
                                       "ev={\"item\":0,\"j\":0} key= "
                                       "cause=c3/{count} items of three "
                                       "root=0/0/0/(null) n0");
  assert_string_equal(
      alone[0].got[3],
      "sev=3 msg=item 1 finding 1 ev={\"item\":1,\"j\":1} "
      "key=odd cause=(null)/(null) root=2/2/41/(null) n100 n101 "
      "l7 l8");
  assert_string_equal(alone[0].got[26],
                      "sev=3 msg=item 10 finding 1 ev={\"item\":10,\"j\":1} "
                      "key=odd cause=(null)/(null) root=3/1/0/fact-odd n1000 "
                      "n1001 p10000:2 "
                      "p10001:2");
  /* item 5: message only */
  assert_string_equal(alone[0].got[12], "sev=0 msg=item 5 finding 0 ev=(null) "
                                        "key=(null) cause=(null)/(null) "
                                        "root=0/0/0/(null)");
  for (uint32_t size = 1; size <= MAXR; size++) {
    proc ps[MAXR];
    run_procs(size, 11, -1, ps);
    for (uint32_t k = 0; k < size; k++) {
      assert_int_equal(ps[k].rc, 0);
      assert_int_equal(ps[k].fails, 0);
      /* items k, k + size, ...: 11 items over size processes */
      assert_int_equal(ps[k].n_mine, (11 - k + size - 1) / size);
      assert_int_equal(ps[k].n_got, alone[0].n_got);
      for (uint32_t i = 0; i < alone[0].n_got; i++)
        assert_string_equal(ps[k].got[i], alone[0].got[i]);
    }
    free_procs(ps, size);
  }
  free_procs(alone, 1);
}

/* More processes than items: the idle ones still gather and report. */
static void test_idle_ranks(void **state) {
  (void)state;
  proc ps[MAXR];
  run_procs(4, 2, -1, ps);
  for (uint32_t k = 0; k < 4; k++) {
    assert_int_equal(ps[k].rc, 0);
    assert_int_equal(ps[k].n_got, 5);
    assert_string_equal(ps[k].got[4],
                        "sev=1 msg=item 1 finding 2 ev={\"item\":1,\"j\":2} "
                        "key= cause=(null)/(null) root=2/2/41/(null) n100 n101 "
                        "n102 p1000:3 "
                        "p1001:3 p1002:3 l7 l8 l9");
  }
  free_procs(ps, 4);
}

/* One process fails: every process returns 1, none reports a finding;
 * the others say why, the failed one is not failed twice. */
static void test_failure_on_one_rank(void **state) {
  (void)state;
  proc ps[MAXR];
  run_procs(3, 9, 1, ps);
  for (uint32_t k = 0; k < 3; k++) {
    assert_int_equal(ps[k].rc, 1);
    assert_int_equal(ps[k].n_got, 0);
    assert_int_equal(ps[k].fails, 1);
  }
  assert_string_equal(ps[0].last_fail,
                      "the rule failed on another process of the MPI run");
  assert_string_equal(ps[1].last_fail, "work failed here");
  assert_string_equal(ps[2].last_fail,
                      "the rule failed on another process of the MPI run");
  free_procs(ps, 3);
}

/* Malformed bytes: refused, not read past the end. */
static void test_replay_malformed(void **state) {
  (void)state;
  fl_host_api api = make_api();
  proc p;
  memset(&p, 0, sizeof p);
  unsigned char b[64];
  uint32_t magic = FL_SPLIT_MAGIC, failed = 0;
  uint64_t len = 12; /* an item and a severity, then nothing */
  memcpy(b, &magic, 4);
  memcpy(b + 4, &failed, 4);
  memcpy(b + 8, &len, 8);
  memset(b + 16, 0, 12);
  assert_int_equal(fl_split_replay(&api, (fl_ctx *)&p, b, 28, 1), -1);
  len = 40; /* longer than the bytes */
  memcpy(b + 8, &len, 8);
  assert_int_equal(fl_split_replay(&api, (fl_ctx *)&p, b, 28, 1), -1);
  assert_int_equal(fl_split_replay(&api, (fl_ctx *)&p, b, 10, 1), -1);
  magic = 0; /* not a part */
  memcpy(b, &magic, 4);
  assert_int_equal(fl_split_replay(&api, (fl_ctx *)&p, b, 28, 1), -1);
  assert_int_equal(p.n_got, 0);
  /* an empty part of two processes is fine; a missing second part is not */
  magic = FL_SPLIT_MAGIC;
  len = 0;
  memcpy(b, &magic, 4);
  memcpy(b + 8, &len, 8);
  memcpy(b + 16, b, 16);
  assert_int_equal(fl_split_replay(&api, (fl_ctx *)&p, b, 32, 2), 0);
  assert_int_equal(fl_split_replay(&api, (fl_ctx *)&p, b, 16, 2), -1);
}

/* A fix cannot be carried: refused in a run, reported alone. */
static void test_fix_refused_in_run(void **state) {
  (void)state;
  fl_host_api api = make_api();
  proc p;
  memset(&p, 0, sizeof p);
  p.have_dist = 1;
  p.dist = (fl_dist){sizeof(fl_dist), 0, 1, 0, &p, NULL, NULL, gather};
  fl_split sp;
  fl_split_init(&sp, &api, (fl_ctx *)&p);
  assert_ptr_equal(sp.dist, &p.dist);
  fl_fix fix;
  memset(&fix, 0, sizeof fix);
  fl_finding f;
  memset(&f, 0, sizeof f);
  f.struct_size = sizeof f;
  f.message = "m";
  f.fix = &fix;
  assert_int_equal(fl_split_emit(&sp, &api, (fl_ctx *)&p, 0, &f), 1);
  assert_string_equal(p.last_fail,
                      "a finding with a fix cannot be split over MPI ranks");
  free(sp.buf);
  /* a dist without allgather, or an out-of-range rank: alone */
  p.dist.allgather = NULL;
  fl_split_init(&sp, &api, (fl_ctx *)&p);
  assert_null(sp.dist);
  assert_int_equal(sp.size, 1);
  assert_int_equal(fl_split_mine(&sp, 7), 1);
  p.dist.allgather = gather;
  p.dist.rank = 1;
  fl_split_init(&sp, &api, (fl_ctx *)&p);
  assert_null(sp.dist);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_as_alone),
      cmocka_unit_test(test_idle_ranks),
      cmocka_unit_test(test_failure_on_one_rank),
      cmocka_unit_test(test_replay_malformed),
      cmocka_unit_test(test_fix_refused_in_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
