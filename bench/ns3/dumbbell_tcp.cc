// ns-3 side (ns-3.44 from PyPI or Debian's ns-3.37: bench/ns3/build.sh) of the
// dumbbell curve (bench/scaling, issue 19): F bulk TCP SACK flows (window 64
// segments of 1460 B, ns-2's RTO settings, tcp_ns2.h), sender i -> r1 and r2 -> receiver i on
// 100 Mb/s, 1 ms links, r1 -> r2 a 100 Mb/s, 20 ms bottleneck with a drop-tail queue of max(100, F)
// packets in each direction (no queue discs anywhere: the device queues are the only queues, as
// ns-2's and airtcp's links), flow i starting at 1 s + (1000 i / F) ms, static (global) routes.
// Same setup as `gen.py dumbbell F` and `dumbbell.tcl F`.
// Reference only: airtcp never needs ns-3. Build with bench/ns3/build.sh.
// Usage: dumbbell_tcp --flows=F --duration=10 [--seed=1]
// Prints: F duration rx_bytes goodput_kbps events (payload delivered over DURATION - 1 s)
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "tcp_ns2.h"
#include <cstdio>
#include <string>

using namespace ns3;

int main(int argc, char* argv[]) {
    uint32_t flows = 10, seed = 1;
    double duration = 10;
    // Defaults first, so that --ns3::Class::Attribute=value on the command line overrides them.
    ConfigureTcpLikeNs2(64, true);
    CommandLine cmd;
    cmd.AddValue("flows", "flows", flows);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("seed", "run number", seed);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    NodeContainer routers;
    routers.Create(2);
    NodeContainer senders, receivers;
    senders.Create(flows);
    receivers.Create(flows);
    InternetStackHelper inet;
    inet.Install(routers);
    inet.Install(senders);
    inet.Install(receivers);

    uint32_t q = flows > 100 ? flows : 100;
    PointToPointHelper bottleneck;
    bottleneck.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    bottleneck.SetChannelAttribute("Delay", StringValue("20ms"));
    bottleneck.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize(std::to_string(q) + "p")));
    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    access.SetChannelAttribute("Delay", StringValue("1ms"));
    // ns-2's default link queue (Queue/DropTail, limit 50): as airtcp's default link queue.
    access.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("50p")));

    Ipv4AddressHelper addr;
    NetDeviceContainer all;
    NetDeviceContainer bdev = bottleneck.Install(routers.Get(0), routers.Get(1));
    addr.SetBase("10.255.0.0", "255.255.255.252");
    addr.Assign(bdev);
    all.Add(bdev);
    std::vector<Ipv4Address> dst(flows);
    for (uint32_t i = 0; i < flows; i++) {
        NetDeviceContainer a = access.Install(senders.Get(i), routers.Get(0));
        NetDeviceContainer b = access.Install(routers.Get(1), receivers.Get(i));
        // Two /30 subnets per flow: 10.0.0.0/8 has room for 2^21 of them.
        uint32_t base = (10u << 24) + 8u * i;
        addr.SetBase(Ipv4Address(base), "255.255.255.252");
        addr.Assign(a);
        addr.SetBase(Ipv4Address(base + 4), "255.255.255.252");
        dst[i] = addr.Assign(b).GetAddress(1);
        all.Add(a);
        all.Add(b);
    }
    TrafficControlHelper tch;
    tch.Uninstall(all);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    ApplicationContainer sinks;
    for (uint32_t i = 0; i < flows; i++) {
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
        sinks.Add(sink.Install(receivers.Get(i)));
        InstallBulk(senders.Get(i), InetSocketAddress(dst[i], 9), Seconds(1.0 + (1000u * i / flows) / 1000.0));
    }
    sinks.Start(Seconds(0.0));
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    uint64_t rx = 0;
    for (uint32_t i = 0; i < flows; i++) rx += DynamicCast<PacketSink>(sinks.Get(i))->GetTotalRx();
    std::printf("%u %g %llu %.1f %llu\n", flows, duration, (unsigned long long)rx, rx * 8.0 / (duration - 1.0) / 1000.0,
                (unsigned long long)Simulator::GetEventCount());
    Simulator::Destroy();
    return 0;
}
