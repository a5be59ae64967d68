// ns-3 side (ns-3.44 from PyPI or Debian's ns-3.37: bench/ns3/build.sh) of the
// cell curve (bench/scaling, issue 19): a wired server (100 Mb/s, 10 ms
// point-to-point link) behind an 802.11b AP (11 Mb/s data, 1 Mb/s control, long preamble, RTS/CTS
// off, 50-packet drop-tail MAC queue, no queue disc), N stations on a circle of 50 m around it,
// each downloading with one bulk TCP SACK flow (1460 B segments, window 64 segments, ns-2's RTO
// settings) that starts at 1 s + i ms. Same setup as `gen.py cell N` and `cell.tcl`.
// TCP as ns-2's (tcp_ns2.h). ns-3 also sends beacons and runs association and ARP, which the
// others do not model (done before the flows start at 1 s).
// Reference only: airtcp never needs ns-3. Build with bench/ns3/build.sh.
// Usage: cell_tcp --n=N --duration=30 [--seed=1]
// Prints: N duration rx_bytes goodput_kbps events (payload delivered to the sinks over
// DURATION - 1 s)
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/wifi-module.h"
#include "tcp_ns2.h"
#include <cmath>
#include <cstdio>

using namespace ns3;

int main(int argc, char* argv[]) {
    uint32_t n = 10, seed = 1;
    double duration = 30;
    // Defaults first, so that --ns3::Class::Attribute=value on the command line overrides them.
    ConfigureTcpLikeNs2(64, true);
    Config::SetDefault("ns3::WifiMacQueue::MaxSize", QueueSizeValue(QueueSize("50p")));
    Config::SetDefault("ns3::WifiMacQueue::MaxDelay", TimeValue(Seconds(1e6)));
    CommandLine cmd;
    cmd.AddValue("n", "stations", n);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("seed", "run number", seed);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    NodeContainer wired;
    wired.Create(2);  // server, ap
    NodeContainer sta;
    sta.Create(n);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("10ms"));
    NetDeviceContainer wdev = p2p.Install(wired);

    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211b);
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", StringValue("DsssRate11Mbps"),
                                 "ControlMode", StringValue("DsssRate1Mbps"), "RtsCtsThreshold", UintegerValue(65535));
    YansWifiChannelHelper chan;
    chan.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
    chan.AddPropagationLoss("ns3::TwoRayGroundPropagationLossModel", "Frequency", DoubleValue(914e6),
                            "HeightAboveZ", DoubleValue(1.5));
    YansWifiPhyHelper phy;
    phy.SetChannel(chan.Create());
    phy.Set("TxPowerStart", DoubleValue(24.5));
    phy.Set("TxPowerEnd", DoubleValue(24.5));
    // ns-2's thresholds: CSThresh_ 1.559e-11 W (-78.07 dBm, 550 m) below which a signal is ignored,
    // RXThresh_ 3.652e-10 W (-64.374 dBm, 250 m) below which a frame is sensed but not received.
    // In ns-3 the first is RxSensitivity (YansWifiChannel drops weaker signals altogether: no
    // reception, no interference, no CCA) and CcaEdThreshold, the second the preamble detection's
    // MinimumRssi. (RxSensitivity = -64.374, as these programs had it, silenced every radio beyond
    // 250 m, so a chain's radios two hops apart were hidden from each other.)
    phy.Set("RxSensitivity", DoubleValue(-78.07));
    phy.Set("CcaEdThreshold", DoubleValue(-78.07));
    phy.SetPreambleDetectionModel("ns3::ThresholdPreambleDetectionModel", "MinimumRssi", DoubleValue(-64.374));
    Ssid ssid("airtcp");
    WifiMacHelper mac;
    mac.SetType("ns3::StaWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer sdev = wifi.Install(phy, mac, sta);
    mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer adev = wifi.Install(phy, mac, wired.Get(1));

    MobilityHelper mob;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0, 0, 0));
    for (uint32_t i = 0; i < n; i++) {
        double a = 2 * M_PI * i / n;
        pos->Add(Vector(50 * std::cos(a), 50 * std::sin(a), 0));
    }
    mob.SetPositionAllocator(pos);
    mob.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    NodeContainer radios(wired.Get(1));
    radios.Add(sta);
    mob.Install(radios);

    InternetStackHelper inet;
    inet.Install(wired);
    inet.Install(sta);
    Ipv4AddressHelper addr;
    addr.SetBase("10.1.0.0", "255.255.255.0");
    addr.Assign(wdev);
    addr.SetBase("10.2.0.0", "255.255.0.0");
    addr.Assign(adev);
    Ipv4InterfaceContainer sif = addr.Assign(sdev);
    // Drop-tail 50 packets in the MAC, as ns-2's IFQ and airtcp's queue_limit: no queue disc
    // (Ipv4AddressHelper::Assign installed ns-3's default one).
    TrafficControlHelper tch;
    tch.Uninstall(adev);
    tch.Uninstall(sdev);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    ApplicationContainer sinks;
    for (uint32_t i = 0; i < n; i++) {
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
        sinks.Add(sink.Install(sta.Get(i)));
        InstallBulk(wired.Get(0), InetSocketAddress(sif.GetAddress(i), 9), Seconds(1.0 + 0.001 * i));
    }
    sinks.Start(Seconds(0.0));
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    uint64_t rx = 0;
    for (uint32_t i = 0; i < n; i++) rx += DynamicCast<PacketSink>(sinks.Get(i))->GetTotalRx();
    std::printf("%u %g %llu %.1f %llu\n", n, duration, (unsigned long long)rx, rx * 8.0 / (duration - 1.0) / 1000.0,
                (unsigned long long)Simulator::GetEventCount());
    Simulator::Destroy();
    return 0;
}
