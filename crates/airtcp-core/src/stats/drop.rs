//! Why a packet left the network without being delivered.

/// The cause of a packet drop, counted per link and per flow.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DropCause {
    /// The queue was full (drop-tail, or RED's hard limit).
    QueueOverflow,
    /// RED dropped it probabilistically (average queue between the thresholds).
    RedEarly,
    /// RED dropped it because the average queue was above the maximum (or 2x max in gentle mode).
    RedForced,
    /// The link's loss process corrupted it.
    LossProcess,
    /// No route to the destination.
    NoRoute,
    /// Its TTL reached zero (a routing loop).
    TtlExpired,
    /// An 802.11 MAC discarded it after the retry limit.
    RetryLimit,
    /// The routing layer dropped it after a MAC link failure: the packet the MAC gave up on, or
    /// one flushed from the interface queue towards the same neighbour (AODV; ns-2 `CBK`).
    LinkFailure,
    /// A scheme attached to a node dropped it (see [`crate::hook::Verdict::Drop`]).
    Scheme,
}

impl DropCause {
    /// Every cause, in reporting order.
    pub const ALL: [DropCause; 9] = [
        DropCause::QueueOverflow,
        DropCause::RedEarly,
        DropCause::RedForced,
        DropCause::LossProcess,
        DropCause::NoRoute,
        DropCause::TtlExpired,
        DropCause::RetryLimit,
        DropCause::LinkFailure,
        DropCause::Scheme,
    ];

    /// Stable snake_case name used in outputs.
    pub fn name(self) -> &'static str {
        match self {
            DropCause::QueueOverflow => "queue_overflow",
            DropCause::RedEarly => "red_early",
            DropCause::RedForced => "red_forced",
            DropCause::LossProcess => "loss_process",
            DropCause::NoRoute => "no_route",
            DropCause::TtlExpired => "ttl_expired",
            DropCause::RetryLimit => "retry_limit",
            DropCause::LinkFailure => "link_failure",
            DropCause::Scheme => "scheme",
        }
    }

    /// Dense index for counter arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Drop counters indexed by cause.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DropCounts([u64; DropCause::ALL.len()]);

impl DropCounts {
    /// Counts one drop.
    pub fn add(&mut self, cause: DropCause) {
        self.0[cause.index()] += 1;
    }
    /// Drops of one cause.
    pub fn get(&self, cause: DropCause) -> u64 {
        self.0[cause.index()]
    }
    /// Drops of all causes.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl serde::Serialize for DropCounts {
    /// A map from cause name to count (every cause present, zeros included).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(DropCause::ALL.len()))?;
        for c in DropCause::ALL {
            m.serialize_entry(c.name(), &self.get(c))?;
        }
        m.end()
    }
}
