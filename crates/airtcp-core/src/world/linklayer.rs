//! The world's side of a link-layer protocol (`fec::link`, LL-HARQ / LL-ARQ): it starts the
//! engine's transmissions on the channel, schedules the receiver check one propagation delay
//! after each transmission and the feedback one more delay later, and releases or drops the
//! packets the receiver hands on. Only channels with `link_layer` get here.

use super::{Event, World};
use crate::fec::link::engine::Release;
use crate::net::ChannelId;
use crate::stats::DropCause;

impl World {
    /// Starts the next transmission of channel `ch`'s link layer if the transmitter is free and
    /// there is one (a reactive round, or a new frame when the mode allows).
    #[cold]
    pub(super) fn ll_start(&mut self, ch: ChannelId) {
        let now = self.sched.now();
        let c = &mut self.channels[ch.0 as usize];
        if c.busy {
            return;
        }
        let ll = c.ll.as_mut().expect("a link-layer channel");
        let next =
            if !ll.has_ready() && ll.may_start_new() { c.queue.dequeue(now).map(|id| (id, self.packets[id].size)) } else { None };
        match ll.start(now, next, c.loss.as_deref_mut()) {
            Some(tx) => {
                c.busy = true;
                c.counters.busy_time += tx.duration;
                c.counters.tx_packets += 1;
                c.counters.tx_bytes += tx.bytes;
                self.sched.schedule_in(tx.duration, Event::TxDone { chan: ch.0, pkt: tx.seq as u32 });
            }
            None => {
                if c.queue.is_empty() {
                    c.queue.note_idle(now);
                }
            }
        }
    }

    /// A transmission of the link layer ended: the receiver will know in one delay, the sender in
    /// two; the transmitter moves on.
    #[cold]
    pub(super) fn ll_tx_done(&mut self, chan: u32, seq: u32) {
        let c = &mut self.channels[chan as usize];
        c.busy = false;
        let delay = c.delay;
        self.sched.schedule_in(delay, Event::LinkLayer { chan, seq, feedback: false });
        self.sched.schedule_in(delay + delay, Event::LinkLayer { chan, seq, feedback: true });
        self.ll_start(ChannelId(chan));
    }

    /// The receiver's check or the sender's feedback of a link-layer transmission.
    #[cold]
    pub(super) fn on_link_layer(&mut self, chan: u32, seq: u32, feedback: bool) {
        let now = self.sched.now();
        let c = &mut self.channels[chan as usize];
        let ll = c.ll.as_mut().expect("a link-layer channel");
        let seq = ll.seq_of(seq);
        if feedback {
            ll.feedback(seq);
            self.ll_start(ChannelId(chan));
            return;
        }
        for r in ll.receiver_check(seq, now) {
            match r {
                Release::Deliver(id) => self.on_arrive(chan, id.0),
                Release::Drop(id) => {
                    self.channels[chan as usize].counters.drops.add(DropCause::LossProcess);
                    self.drop_packet(id, DropCause::LossProcess);
                }
            }
        }
    }
}
