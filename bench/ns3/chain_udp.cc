// ns-3.37 reference: UDP/CBR over a static chain of 802.11b radios 200 m apart, configured like
// ns-2's WaveLAN defaults (2 Mb/s data, 1 Mb/s control, 24.5 dBm, 914 MHz two-ray ground,
// 250 m decode / 550 m carrier-sense range), static routes, RTS/CTS for every frame (or none).
// Reference only: airtcp never needs ns-3 to build or test. Build with bench/ns3/build.sh.
//
// Usage: chain_udp --hops=6 --rts=1 --rateKbps=400 --duration=300 --seed=1
// Prints: hops rts rate_kbps duration rx_bytes throughput_kbps(IP bytes of 1500 B) events
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/wifi-module.h"
#include <cstdio>

using namespace ns3;

int main(int argc, char* argv[]) {
    uint32_t hops = 6, rts = 1, seed = 1;
    double rateKbps = 400, duration = 300;
    CommandLine cmd;
    cmd.AddValue("hops", "hops", hops);
    cmd.AddValue("rts", "RTS/CTS on (1) or off (0)", rts);
    cmd.AddValue("rateKbps", "CBR payload rate", rateKbps);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("seed", "run number", seed);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    Config::SetDefault("ns3::WifiMacQueue::MaxSize", QueueSizeValue(QueueSize("50p")));

    NodeContainer nodes;
    nodes.Create(hops + 1);
    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211b);
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", StringValue("DsssRate2Mbps"),
                                 "ControlMode", StringValue("DsssRate1Mbps"), "RtsCtsThreshold",
                                 UintegerValue(rts ? 0 : 65535));
    YansWifiChannelHelper chan;
    chan.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
    chan.AddPropagationLoss("ns3::TwoRayGroundPropagationLossModel", "Frequency", DoubleValue(914e6),
                            "HeightAboveZ", DoubleValue(1.5));
    YansWifiPhyHelper phy;
    phy.SetChannel(chan.Create());
    phy.Set("TxPowerStart", DoubleValue(24.5));
    phy.Set("TxPowerEnd", DoubleValue(24.5));
    phy.Set("RxSensitivity", DoubleValue(-64.374));   // 3.652e-10 W: 250 m
    phy.Set("CcaEdThreshold", DoubleValue(-78.07));   // 1.559e-11 W: 550 m
    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac");
    NetDeviceContainer devs = wifi.Install(phy, mac, nodes);

    MobilityHelper mob;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    for (uint32_t i = 0; i <= hops; i++) pos->Add(Vector(200.0 * i, 0, 0));
    mob.SetPositionAllocator(pos);
    mob.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mob.Install(nodes);

    InternetStackHelper inet;
    inet.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);
    Ipv4StaticRoutingHelper srh;
    for (uint32_t i = 0; i <= hops; i++) {
        Ptr<Ipv4StaticRouting> r = srh.GetStaticRouting(nodes.Get(i)->GetObject<Ipv4>());
        for (uint32_t d = 0; d <= hops; d++) {
            if (d == i || (d > i ? d - i : i - d) == 1) continue;
            uint32_t next = d > i ? i + 1 : i - 1;
            r->AddHostRouteTo(ifs.GetAddress(d), ifs.GetAddress(next), 1);
        }
    }
    UdpServerHelper server(9);
    ApplicationContainer sapp = server.Install(nodes.Get(hops));
    UdpClientHelper client(ifs.GetAddress(hops), 9);
    client.SetAttribute("MaxPackets", UintegerValue(4294967295u));
    client.SetAttribute("PacketSize", UintegerValue(1472));
    client.SetAttribute("Interval", TimeValue(Seconds(1472 * 8.0 / (rateKbps * 1000.0))));
    ApplicationContainer capp = client.Install(nodes.Get(0));
    capp.Start(Seconds(1.0));
    sapp.Start(Seconds(0.0));
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    Ptr<UdpServer> srv = DynamicCast<UdpServer>(sapp.Get(0));
    uint64_t rx = srv->GetReceived() * 1500ull;
    std::printf("%u %u %.0f %.0f %llu %.1f %llu\n", hops, rts, rateKbps, duration, (unsigned long long)rx,
                rx * 8.0 / (duration - 1.0) / 1000.0, (unsigned long long)Simulator::GetEventCount());
    Simulator::Destroy();
    return 0;
}
