// TCP settings shared by the ns-3 scaling programs (cell_tcp, chain_tcp, dumbbell_tcp): as close
// to ns-2.35's Agent/TCP (Sack1 or Newreno) with a TCPSink as ns-3 (3.37, 3.44) allows. ns-2 / airtcp
// ("ns2" TCP preset) -> ns-3:
//   Reno-style congestion control, RFC 2018 SACK (Sack1; Newreno: none) -> TcpNewReno, Sack on
//     (off), classic recovery (fast retransmit / fast recovery, no PRR);
//   window_ W (the largest window) -> a receive buffer of W segments (ns-3's advertised window);
//   windowInit_ 2 -> InitialCwnd 2; TCPSink without delayed ACKs -> DelAckCount 1;
//   minrto_ 0.2 s, tcpTick_ 10 ms -> MinRto 200 ms, ClockGranularity 10 ms;
//   no timestamps (ns-2's default) -> Timestamp false.
// Every attribute can be overridden on the command line (--ns3::TcpSocket::InitialCwnd=10).
#ifndef AIRTCP_BENCH_TCP_NS2_H
#define AIRTCP_BENCH_TCP_NS2_H
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

static void ConfigureTcpLikeNs2(uint32_t windowSegments, bool sack) {
    using namespace ns3;
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(windowSegments * 1460));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 22));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MilliSeconds(10)));
}

// A bulk sender (an FTP in ns-2, `app = { type = "bulk" }` in airtcp) that refills its socket's
// send buffer from an event of its own, never from inside the socket's send callback.
// BulkSendApplication refills synchronously: TcpSocketBase::SendPendingData calls NotifySend,
// the application calls Send, which runs SendPendingData again inside the first one; when the
// outer loop resumes with its stale window and data counts it can ask SendDataPacket for a
// zero-byte segment, TcpTxBuffer::CopyFromSequence returns no item and TcpRateLinux::SkbSent
// dereferences it (a segmentation fault in Debian's ns-3.37 build, seen in every program here).
class RefillingBulkSender : public ns3::Application {
  public:
    RefillingBulkSender(ns3::Address peer, uint32_t chunk) : m_peer(peer), m_chunk(chunk) {}

  private:
    void StartApplication() override {
        using namespace ns3;
        m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        m_socket->Bind();
        m_socket->Connect(m_peer);
        m_socket->ShutdownRecv();
        m_socket->SetConnectCallback(MakeCallback(&RefillingBulkSender::Connected, this),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeCallback(&RefillingBulkSender::Space, this));
    }
    void StopApplication() override {
        if (m_socket) m_socket->Close();
    }
    void Connected(ns3::Ptr<ns3::Socket>) {
        m_connected = true;
        Fill();
    }
    void Space(ns3::Ptr<ns3::Socket>, uint32_t) {
        if (m_connected && !m_pending) {
            m_pending = true;
            ns3::Simulator::ScheduleNow(&RefillingBulkSender::Fill, this);
        }
    }
    void Fill() {
        m_pending = false;
        while (m_socket->GetTxAvailable() >= m_chunk) {
            if (m_socket->Send(ns3::Create<ns3::Packet>(m_chunk)) < 0) break;
        }
    }
    ns3::Ptr<ns3::Socket> m_socket;
    ns3::Address m_peer;
    uint32_t m_chunk;
    bool m_connected = false, m_pending = false;
};

// Installs a RefillingBulkSender on `node` towards `peer`, starting at `start`.
static void InstallBulk(ns3::Ptr<ns3::Node> node, ns3::Address peer, ns3::Time start) {
    ns3::Ptr<RefillingBulkSender> app = ns3::CreateObject<RefillingBulkSender>(peer, 1460);
    node->AddApplication(app);
    app->SetStartTime(start);
}
#endif
