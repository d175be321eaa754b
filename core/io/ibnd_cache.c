/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnd_cache.c — `ibnetdiscover --cache` files (format
 * "ibnetdiscover-cache"), read through Debian's libibnetdisc (issue 36:
 * "read ibnetdiscover --cache files through libibnetdisc rather than by
 * hand").
 *
 * The cache is libibnetdisc's own binary dump of a discovered fabric
 * (rdma-core libibnetdisc/ibnetdisc_cache.c, magic 0x8FE7832B): the raw
 * NodeInfo, SwitchInfo and PortInfo of every node and port. Its layout is
 * libibnetdisc's to change, so fabriclint does not parse it: libibnetdisc
 * loads it (ibnd_load_fabric()) and the fabric is written out as the text
 * `ibnetdiscover --load-cache FILE` prints, which the ibnetdiscover loader
 * (core/io/ibnd.c) reads. Line numbers in findings are therefore those of
 * that command's output.
 *
 * Why a child process: libibnetdisc trusts the cache. On a damaged file
 * it loops without end, or reads past its buffers (found by cutting and
 * flipping bytes of a real cache). A library must not hang or crash its
 * caller, so the cache is read in a forked child, limited in time (alarm:
 * 10 s + 1 s per 8 MiB of cache, or FABRICLINT_CACHE_SECONDS; RLIMIT_CPU
 * as a backstop) and in memory
 * (RLIMIT_AS: what the process maps now + 1 GiB + 16x the cache). The
 * child gets the cache's bytes as they were read (an anonymous memfd:
 * standard input and pipes work as files do), writes the text through a
 * pipe (at most 64x the cache + 1 MiB is accepted), and its standard error
 * (libibnetdisc's messages) goes to a memfd whose first line the error
 * quotes: nothing reaches the caller's terminal. A child that is killed,
 * crashes or fails is FL_EPARSE naming the cache; the parent never waits
 * on more than the child's pipe, which closes when the child ends.
 *
 * Built only where libibnetdisc was found (FL_HAVE_IBNETDISC, CMake);
 * otherwise a cache is refused with the command that turns it into text.
 */
#define _GNU_SOURCE /* memfd_create */
#include "io/fileio.h"
#include "io/formats.h"
#include "io/loaders.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first 4 bytes of a cache: the magic 0x8FE7832B, little-endian as
 * libibnetdisc writes it (ibnetdisc_cache.c IBND_FABRIC_CACHE_MAGIC). */
int fl_is_ibnd_cache(const char *b, size_t n) {
  return n >= 4 && (unsigned char)b[0] == 0x2b && (unsigned char)b[1] == 0x83 &&
         (unsigned char)b[2] == 0xe7 && (unsigned char)b[3] == 0x8f;
}

#if FL_HAVE_IBNETDISC

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

/* PortInfo CapabilityMask bit 14, IsExtendedSpeedsSupported (IBA vol. 1
 * 14.2.5.6; ib_types.h IB_PORT_CAP_HAS_EXT_SPEEDS in network order), as
 * mad_get_field() returns it (host order). */
#define CAP_EXT_SPEEDS 0x00004000u
/* Mellanox extended PortInfo LinkSpeedActive: bit 0 is FDR10. */
#define MLNX_FDR10 1u

/* ---- the child: the fabric as ibnetdiscover's text ---------------------- */

/* ibnetdiscover's id of a node: "S-", "H-", "R-" or "?-" and 16 hex
 * digits, quoted. */
static void node_id(FILE *o, const ibnd_node_t *n) {
  char k = n->type == IB_NODE_SWITCH   ? 'S'
           : n->type == IB_NODE_CA     ? 'H'
           : n->type == IB_NODE_ROUTER ? 'R'
                                       : '?';
  fprintf(o, "\"%c-%016" PRIx64 "\"", k, n->guid);
}

/* The description with control characters as blanks, as ibnetdiscover
 * prints a CA's. */
static void desc(FILE *o, const char *d) {
  for (; *d; d++)
    fputc((unsigned char)*d < 0x20 || *d == 0x7f ? ' ' : *d, o);
}

static const char *width_name(uint32_t w) {
  return w == 1    ? "1x"
         : w == 2  ? "4x"
         : w == 4  ? "8x"
         : w == 8  ? "12x"
         : w == 16 ? "2x"
                   : "??";
}

/* The speed word of a port (IBA PortInfo LinkSpeedActive, and
 * LinkSpeedExtActive when the port's capability mask has the extended
 * speeds bit; FDR10 from Mellanox's extended PortInfo). @cap_info: the
 * PortInfo holding the capability mask (a switch's port 0), or NULL. */
static const char *speed_name(const ibnd_port_t *p, const uint8_t *cap_info) {
  uint32_t s = mad_get_field((void *)p->info, 0, IB_PORT_LINK_SPEED_ACTIVE_F);
  uint32_t ext = 0;
  if (cap_info &&
      (mad_get_field((void *)cap_info, 0, IB_PORT_CAPMASK_F) & CAP_EXT_SPEEDS))
    ext = mad_get_field((void *)p->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
  uint32_t fdr10 = mad_get_field((void *)p->ext_info, 0,
                                 IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F);
  switch (ext) {
  case 1:
    return "FDR";
  case 2:
    return "EDR";
  case 4:
    return "HDR";
  case 8:
    return "NDR";
  case 0:
    if (s == 4 && (fdr10 & MLNX_FDR10))
      return "FDR10";
    return s == 1 ? "SDR" : s == 2 ? "DDR" : s == 4 ? "QDR" : "???";
  default:
    return "???";
  }
}

/* The LID a port's far end is reached at: a switch's (port 0), a CA's
 * port's own. */
static unsigned far_lid(const ibnd_port_t *r) {
  return r->node->type == IB_NODE_SWITCH ? r->node->smalid : r->base_lid;
}

static void node_ids(FILE *o, ibnd_node_t *n) {
  uint64_t sys = mad_get_field64(n->info, 0, IB_NODE_SYSTEM_GUID_F);
  fprintf(o, "\nvendid=0x%x\ndevid=0x%x\n",
          mad_get_field(n->info, 0, IB_NODE_VENDORID_F),
          mad_get_field(n->info, 0, IB_NODE_DEVID_F));
  if (sys)
    fprintf(o, "sysimgguid=0x%" PRIx64 "\n", sys);
}

static void put_switch(ibnd_node_t *n, void *user) {
  FILE *o = user;
  node_ids(o, n);
  fprintf(o, "switchguid=0x%" PRIx64 "(%" PRIx64 ")\nSwitch\t%d ", n->guid,
          mad_get_field64(n->info, 0, IB_NODE_PORT_GUID_F), n->numports);
  node_id(o, n);
  fprintf(o, "\t\t# \"%s\" %s port 0 lid %d lmc %d\n", n->nodedesc,
          n->smaenhsp0 ? "enhanced" : "base", n->smalid, n->smalmc);
  const uint8_t *cap = n->ports[0] ? n->ports[0]->info : NULL;
  for (int i = 1; i <= n->numports; i++) {
    ibnd_port_t *p = n->ports[i], *r = p ? p->remoteport : NULL;
    if (!r)
      continue;
    fprintf(o, "[%d]\t", p->portnum);
    node_id(o, r->node);
    fprintf(o, "[%d]", r->portnum);
    if (r->node->type != IB_NODE_SWITCH)
      fprintf(o, "(%" PRIx64 ") ", r->guid);
    fprintf(o, "\t\t# \"%s\" lid %u %s%s\n", r->node->nodedesc, far_lid(r),
            width_name(mad_get_field(p->info, 0, IB_PORT_LINK_WIDTH_ACTIVE_F)),
            speed_name(p, cap));
  }
}

static void put_ca(ibnd_node_t *n, void *user) {
  FILE *o = user;
  node_ids(o, n);
  fprintf(o, "%sguid=0x%" PRIx64 "\n%s\t%d ",
          n->type == IB_NODE_ROUTER ? "rt" : "ca", n->guid,
          n->type == IB_NODE_ROUTER ? "Rt" : "Ca", n->numports);
  node_id(o, n);
  fputs("\t\t# \"", o);
  desc(o, n->nodedesc);
  fputs("\"\n", o);
  for (int i = 1; i <= n->numports; i++) {
    ibnd_port_t *p = n->ports[i], *r = p ? p->remoteport : NULL;
    if (!r)
      continue;
    fprintf(o, "[%d](%" PRIx64 ") \t", p->portnum, p->guid);
    node_id(o, r->node);
    fprintf(o, "[%d]", r->portnum);
    if (r->node->type != IB_NODE_SWITCH)
      fprintf(o, " (%" PRIx64 ") ", r->guid);
    fprintf(o, "\t\t# lid %d lmc %d \"%s\" lid %u %s%s\n", p->base_lid, p->lmc,
            r->node->nodedesc, far_lid(r),
            width_name(mad_get_field(p->info, 0, IB_PORT_LINK_WIDTH_ACTIVE_F)),
            speed_name(p, p->info));
  }
}

/* The child's work: the cache (@len bytes at @buf) loaded by libibnetdisc
 * and written to @out as ibnetdiscover's text. Exit status 0, or 3 when
 * libibnetdisc refused the file. */
static void child(const char *buf, size_t len, int out) {
  int fd = memfd_create("fabriclint-ibnd-cache", 0);
  char path[64];
  size_t done = 0;
  while (fd >= 0 && done < len) {
    ssize_t w = write(fd, buf + done, len - done);
    if (w <= 0)
      _exit(4);
    done += (size_t)w;
  }
  if (fd < 0)
    _exit(4);
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ibnd_fabric_t *f = ibnd_load_fabric(path, 0);
  if (!f || !f->from_node)
    _exit(3);
  FILE *o = fdopen(out, "w");
  if (!o)
    _exit(4);
  time_t t = 0;
  /* the header as ibnetdiscover prints it: the same number of lines, so
   * that line numbers are those of `ibnetdiscover --load-cache` */
  fprintf(o, "#\n# Topology file: generated on %s#\n", ctime(&t));
  fprintf(o, "# Initiated from node %016" PRIx64 " port %016" PRIx64 "\n",
          f->from_node->guid,
          mad_get_field64(f->from_node->info, 0, IB_NODE_PORT_GUID_F));
  ibnd_iter_nodes_type(f, put_switch, IB_NODE_SWITCH, o);
  ibnd_iter_nodes_type(f, put_ca, IB_NODE_CA, o);
  ibnd_iter_nodes_type(f, put_ca, IB_NODE_ROUTER, o);
  _exit(fclose(o) == 0 ? 0 : 4);
}

/* Address space the process maps now (bytes), from /proc/self/statm. */
static size_t mapped_now(void) {
  unsigned long pages = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%lu", &pages) != 1)
      pages = 0;
    fclose(f);
  }
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* The child's time limit in seconds: 10 + 1 per 8 MiB of cache, or
 * FABRICLINT_CACHE_SECONDS (1..3600) when set (a slow machine; tests). */
static int seconds(size_t len, const char *path, unsigned *secs,
                   fl_error *err) {
  const char *e = getenv("FABRICLINT_CACHE_SECONDS");
  *secs = 10u + (unsigned)(len >> 23);
  if (!e)
    return FL_OK;
  unsigned v = 0;
  const char *p = e;
  while (*p >= '0' && *p <= '9' && v <= 3600)
    v = v * 10u + (unsigned)(*p++ - '0');
  if (p == e || *p || v < 1 || v > 3600)
    return fl_error_set(err, FL_EINVAL, path, 0, 0,
                        "FABRICLINT_CACHE_SECONDS=%.40s: expected whole "
                        "seconds, 1 to 3600 (the time libibnetdisc may take "
                        "to read a cache)",
                        e);
  *secs = v;
  return FL_OK;
}

/* The limits of the child (see the top of the file). */
static void limit(size_t len, unsigned secs) {
  struct rlimit cpu = {secs + 1, secs + 2};
  size_t as = mapped_now() + ((size_t)1 << 30) + 16 * len;
  struct rlimit mem = {as, as};
  setrlimit(RLIMIT_CPU, &cpu);
  setrlimit(RLIMIT_AS, &mem);
  alarm(secs);
}

/* The first line of what the child wrote on standard error (@fd), for the
 * error message, in @msg. */
static void first_line(int fd, char *msg, size_t size) {
  ssize_t n = fd >= 0 ? pread(fd, msg, size - 1, 0) : -1;
  msg[n > 0 ? n : 0] = '\0';
  msg[strcspn(msg, "\n")] = '\0';
}

/* Read the child's text from @fd into *@text (*@n bytes, NUL-terminated),
 * at most @cap bytes. 0, 1 when over @cap, -1 out of memory or error. */
static int read_text(int fd, size_t cap, char **text, size_t *n) {
  size_t size = 1 << 16;
  char *b = malloc(size);
  *n = 0;
  while (b) {
    if (*n + 1 >= size) {
      if (size > cap) {
        free(b);
        return 1;
      }
      char *nb = realloc(b, size * 2);
      if (!nb)
        break;
      b = nb, size *= 2;
    }
    ssize_t r = read(fd, b + *n, size - 1 - *n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      b[*n] = '\0';
      *text = b;
      return r == 0 ? 0 : -1;
    }
    *n += (size_t)r;
  }
  free(b);
  return -1;
}

/* Why the child ended as it did, as the error's words; NULL when it
 * succeeded. */
static const char *verdict(int status, int over, unsigned secs, char *buf,
                           size_t size) {
  if (over)
    return "it wrote more text than such a cache can hold";
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (sig == SIGALRM || sig == SIGXCPU || sig == SIGKILL) {
    snprintf(buf, size,
             "it did not finish in time (%u s; a damaged cache can make it "
             "loop; FABRICLINT_CACHE_SECONDS gives a large cache more)",
             secs);
    return buf;
  }
  if (sig)
    return "it crashed (a damaged or truncated cache)";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
    return "it refused the file (a damaged or truncated cache, or one of "
           "another libibnetdisc version)";
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "it failed (out of memory, or its output could not be written)";
  return NULL;
}

static int load_cache(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  unsigned secs;
  if (!fl_is_ibnd_cache(in->buf, in->len))
    return fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                        "not an ibnetdiscover --cache file: its first 4 "
                        "bytes are not the magic number 2B 83 E7 8F");
  int src = seconds(in->len, in->path, &secs, err);
  if (src != FL_OK)
    return src;
  int pfd[2], efd = memfd_create("fabriclint-ibnd-stderr", 0);
  if (efd < 0 || pipe2(pfd, O_CLOEXEC) != 0) {
    if (efd >= 0)
      close(efd);
    return fl_error_set(err, FL_EIO, in->path, 0, 0,
                        "cannot start reading the cache: %s", strerror(errno));
  }
  fflush(NULL); /* nothing buffered is written twice by the child */
  pid_t pid = fork();
  if (pid == 0) {
    close(pfd[0]);
    int dn = open("/dev/null", O_RDONLY);
    if (dn >= 0)
      dup2(dn, 0);
    dup2(efd, 2);
    dup2(efd, 1);
    int out = dup(pfd[1]); /* without O_CLOEXEC: nothing is exec'd anyway */
    /* die of a fault or a limit, whatever handlers the caller (or a
     * sanitizer runtime) installed: the parent reads the signal */
    static const int FATAL[] = {SIGSEGV, SIGBUS,  SIGILL, SIGFPE,
                                SIGABRT, SIGALRM, SIGXCPU};
    for (size_t k = 0; k < sizeof FATAL / sizeof *FATAL; k++)
      signal(FATAL[k], SIG_DFL);
    limit(in->len, secs);
    child(in->buf, in->len, out);
  }
  close(pfd[1]);
  char *text = NULL;
  size_t n = 0;
  int over =
      pid < 0 ? 0 : read_text(pfd[0], 64 * in->len + (1u << 20), &text, &n);
  close(pfd[0]);
  int status = 0;
  if (pid > 0 && over)
    kill(pid, SIGKILL);
  while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  char why[256], vbuf[160];
  first_line(efd, why, sizeof why);
  close(efd);
  const char *v = pid < 0    ? "it could not be started (fork failed)"
                  : over < 0 ? "its text could not be read"
                             : verdict(status, over, secs, vbuf, sizeof vbuf);
  if (v) {
    free(text);
    return fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                        "this ibnetdiscover --cache file could not be read "
                        "by libibnetdisc: %s%s%s%s",
                        v, *why ? " (libibnetdisc: " : "", why,
                        *why ? ")" : "");
  }
  fl_input t = {.path = in->path, .buf = text, .len = n, .fd = -1};
  int rc = fl_load_ibnetdiscover(fab, &t, opts, err);
  free(text);
  return rc;
}

#else /* !FL_HAVE_IBNETDISC */

static int load_cache(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  (void)fab, (void)opts;
  return fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "this is an ibnetdiscover --cache file (binary), and "
                      "this fabriclint was built without libibnetdisc "
                      "(Debian: libibnetdisc-dev); run `ibnetdiscover "
                      "--load-cache FILE` to turn it into text");
}

#endif

const fl_format_def fl_fmt_ibnd_cache = {
    FL_FMT_IBND_CACHE,
    "ibnetdiscover-cache",
    NULL,
    FL_FORMAT_TOPOLOGY | FL_FORMAT_BINARY,
    load_cache,
    NULL, /* by its magic number, before the text detectors (load.c) */
    "an ibnetdiscover --cache file (binary, magic 0x8FE7832B)"};
