// ns-3.37 reference for issue 15 (Westwood+ / Veno cross-check): one TCP bulk flow s -> d over
// s -(10 Mb/s, 25 ms)- r -(10 Mb/s, 25 ms)- d with Bernoulli loss P on the s -> r data direction
// (a RateErrorModel in packet units on r's receiving device; ACKs are not lost). 1460 B segments,
// send and receive buffers of 64 segments, initial window 2 segments, no delayed ACK, 1000-packet
// queues, SACK off (the setting), ns-3 defaults otherwise (timestamps on, MinRto --minRto).
// Same path as bench/ns2/westwood_loss.tcl and the airtcp scenario in bench/ns2/westwood_loss.py.
// Usage: westwood_loss --cc=westwood|veno|newreno --p=0.01 --duration=100 --seed=1 [--sack=0]
//        [--filter=tustin|none] [--minRto=0.2] [--trace=1 (state and ssthresh changes on stderr)]
// Prints: cc p seed goodput_kbps timeouts fast_recoveries (goodput from the sink's bytes after 10 s)
// Reference only: airtcp never needs ns-3.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include <cstdio>

using namespace ns3;

static uint32_t g_timeouts = 0, g_recoveries = 0;
static Ptr<PacketSink> g_sink;
static uint64_t g_rx0 = 0;

static bool g_trace = false;
static uint32_t g_cwnd = 0;

static void CongStateChange(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
    if (now == TcpSocketState::CA_LOSS) g_timeouts++;
    if (now == TcpSocketState::CA_RECOVERY) g_recoveries++;
    if (g_trace)
        std::fprintf(stderr, "%.6f state %s cwnd %u\n", Simulator::Now().GetSeconds(),
                     TcpSocketState::TcpCongStateName[now], g_cwnd);
}

static void CwndChange(uint32_t, uint32_t now) { g_cwnd = now; }

static void SsthreshChange(uint32_t, uint32_t now) {
    std::fprintf(stderr, "%.6f ssthresh %u cwnd %u\n", Simulator::Now().GetSeconds(), now, g_cwnd);
}

static void Hook() {
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongState",
                                  MakeCallback(&CongStateChange));
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow",
                                  MakeCallback(&CwndChange));
    if (g_trace)
        Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/SlowStartThreshold",
                                      MakeCallback(&SsthreshChange));
}

static void Mark() { g_rx0 = g_sink->GetTotalRx(); }

int main(int argc, char* argv[]) {
    std::string cc = "westwood", filter = "tustin";
    double p = 0.01, duration = 100, minRto = 0.2;
    uint32_t seed = 1;
    bool sack = false;
    CommandLine cmd;
    cmd.AddValue("cc", "westwood|veno|newreno", cc);
    cmd.AddValue("p", "packet loss probability s->r", p);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("seed", "run number", seed);
    cmd.AddValue("sack", "SACK on", sack);
    cmd.AddValue("filter", "Westwood filter tustin|none", filter);
    cmd.AddValue("minRto", "minimum RTO, s", minRto);
    cmd.AddValue("trace", "print state and ssthresh changes on stderr", g_trace);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    std::string tid = cc == "westwood" ? "ns3::TcpWestwood" : cc == "veno" ? "ns3::TcpVeno" : "ns3::TcpNewReno";
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(tid));
    Config::SetDefault("ns3::TcpWestwood::ProtocolType", EnumValue(TcpWestwood::WESTWOODPLUS));
    Config::SetDefault("ns3::TcpWestwood::FilterType",
                       EnumValue(filter == "none" ? TcpWestwood::NONE : TcpWestwood::TUSTIN));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(64 * 1460));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(64 * 1460));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRto)));

    NodeContainer n;
    n.Create(3);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("25ms"));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
    NetDeviceContainer d1 = p2p.Install(n.Get(0), n.Get(1));
    NetDeviceContainer d2 = p2p.Install(n.Get(1), n.Get(2));
    InternetStackHelper stack;
    stack.Install(n);
    Ipv4AddressHelper a;
    a.SetBase("10.0.1.0", "255.255.255.0");
    a.Assign(d1);
    a.SetBase("10.0.2.0", "255.255.255.0");
    Ipv4InterfaceContainer i2 = a.Assign(d2);
    // (Address assignment installs the default pfifo_fast disc; removed.)
    // No traffic-control queue discs: the device queues (1000 packets) are the only queues.
    TrafficControlHelper tch;
    tch.Uninstall(d1);
    tch.Uninstall(d2);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    em->SetAttribute("ErrorRate", DoubleValue(p));
    d1.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));

    BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(i2.GetAddress(1), 9));
    src.SetAttribute("MaxBytes", UintegerValue(0));
    src.SetAttribute("SendSize", UintegerValue(1460));
    ApplicationContainer sa = src.Install(n.Get(0));
    sa.Start(Seconds(0.0));
    PacketSinkHelper sinkh("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
    ApplicationContainer ka = sinkh.Install(n.Get(2));
    ka.Start(Seconds(0.0));
    g_sink = DynamicCast<PacketSink>(ka.Get(0));
    Simulator::Schedule(Seconds(0.001), &Hook);
    Simulator::Schedule(Seconds(10.0), &Mark);
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    double kbps = (g_sink->GetTotalRx() - g_rx0) * 8.0 / (duration - 10.0) / 1000.0;
    std::printf("%s %g %u %.1f %u %u\n", cc.c_str(), p, seed, kbps, g_timeouts, g_recoveries);
    Simulator::Destroy();
    return 0;
}
