//! Notifications a TCP sender accepts from outside its own ACK clock: link-layer and cross-layer
//! schemes (ELN/ERSN from an access point's MAC, a base-station agent, a local MAC inside the
//! station) reach the sender through [`Notification`] and [`super::TcpSender::notify`]; the world
//! routes them by the sender's agent index (`World::tcp_notify`).

/// One cross-layer message to a TCP sender, naming the segment by a byte it holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notification {
    /// ELN (explicit loss notification): the segment holding byte `seq` was lost on a link for a
    /// reason other than congestion; retransmit it now without a congestion response.
    ExplicitLoss {
        /// A byte of the lost segment.
        seq: u64,
    },
    /// ERSN (explicit retransmission-started notification): the segment holding byte `seq` is
    /// being retransmitted by a link layer; do not treat it as lost and hold its timer.
    RetransmissionStarted {
        /// A byte of the segment in link-layer retransmission.
        seq: u64,
    },
}
