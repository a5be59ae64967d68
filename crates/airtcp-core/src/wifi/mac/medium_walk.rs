//! The shared log read by a quiet passive radio without touching its state between summaries.
//!
//! A passive radio reading the log (`medium.rs`) alternates summaries: a run of quiet frames, a
//! collision cluster (`medium_cluster.rs`), a run, a cluster... Read one at a time, each summary
//! settles the radio up to its first arrival (`settle_steps`), checks that the radio is quiet
//! then, reads its NAV, EIFS flag and idle state, and writes its outcome back
//! (`Reception::apply_quiet_run`, which also recomputes the next transition). In a cell of 400
//! stations every listener does this for every collision (about 800 clusters and as many runs
//! per 44,000 frames): the reading around the summaries cost several times the summaries.
//!
//! The walker reads the same summaries in the same order with the radio's state in local values.
//! It starts only on a radio with nothing to do ([`Reception::settled_quiet`]: nothing locked,
//! on the air or queued, not busy, no transition due), where settling to any later instant
//! changes nothing; after each summary the radio is again in such a state (quiet from the
//! summary's end, NAV included), as long as its own last transmission ended before that. So the
//! settles are skipped, the quiet checks hold, the state is read from the locals, and the
//! outcomes compose: the busy time is the sum of the summaries', the NAV, EIFS flag, idle flag
//! and idle-since time are the last one's, the time of the last frame heard the latest. The
//! walker writes that back once and stops where the general reader would do anything else
//! (insert a frame, step a transition), which then continues from there: bit-identical by
//! construction, and checked against the general reader by
//! `tests::walker_equals_general_reader` and `tests/wifi_lazy.rs`.
//!
//! The limit of a long run (the first break of the log at or after it) comes from a cursor into
//! the breaks that moves forward with the walk instead of a binary search per run.

use super::backoff::Backoff;
use super::medium::{AirLog, NOT_HEARD, Run, for_station};
use super::medium_cluster::Before;
use super::station::TxState;
use crate::time::SimTime;
use crate::wifi::Wifi;
use crate::wifi::params::WifiParams;

/// The state of a quiet radio that a walk carries in local values.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Quiet {
    /// NAV.
    nav: SimTime,
    /// The radio is quiet (NAV included) from here on: the last summary's end.
    fin: SimTime,
    /// EIFS flag.
    eifs: bool,
    /// The MAC's idle flag.
    was_idle: bool,
    /// The MAC's idle-since time.
    idle_since: SimTime,
    /// Transmission start of the last frame heard.
    heard_at: SimTime,
    /// Busy time added by the walk.
    busy: SimTime,
}

impl Quiet {
    /// A run summarised (`Wifi::pull_entries`'s application of a [`Run`]).
    #[inline]
    fn take_run(&mut self, run: &Run, tx_idle: bool) {
        self.busy += run.busy;
        self.nav = run.nav;
        self.fin = run.fin;
        self.eifs = false;
        if tx_idle {
            self.was_idle = true;
            self.idle_since = run.fin;
        } else {
            self.was_idle = false;
        }
        self.heard_at = self.heard_at.max(run.heard_at);
    }
}

impl Wifi {
    /// Reads passive station `n`'s log entries from `i` as the general reader
    /// (`Wifi::pull_entries`) would, as long as it only summarises, with the radio's state in
    /// local values (see the module's documentation); applies the outcome and returns the entry
    /// where the general reader must continue (`i` if the walker could not start).
    pub(super) fn walk_quiet(&mut self, n: usize, i: usize, upto: SimTime) -> usize {
        let st = &self.stations[n];
        if st.backoff != Backoff::Off || !st.rx.settled_quiet() {
            return i;
        }
        let tx_idle = st.tx_state == TxState::Idle;
        let tx_end = st.rx.tx_end;
        let mut q = Quiet {
            nav: st.rx.nav_until,
            fin: SimTime::ZERO,
            eifs: st.rx.eifs_pending,
            was_idle: st.was_idle,
            idle_since: st.idle_since,
            heard_at: st.heard_at,
            busy: SimTime::ZERO,
        };
        let (i, took) = self.air.walk(n, i, upto, tx_idle, tx_end, &mut q, &self.params, self.k.eifs);
        // Entries skipped unheard change nothing.
        if took {
            #[cfg(test)]
            {
                self.air.walked += 1;
            }
            let st = &mut self.stations[n];
            st.rx.apply_quiet_run(q.busy, q.nav, q.fin);
            st.rx.eifs_pending = q.eifs;
            st.was_idle = q.was_idle;
            st.idle_since = q.idle_since;
            st.heard_at = q.heard_at;
        }
        i
    }
}

