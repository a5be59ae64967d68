// ns-3.37 reference: an 11 Mb/s 802.11b downlink. A server (100 Mb/s, 10 ms point-to-point link)
// feeds an AP that serves one station 100 m away; saturating UDP/CBR (1460 B payload) to the
// station; control frames at 1 Mb/s, RTS/CTS off. Reference only: airtcp never needs ns-3.
// Usage: infra_udp --duration=300 --seed=1 --rateKbps=8000
// Prints: duration rx_bytes throughput_kbps(payload) events
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/wifi-module.h"
#include <cstdio>

using namespace ns3;

int main(int argc, char* argv[]) {
    uint32_t seed = 1;
    double duration = 300, rateKbps = 8000;
    CommandLine cmd;
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("seed", "run number", seed);
    cmd.AddValue("rateKbps", "CBR payload rate", rateKbps);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    Config::SetDefault("ns3::WifiMacQueue::MaxSize", QueueSizeValue(QueueSize("50p")));

    NodeContainer wired;
    wired.Create(2);  // server, ap
    NodeContainer sta;
    sta.Create(1);
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
    phy.Set("RxSensitivity", DoubleValue(-64.374));
    phy.Set("CcaEdThreshold", DoubleValue(-78.07));
    Ssid ssid("airtcp");
    WifiMacHelper mac;
    mac.SetType("ns3::StaWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer sdev = wifi.Install(phy, mac, sta);
    mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer adev = wifi.Install(phy, mac, wired.Get(1));

    MobilityHelper mob;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0, 0, 0));
    pos->Add(Vector(100, 0, 0));
    mob.SetPositionAllocator(pos);
    mob.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mob.Install(NodeContainer(wired.Get(1), sta.Get(0)));

    InternetStackHelper inet;
    inet.Install(wired);
    inet.Install(sta);
    Ipv4AddressHelper addr;
    addr.SetBase("10.1.0.0", "255.255.255.0");
    addr.Assign(wdev);
    addr.SetBase("10.2.0.0", "255.255.255.0");
    addr.Assign(adev);
    Ipv4InterfaceContainer sif = addr.Assign(sdev);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    UdpServerHelper server(9);
    ApplicationContainer sapp = server.Install(sta.Get(0));
    UdpClientHelper client(sif.GetAddress(0), 9);
    client.SetAttribute("MaxPackets", UintegerValue(4294967295u));
    client.SetAttribute("PacketSize", UintegerValue(1460));
    client.SetAttribute("Interval", TimeValue(Seconds(1460 * 8.0 / (rateKbps * 1000.0))));
    ApplicationContainer capp = client.Install(wired.Get(0));
    capp.Start(Seconds(1.0));
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    uint64_t rx = DynamicCast<UdpServer>(sapp.Get(0))->GetReceived() * 1460ull;
    std::printf("%.0f %llu %.1f %llu\n", duration, (unsigned long long)rx, rx * 8.0 / (duration - 1.0) / 1000.0,
                (unsigned long long)Simulator::GetEventCount());
    Simulator::Destroy();
    return 0;
}
