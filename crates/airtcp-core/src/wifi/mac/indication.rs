//! Emitting [`MacIndication`]s: only for stations whose node a scheme listens to
//! ([`Station::set_indications`](super::Station::set_indications)), so they cost one branch
//! otherwise.

use crate::packet::{NodeId, PacketId};
use crate::time::SimTime;
use crate::wifi::Wifi;
use crate::wifi::hooks::{IndicationKind, MacIndication};

/// An indication's fields (see [`MacIndication`]).
#[derive(Copy, Clone, Debug)]
pub(in crate::wifi) struct Ind {
    pub(in crate::wifi) kind: IndicationKind,
    pub(in crate::wifi) pkt: PacketId,
    pub(in crate::wifi) peer: NodeId,
    pub(in crate::wifi) attempt: u32,
    pub(in crate::wifi) will_retry: bool,
}

impl Ind {
    /// An indication about the frame in service `o` (its packet, next hop and attempt number).
    #[inline]
    pub(in crate::wifi) fn of(kind: IndicationKind, o: &super::Outgoing, will_retry: bool) -> Ind {
        Ind { kind, pkt: o.pkt, peer: o.next_hop, attempt: o.attempts, will_retry }
    }
}

impl Wifi {
    /// Station `s` reports `i` at `now` (if a scheme listens to it).
    #[inline]
    pub(in crate::wifi) fn indicate(&mut self, s: usize, i: Ind, now: SimTime) {
        let st = &self.stations[s];
        if st.hooked {
            let ind = MacIndication {
                time: now,
                node: st.node,
                kind: i.kind,
                pkt: i.pkt,
                peer: i.peer,
                attempt: i.attempt,
                will_retry: i.will_retry,
            };
            self.out.indications.push(ind);
        }
    }
}