impl AirLog {
    /// The walk of [`Wifi::walk_quiet`] on the log alone: station `n`, quiet in state `q` at
    /// entry `i` (its transmitter idle or not, its own transmission over at `tx_end`), reads the
    /// summaries from `i` on, up to `upto`. Returns the entry where the general reader must
    /// continue and whether anything was taken (`q` then holds the radio's state there).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn walk(
        &self,
        n: usize,
        mut i: usize,
        upto: SimTime,
        tx_idle: bool,
        tx_end: SimTime,
        q: &mut Quiet,
        params: &WifiParams,
        eifs: SimTime,
    ) -> (usize, bool) {
        let air = self;
        let mut took = false;
        let end = air.end();
        let all_quiet = air.all_quiet[n];
        let mut bk = air.break_cursor(i);
        // No use trying the skip again before this entry (`AirLog::skip`).
        let mut skip_from = if all_quiet { i } else { usize::MAX };
        while i < end {
            let r = air.rec(i);
            let h = air.hear(n, r.tx);
            if h.idx == NOT_HEARD {
                i += 1;
                continue;
            }
            // What the general reader requires before it tries a summary.
            if !h.quiet || for_station(&r.frame, n) {
                break;
            }
            // Collisions taken with their records (`medium_skip.rs`), up to the start of a long
            // run, which is then read below as without the skip.
            if i >= skip_from {
                let (land, busy, stop) = air.skip(n, i, upto, q.nav, tx_end, params, eifs);
                skip_from = stop;
                if land != i {
                    q.busy += busy;
                    (i, took) = (land, true);
                    #[cfg(test)]
                    air.skipped.set(air.skipped.get() + 1);
                }
            }
            // The summaries in the general reader's order (long run, short run, cluster; the pair
            // path goes before the short run, see below); each must find the radio quiet at its
            // first arrival (own transmission over: the other conditions hold).
            if all_quiet {
                let lim = air.run_limit_at(n, i, &mut bk);
                if let Some(s) = air.long_run_start(n, i, lim, upto)
                    && tx_end <= s
                    && let Some(run) = air.long_run_body(n, i, lim, q.nav, upto)
                {
                    q.take_run(&run, tx_idle);
                    (i, took) = (run.next, true);
                    continue;
                }
            }
            let before = |at| Before {
                at,
                nav_until: q.nav,
                eifs_pending: q.eifs,
                tx_idle,
                was_idle: q.was_idle,
                idle_since: q.idle_since,
            };
            // The commonest cluster, two frames, straight from the log, before the short run: a
            // pair that the pair path answers overlaps at the radio (the later arrival starts
            // before the earlier one ends), so the next transmission starts before the first
            // frame ends there and the short run cannot start; trying it first gives the same.
            let pair = if all_quiet { air.pair_at(n, i, upto, tx_end, params, eifs, before) } else { None };
            if pair.is_none()
                && let Some(s) = air.quiet_run_start(n, i, upto)
                && tx_end <= s
                && let Some(run) = air.quiet_run_body(n, i, q.nav, upto)
            {
                q.take_run(&run, tx_idle);
                (i, took) = (run.next, true);
                continue;
            }
            // Any other cluster the general way.
            let cluster = pair.or_else(|| {
                let (at, first) = air.cluster_start(n, i, upto).filter(|&(at, _)| tx_end <= at)?;
                air.cluster_body(n, first, upto, params, eifs, before(at))
            });
            if let Some((o, last)) = cluster {
                q.busy += o.busy;
                q.nav = o.nav_until;
                q.fin = o.fin;
                q.eifs = o.eifs_pending;
                q.was_idle = o.was_idle;
                q.idle_since = o.idle_since;
                q.heard_at = q.heard_at.max(o.last_t);
                (i, took) = (last, true);
                // Quiet again from `fin` only if the NAV is over by then.
                if o.nav_until > o.fin {
                    break;
                }
                continue;
            }
            break;
        }
        (i, took)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::World;
    use crate::scenario::validate;
    use crate::wifi::StationSpec;
    use crate::wifi::channel::Channel;
    use crate::wifi::error_control::Coding;
    use crate::wifi::mac::frame::{BROADCAST, Frame, FrameKind};
    use crate::wifi::mac::medium::{AirRec, INVOLVED};
    use crate::wifi::params::MacFlavor;

    include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/crowded_cell.rs"));

    /// How the log is read: by the general reader, the walker without the skip, or both.
    #[derive(Copy, Clone, Debug)]
    enum Mode {
        General,
        Walk,
        Skip,
    }

    /// The run's result (without the event count), the walks and skips taken, and every radio's
    /// busy and idle-since time at the end, before the result settles the radios.
    fn run(toml: &str, mode: Mode) -> (String, u64, u64, Vec<(u64, u64)>) {
        let r = run_with(toml, |air| {
            air.walk = !matches!(mode, Mode::General);
            air.skip = matches!(mode, Mode::Skip);
        });
        (r.result, r.walked, r.skipped, r.radios)
    }

    /// What [`run_with`] observed.
    struct Observed {
        /// The result, without the event count.
        result: String,
        walked: u64,
        skipped: u64,
        cuts: u64,
        /// Every radio's busy and idle-since time when the run ends, as the radios left them.
        radios: Vec<(u64, u64)>,
        /// The same once the result has settled every radio to the end.
        settled: Vec<(u64, u64)>,
    }

    /// A run with the log set up by `setup`.
    fn run_with(toml: &str, setup: impl FnOnce(&mut AirLog)) -> Observed {
        let cfg = validate(toml, "<t>", None).unwrap_or_else(|e| panic!("{e}"));
        let mut w = World::new(&cfg, 7, 0);
        setup(&mut w.wifi.as_mut().expect("a wireless world").air);
        w.run();
        let states = |w: &World| {
            let wifi = w.wifi.as_ref().expect("a wireless world");
            wifi.stations.iter().map(|s| (s.rx.busy_time.as_nanos(), s.idle_since.as_nanos())).collect::<Vec<_>>()
        };
        let wifi = w.wifi.as_ref().expect("a wireless world");
        let (walked, skipped, cuts) = (wifi.air.walked, wifi.air.skipped.get(), wifi.air.cuts);
        let radios = states(&w);
        let mut r = w.result();
        r.events = 0;
        let result = serde_json::to_string(&r).expect("results serialise");
        Observed { result, walked, skipped, cuts, radios, settled: states(&w) }
    }

    /// The walker, with and without the skip over collisions (`medium_skip.rs`), gives exactly
    /// what the general reader gives (results, every radio's busy and idle-since time), in cells
    /// where both are used a lot, with the SINR receiver in both flavours (EIFS flag, EIFS NAV:
    /// clusters summarised) and the `ns2` receiver (no pair path: no skip).
    #[test]
    fn walker_equals_general_reader() {
        let cases = [
            (24, 30.0, "preset = \"80211b\"", true),
            (40, 50.0, "preset = \"80211b\"\nflavor = \"ns2\"", true),
            (16, 20.0, "preset = \"80211b\"\nreceiver = \"ns2\"\nflavor = \"ns2\"", false),
        ];
        for (n, r, wireless, skips) in cases {
            let t = crowded_cell(n, r, 3, "3s", wireless);
            let (skip, walked_s, skipped, radios_s) = run(&t, Mode::Skip);
            let (walk, walked, unskipped, radios_w) = run(&t, Mode::Walk);
            let (general, unused, _, radios_g) = run(&t, Mode::General);
            assert!(walked > 100 && walked_s > 100, "the walker was used only {walked} times with {wireless:?}");
            assert_eq!((unused, unskipped), (0, 0));
            assert!(!skips || skipped > 100, "the skip was used only {skipped} times with {wireless:?}");
            assert_eq!(radios_w, radios_g, "radio states differ with {wireless:?} (walker)");
            assert_eq!(radios_s, radios_g, "radio states differ with {wireless:?} (skip)");
            assert!(walk == general, "the walker changes the results with {wireless:?}");
            assert!(skip == general, "the skip changes the results with {wireless:?}");
        }
    }

    /// A catch-up at compaction that stops at a quiet point of the log (`Wifi::catch_up_to`)
    /// gives exactly what a catch-up to the log's end gives, with the walker or the general
    /// reader: the same results and every radio's busy and idle-since time, in the crowded cells
    /// above with the log compacted every 256 entries (about 40 times a simulated second), and
    /// the cut taken often. (Before the result settles them, radios caught up to a cut have read
    /// less of the log than radios caught up to its end, as radios that act at different times
    /// do: the states compared are the settled ones.)
    #[test]
    fn catch_up_to_a_quiet_cut_equals_catch_up_to_the_end() {
        let cases = [
            (24, 30.0, "preset = \"80211b\""),
            (40, 50.0, "preset = \"80211b\"\nflavor = \"ns2\""),
            (16, 20.0, "preset = \"80211b\"\nreceiver = \"ns2\"\nflavor = \"ns2\""),
        ];
        for (n, r, wireless) in cases {
            let t = crowded_cell(n, r, 3, "3s", wireless);
            let runs: Vec<_> = [(true, true), (true, false), (false, true), (false, false)]
                .into_iter()
                .map(|(walk, cut)| {
                    let o = run_with(&t, |air| {
                        (air.walk, air.cut, air.compact_at) = (walk, cut, 256);
                    });
                    (walk, cut, o)
                })
                .collect();
            let reference = &runs[3].2;
            assert_eq!(reference.cuts, 0);
            for (walk, cut, o) in &runs {
                assert!(!cut || o.cuts > 50, "the cut was taken only {} times with {wireless:?}", o.cuts);
                assert!(o.settled == reference.settled, "radio states differ with {wireless:?} (walker {walk}, cut {cut})");
                assert!(o.result == reference.result, "results differ with {wireless:?} (walker {walk}, cut {cut})");
            }
        }
    }

    /// The walk with the skip against the walk without it, on random logs of a cell whose
    /// radios all hear each other quietly: exchanges (data, ACK after SIFS, gaps of DIFS and
    /// slots), collisions of two frames (same instant or within a propagation delay, followed by
    /// a gap or by an ACK that a captured frame's NAV still covers), three-way collisions,
    /// broadcasts and frames for the reader; read by every radio from every entry with random
    /// states (NAV, EIFS flag, idle flag and time, transmitter busy, own transmission not over)
    /// and bounds, with the involvements the log would hold. The same entry to continue from and
    /// the same state (busy time to the nanosecond, NAV, EIFS flag, idle state, last heard) in
    /// every case; the skip must be taken often.
    #[test]
    fn skip_equals_walk_on_random_logs() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut rnd = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let us = SimTime::from_micros;
        let (mut skipped, mut cases) = (0, 0);
        for flavor in [MacFlavor::Standard, MacFlavor::Ns2, MacFlavor::Standard, MacFlavor::Ns2] {
            let params = WifiParams { flavor, ..WifiParams::ieee80211b() };
            let eifs = params.eifs();
            let radios = 12;
            let specs: Vec<StationSpec> = (0..radios)
                .map(|i| {
                    let (r, a) = (2.0 + rnd(55) as f64, rnd(628) as f64 / 100.0);
                    StationSpec {
                        node: crate::packet::NodeId(i as u32),
                        position: [r * a.cos(), r * a.sin(), 0.0],
                        ap: i == 0,
                        record_queue: false,
                        record_delay: false,
                        retry_limits: None,
                        queue: None,
                    }
                })
                .collect();
            let ch = Channel::of_stations(&specs, &params);
            let mut log = AirLog::with(&ch, &params, true);
            assert!(log.all_quiet.iter().all(|&q| q), "every radio hears every other quietly");
            let frame = |tx: u32, ra: u32, kind: FrameKind, duration: SimTime| Frame {
                kind,
                retry: false,
                src: tx,
                ra,
                seq: 0,
                duration,
                bytes: 100,
                pkt: None,
                rate_kbps: 11_000,
                coding: Coding::Plain,
            };
            let nav = SimTime::from_micros(314);
            let mut t = us(1000);
            // Radios 0-3 talk; frames for the others (4-11) are rare.
            let talker = |r: u64| r as u32 % 4;
            let addressee =
                |r: u64, tx: u32| if r.is_multiple_of(25) { 4 + (r / 25) as u32 % 8 } else { (tx + 1 + r as u32 % 3) % 4 };
            for _ in 0..300 {
                let (tx, ra) = (talker(rnd(4)), rnd(1000));
                let ra = if ra.is_multiple_of(40) { BROADCAST } else { addressee(ra, tx) };
                let dur = [us(242), us(1304), us(200 + rnd(1300))][rnd(3) as usize];
                match rnd(8) {
                    // A collision: a second frame in the same slot (a propagation delay or less
                    // later), then a gap, or an ACK of the first after SIFS, or a third frame.
                    0 | 1 => {
                        let tx2 = (tx + 1 + rnd(3) as u32) % 4;
                        let dur2 = [us(242), us(1304), us(200 + rnd(1300))][rnd(3) as usize];
                        let t2 = t + SimTime(rnd(3) * rnd(200));
                        log.push(AirRec { t, dur, tx, frame: frame(tx, ra, FrameKind::Data, nav), cum: SimTime::ZERO });
                        log.push(AirRec {
                            t: t2,
                            dur: dur2,
                            tx: tx2,
                            frame: frame(tx2, tx, FrameKind::Data, nav),
                            cum: SimTime::ZERO,
                        });
                        let end = (t + dur).max(t2 + dur2);
                        match rnd(4) {
                            0 => {
                                let a = t + dur + us(10) + SimTime(rnd(400));
                                log.push(AirRec {
                                    t: a.max(t2),
                                    dur: us(248),
                                    tx: ra % 4,
                                    frame: frame(ra % 4, tx, FrameKind::Ack, SimTime::ZERO),
                                    cum: SimTime::ZERO,
                                });
                                t = a.max(t2) + us(248);
                            }
                            1 => {
                                let t3 = t2 + SimTime(rnd(300));
                                log.push(AirRec {
                                    t: t3,
                                    dur: us(300),
                                    tx: (tx2 + 1) % 4,
                                    frame: frame((tx2 + 1) % 4, tx, FrameKind::Data, nav),
                                    cum: SimTime::ZERO,
                                });
                                t = end.max(t3 + us(300));
                            }
                            _ => t = end,
                        }
                        t += eifs.min(us(rnd(500)));
                    }
                    // An exchange: data, ACK after SIFS (unless broadcast).
                    _ => {
                        log.push(AirRec {
                            t,
                            dur,
                            tx,
                            frame: frame(tx, ra, FrameKind::Data, if ra == BROADCAST { SimTime::ZERO } else { nav }),
                            cum: SimTime::ZERO,
                        });
                        t += dur;
                        if ra != BROADCAST {
                            let a = t + us(10) + SimTime(rnd(300));
                            log.push(AirRec {
                                t: a,
                                dur: us(248),
                                tx: ra,
                                frame: frame(ra, tx, FrameKind::Ack, SimTime::ZERO),
                                cum: SimTime::ZERO,
                            });
                            t = a + us(248);
                        }
                    }
                }
                // The next transmission after DIFS and slots, or within a few hundred ns of the
                // end of one of the last frames' NAV or EIFS NAV at its transmitter (the bounds of
                // the collision records are a largest propagation delay from there).
                let last = log.end();
                let mut edge = SimTime::ZERO;
                for k in last.saturating_sub(3).max(log.base)..last {
                    let r = log.rec(k);
                    let extra = if rnd(2) == 0 { r.frame.duration } else { eifs };
                    edge = edge.max(r.t + r.dur + extra);
                }
                if rnd(3) == 0 {
                    t = t.max(edge + SimTime(rnd(1200)) - SimTime(600));
                } else {
                    t += us(50 + 20 * rnd(32));
                }
            }
            let end = log.end();
            for n in 0..radios {
                for i in log.base..end {
                    // The involvements the log holds for a reader whose cursor is at `i`.
                    let inv: Vec<usize> =
                        (i..end).filter(|&k| log.rec(k).tx as usize == n || log.rec(k).frame.ra == n as u32).collect();
                    if inv.len() <= INVOLVED {
                        log.involved_len[n] = inv.len() as u8;
                        log.involved[n][..inv.len()].copy_from_slice(&inv);
                    } else {
                        log.involved_len[n] = u8::MAX;
                    }
                    let r = *log.rec(i);
                    for _ in 0..2 {
                        let upto = match rnd(3) {
                            0 => SimTime::MAX,
                            1 => r.t + us(rnd(40_000)),
                            _ => log.rec(end - 1).t + us(rnd(3000)),
                        };
                        let tx_end = if rnd(4) == 0 { r.t + SimTime(rnd(4000)) - SimTime(2000) } else { SimTime::ZERO };
                        let q0 = Quiet {
                            nav: if rnd(3) == 0 { r.t + SimTime(rnd(2000)) - SimTime(1000) } else { SimTime(rnd(1000)) },
                            fin: SimTime(rnd(1000)),
                            eifs: rnd(2) == 0,
                            was_idle: rnd(2) == 0,
                            idle_since: SimTime(rnd(1_000_000)),
                            heard_at: SimTime(rnd(1_000_000)),
                            busy: SimTime(rnd(1000)),
                        };
                        let tx_idle = rnd(4) != 0;
                        let before = log.skipped.get();
                        let mut q = q0;
                        log.skip = true;
                        let with = log.walk(n, i, upto, tx_idle, tx_end, &mut q, &params, eifs);
                        let with = (with, q);
                        let took = log.skipped.get() - before;
                        let mut q = q0;
                        log.skip = false;
                        let without = log.walk(n, i, upto, tx_idle, tx_end, &mut q, &params, eifs);
                        let without = (without, q);
                        assert_eq!(
                            with, without,
                            "radio {n} from entry {i} ({flavor:?}), upto {upto:?}, tx_end {tx_end:?}, {q0:?}"
                        );
                        skipped += took;
                        cases += 1;
                    }
                }
            }
        }
        assert!(skipped > 2000, "the skip was taken only {skipped} times in {cases} cases");
    }
}
