/*
 * tests/ns3/fl_ns3.cc — replay the flows of `fabriclint perf --dump-flows`
 * in ns-3's packet-level point-to-point model and measure the step time
 * (docs/performance-model.md, issue #17 "Validation").
 *
 * What it builds, from the dump (format fabriclint-perf-flows/1):
 *   - one ns-3 node per switch and per job NIC; one point-to-point link per
 *     cable at the cable's rate (Gb/s) with --delay-ns propagation delay;
 *   - IPv4 on every node, a /30 per cable; switches forward with
 *     Ipv4StaticRouting host routes, one per destination NIC, out of the
 *     port the switch's LFT names for that NIC's LID (the same next hops
 *     the model follows); a NIC sends everything to its switch;
 *   - per cable direction an FqCoDel queue disc (per-flow deficit round
 *     robin) with CoDel disabled (target 1 s) and a deep limit, and a
 *     2-packet device queue: a lossless fabric where every link shares its
 *     capacity equally among the flows queued at it, the packet-level
 *     counterpart of max-min fair sharing (Hahne 1991: round robin per
 *     link with enough window gives max-min rates);
 *   - one TCP connection (BulkSend → PacketSink) per flow of one step of
 *     the chosen collective, all started at t = 0, with jumbo frames
 *     (MTU 9000, segment 8948 bytes) and buffers large enough that the
 *     window never limits a flow.
 * The step ends when the last flow's last byte arrives. Flow sizes are
 * scaled so the largest is --flow-bytes (the model is linear in bytes);
 * the printed times are scaled back to the collective's real sizes.
 *
 * Output: one JSON object on standard output:
 *   {op, steps, flows, scale, sim_step_s, step_time_s, time_s,
 *    model_step_time_s, model_time_s, deviation, drops, ns3_version}
 * with deviation = model_time / ns3_time - 1. Exit 0, 2 on bad input.
 *
 * Usage: fl_ns3 DUMP.json [--coll I] [--flow-bytes N] [--delay-ns D]
 */
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <jansson.h>

#include "ns3/bulk-send-helper.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace {

struct Opts {
  const char *dump = nullptr;
  unsigned coll = 0;
  double flow_bytes = 4e6;
  double delay_ns = 100;
};

[[noreturn]] void die(const char *what, const char *detail) {
  std::fprintf(stderr, "fl_ns3: %s%s%s\n", what, detail ? ": " : "",
               detail ? detail : "");
  std::exit(2);
}

Opts parse_args(int argc, char **argv) {
  Opts o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        die("missing value after", argv[i]);
      return argv[++i];
    };
    auto number = [&](const char *s) {
      char *end = nullptr;
      errno = 0;
      double d = std::strtod(s, &end);
      if (end == s || *end || errno || !(d >= 0))
        die("expected a non-negative number, got", s);
      return d;
    };
    if (a == "--coll")
      o.coll = static_cast<unsigned>(number(value()));
    else if (a == "--flow-bytes")
      o.flow_bytes = number(value());
    else if (a == "--delay-ns")
      o.delay_ns = number(value());
    else if (!a.empty() && a[0] == '-')
      die("unknown option", argv[i]);
    else if (o.dump)
      die("more than one dump given", argv[i]);
    else
      o.dump = argv[i];
  }
  if (!o.dump)
    die("usage: fl_ns3 DUMP.json [--coll I] [--flow-bytes N] [--delay-ns D]",
        nullptr);
  if (o.flow_bytes < 9000)
    die("--flow-bytes must be at least one segment (9000)", nullptr);
  return o;
}

json_t *get(json_t *o, const char *k, int type) {
  json_t *v = json_object_get(o, k);
  if (!v || json_typeof(v) != type)
    die("dump: missing or mistyped key", k);
  return v;
}

/* Per flow: bytes to receive, received so far, finish time. */
struct FlowState {
  uint64_t want = 0, got = 0;
  double done_s = -1;
};

struct Run {
  std::vector<FlowState> flows;
  size_t finished = 0;
  uint64_t drops = 0;
};

void on_rx(Run *r, size_t i, Ptr<const Packet> p, const Address &) {
  FlowState &f = r->flows[i];
  bool was = f.got >= f.want;
  f.got += p->GetSize();
  if (!was && f.got >= f.want) {
    f.done_s = Simulator::Now().GetSeconds();
    if (++r->finished == r->flows.size())
      Simulator::Stop();
  }
}

void on_drop(Run *r, Ptr<const QueueDiscItem>) {
  r->drops++;
}

} // namespace

int main(int argc, char **argv) {
  Opts o = parse_args(argc, argv);
  json_error_t jerr;
  json_t *root = json_load_file(o.dump, 0, &jerr);
  if (!root) {
    std::fprintf(stderr, "fl_ns3: %s:%d:%d: %s\n", o.dump, jerr.line,
                 jerr.column, jerr.text);
    return 2;
  }
  json_t *fmt = json_object_get(root, "format");
  if (!json_is_string(fmt) ||
      std::strcmp(json_string_value(fmt), "fabriclint-perf-flows/1") != 0)
    die("not a fabriclint-perf-flows/1 dump", o.dump);
  json_t *jnodes = get(root, "nodes", JSON_ARRAY);
  json_t *jnics = get(root, "nics", JSON_ARRAY);
  json_t *jlinks = get(root, "links", JSON_ARRAY);
  json_t *jroutes = get(root, "routes", JSON_ARRAY);
  json_t *jcolls = get(root, "collectives", JSON_ARRAY);
  if (o.coll >= json_array_size(jcolls))
    die("--coll is past the dump's collectives", nullptr);
  json_t *jc = json_array_get(jcolls, o.coll);

  /* Transport: TCP, jumbo segments, windows that never limit a flow. */
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(8948));
  Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1u << 30));
  Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1u << 30));
  Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
  Config::SetDefault("ns3::TcpSocketBase::ClockGranularity",
                     TimeValue(NanoSeconds(100)));

  size_t nn = json_array_size(jnodes);
  NodeContainer nodes;
  nodes.Create(static_cast<uint32_t>(nn));
  InternetStackHelper stack;
  Ipv4StaticRoutingHelper srh;
  stack.SetRoutingHelper(srh);
  stack.Install(nodes);

  PointToPointHelper p2p;
  p2p.SetDeviceAttribute("Mtu", UintegerValue(9000));
  p2p.SetChannelAttribute(
      "Delay", TimeValue(NanoSeconds(static_cast<int64_t>(o.delay_ns))));
  p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("2p"));
  TrafficControlHelper tch;
  tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc", "MaxSize",
                       StringValue("1000000p"), "Flows", UintegerValue(65536),
                       "Target", StringValue("1s"), "Interval",
                       StringValue("10s"));

  Run run;
  /* (node, port) -> (local interface, peer address) */
  std::map<std::pair<size_t, unsigned>, std::pair<uint32_t, Ipv4Address>> port;
  std::vector<Ipv4Address> addr_of(nn); /* a NIC's address */
  std::vector<std::pair<uint32_t, Ipv4Address>> nic_up(nn);
  Ipv4AddressHelper ah;
  ah.SetBase("10.0.0.0", "255.255.255.252");
  for (size_t i = 0; i < json_array_size(jlinks); i++) {
    json_t *l = json_array_get(jlinks, i);
    size_t a = json_integer_value(get(l, "a", JSON_INTEGER));
    size_t b = json_integer_value(get(l, "b", JSON_INTEGER));
    unsigned ap = json_integer_value(get(l, "a_port", JSON_INTEGER));
    unsigned bp = json_integer_value(get(l, "b_port", JSON_INTEGER));
    double gbps = json_number_value(json_object_get(l, "gbps"));
    if (a >= nn || b >= nn || !(gbps > 0))
      die("dump: bad link", nullptr);
    p2p.SetDeviceAttribute(
        "DataRate", DataRateValue(DataRate(static_cast<uint64_t>(gbps * 1e9))));
    NetDeviceContainer d = p2p.Install(nodes.Get(a), nodes.Get(b));
    QueueDiscContainer q = tch.Install(d);
    for (uint32_t k = 0; k < q.GetN(); k++)
      q.Get(k)->TraceConnectWithoutContext("Drop",
                                           MakeBoundCallback(&on_drop, &run));
    Ipv4InterfaceContainer ifc = ah.Assign(d);
    ah.NewNetwork();
    uint32_t ia = ifc.Get(0).second, ib = ifc.Get(1).second;
    port[{a, ap}] = {ia, ifc.GetAddress(1)};
    port[{b, bp}] = {ib, ifc.GetAddress(0)};
    addr_of[a] = ifc.GetAddress(0), addr_of[b] = ifc.GetAddress(1);
    nic_up[a] = {ia, ifc.GetAddress(1)};
    nic_up[b] = {ib, ifc.GetAddress(0)};
  }

  /* NICs: everything to the switch. */
  size_t nnic = json_array_size(jnics);
  std::vector<size_t> nic(nnic);
  for (size_t i = 0; i < nnic; i++) {
    nic[i] = json_integer_value(json_array_get(jnics, i));
    if (nic[i] >= nn)
      die("dump: bad nic index", nullptr);
    Ptr<Ipv4StaticRouting> r =
        srh.GetStaticRouting(nodes.Get(nic[i])->GetObject<Ipv4>());
    r->SetDefaultRoute(nic_up[nic[i]].second, nic_up[nic[i]].first);
  }
  /* Switches: the LFT's port toward each NIC. */
  for (size_t i = 0; i < json_array_size(jroutes); i++) {
    json_t *jr = json_array_get(jroutes, i);
    size_t s = json_integer_value(get(jr, "switch", JSON_INTEGER));
    json_t *ports = get(jr, "ports", JSON_ARRAY);
    if (s >= nn || json_array_size(ports) != nnic)
      die("dump: bad route row", nullptr);
    Ptr<Ipv4StaticRouting> r =
        srh.GetStaticRouting(nodes.Get(s)->GetObject<Ipv4>());
    for (size_t d = 0; d < nnic; d++) {
      unsigned p = json_integer_value(json_array_get(ports, d));
      auto it = port.find({s, p});
      if (p == 0 || it == port.end())
        continue; /* no entry / uncabled: ns-3 drops, as the switch would */
      r->AddHostRouteTo(addr_of[nic[d]], it->second.second, it->second.first);
    }
  }

  /* Flows of one step, scaled so the largest is --flow-bytes. */
  json_t *jflows = get(jc, "flows", JSON_ARRAY);
  size_t nf = json_array_size(jflows);
  if (nf == 0)
    die("the collective has no fabric flow", nullptr);
  double maxb = 0;
  for (size_t i = 0; i < nf; i++)
    maxb = std::max(
        maxb, json_number_value(json_array_get(json_array_get(jflows, i), 2)));
  double scale = o.flow_bytes / maxb;
  run.flows.resize(nf);
  std::map<size_t, uint16_t> next_port;
  for (size_t i = 0; i < nf; i++) {
    json_t *f = json_array_get(jflows, i);
    size_t s = json_integer_value(json_array_get(f, 0));
    size_t d = json_integer_value(json_array_get(f, 1));
    double b = json_number_value(json_array_get(f, 2));
    if (s >= nnic || d >= nnic || s == d)
      die("dump: bad flow", nullptr);
    uint64_t bytes = static_cast<uint64_t>(b * scale + 0.5);
    run.flows[i].want = bytes;
    uint16_t pt = ++next_port[d] + 1000;
    PacketSinkHelper sink("ns3::TcpSocketFactory",
                          InetSocketAddress(Ipv4Address::GetAny(), pt));
    ApplicationContainer sa = sink.Install(nodes.Get(nic[d]));
    sa.Start(Seconds(0));
    sa.Get(0)->TraceConnectWithoutContext("Rx",
                                          MakeBoundCallback(&on_rx, &run, i));
    BulkSendHelper bs("ns3::TcpSocketFactory",
                      InetSocketAddress(addr_of[nic[d]], pt));
    bs.SetAttribute("MaxBytes", UintegerValue(bytes));
    bs.SetAttribute("SendSize", UintegerValue(1u << 16));
    ApplicationContainer ca = bs.Install(nodes.Get(nic[s]));
    ca.Start(Seconds(0));
  }

  Simulator::Stop(Seconds(100));
  Simulator::Run();
  double last = 0;
  for (const FlowState &f : run.flows) {
    if (f.done_s < 0) {
      std::fprintf(stderr,
                   "fl_ns3: a flow did not finish (%llu of %llu "
                   "bytes)\n",
                   static_cast<unsigned long long>(f.got),
                   static_cast<unsigned long long>(f.want));
      return 1;
    }
    last = std::max(last, f.done_s);
  }
  Simulator::Destroy();

  double steps = json_number_value(json_object_get(jc, "steps"));
  double mstep = json_number_value(json_object_get(jc, "step_time_s"));
  double step = last / scale;
  std::printf("{\"op\": \"%s\", \"steps\": %.0f, \"flows\": %zu, "
              "\"scale\": %.9g, \"sim_step_s\": %.9g, \"step_time_s\": %.9g, "
              "\"time_s\": %.9g, \"model_step_time_s\": %.9g, "
              "\"model_time_s\": %.9g, \"deviation\": %.6f, \"drops\": %llu, "
              "\"ns3_version\": \"%s\"}\n",
              json_string_value(json_object_get(jc, "op")), steps, nf, scale,
              last, step, step * steps, mstep, mstep * steps, mstep / step - 1,
              static_cast<unsigned long long>(run.drops), FL_NS3_VERSION);
  json_decref(root);
  return 0;
}
