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
use super::medium::{NOT_HEARD, Run, for_station};
use super::medium_cluster::Before;
use super::station::TxState;
use crate::time::SimTime;
use crate::wifi::Wifi;

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
    pub(super) fn walk_quiet(&mut self, n: usize, mut i: usize, upto: SimTime) -> usize {
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
        let mut took = false;
        let air = &self.air;
        let end = air.end();
        let all_quiet = air.all_quiet[n];
        let mut bk = air.break_cursor(i);
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
            let pair = if all_quiet { air.pair_at(n, i, upto, tx_end, &self.params, self.k.eifs, before) } else { None };
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
                air.cluster_body(n, first, upto, &self.params, self.k.eifs, before(at))
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

#[cfg(test)]
mod tests {
    use crate::World;
    use crate::scenario::validate;

    /// A crowded cell: `n` stations on a circle of `r` m, each downloading with TCP SACK, every
    /// third one also uploading UDP (collisions, frames for the radios, own transmissions).
    fn cell(n: usize, r: f64, wireless: &str) -> String {
        let mut s = String::from(
            "[simulation]\nduration = \"3s\"\nwarmup = \"1s\"\n[[nodes]]\nname = \"server\"\n\
             [[nodes]]\nname = \"ap\"\nposition = [0, 0]\n\
             [[links]]\na = \"server\"\nb = \"ap\"\nrate = \"100Mbps\"\ndelay = \"5ms\"\n",
        );
        for i in 0..n {
            let a = i as f64 * 2.0 * std::f64::consts::PI / n as f64;
            s += &format!("[[nodes]]\nname = \"s{i}\"\nposition = [{}, {}]\n", r * a.cos(), r * a.sin());
        }
        s += &format!("[wireless]\nmode = \"infrastructure\"\nap = \"ap\"\n{wireless}\n");
        for i in 0..n {
            s += &format!(
                "[[flows]]\nsrc = \"server\"\ndst = \"s{i}\"\nstart = \"{}ms\"\n\
                 transport = {{ type = \"tcp\", variant = \"sack\", window = \"16pkt\" }}\napp = {{ type = \"bulk\" }}\n",
                1000 + 3 * i
            );
            if i % 3 == 0 {
                s += &format!(
                    "[[flows]]\nsrc = \"s{i}\"\ndst = \"server\"\nstart = \"{}ms\"\napp = {{ type = \"cbr\", rate = \"100kbps\", payload = \"500B\" }}\n",
                    1200 + 5 * i
                );
            }
        }
        s
    }

    /// The run's result (without the event count) and the summaries the walker took.
    fn run(toml: &str, walk: bool) -> (String, u64, Vec<(u64, u64)>) {
        let cfg = validate(toml, "<t>", None).unwrap_or_else(|e| panic!("{e}"));
        let mut w = World::new(&cfg, 7, 0);
        w.wifi.as_mut().expect("a wireless world").air.walk = walk;
        w.run();
        let wifi = w.wifi.as_ref().expect("a wireless world");
        let walked = wifi.air.walked;
        // The radios' busy time and idle-since time at the end, compared exactly.
        let radios = wifi.stations.iter().map(|s| (s.rx.busy_time.as_nanos(), s.idle_since.as_nanos())).collect();
        let mut r = w.result();
        r.events = 0;
        (serde_json::to_string(&r).expect("results serialise"), walked, radios)
    }

    /// The walker gives exactly what the general reader gives (results, every radio's busy and
    /// idle-since time), in cells where it is used a lot, with the SINR receiver in both
    /// flavours (EIFS flag, EIFS NAV: clusters summarised) and the `ns2` receiver.
    #[test]
    fn walker_equals_general_reader() {
        let cases = [
            (24, 30.0, "preset = \"80211b\""),
            (40, 50.0, "preset = \"80211b\"\nflavor = \"ns2\""),
            (16, 20.0, "preset = \"80211b\"\nreceiver = \"ns2\"\nflavor = \"ns2\""),
        ];
        for (n, r, wireless) in cases {
            let t = cell(n, r, wireless);
            let (walked, used, radios_w) = run(&t, true);
            let (general, unused, radios_g) = run(&t, false);
            assert!(used > 100, "the walker was used only {used} times with {wireless:?}");
            assert_eq!(unused, 0);
            assert_eq!(radios_w, radios_g, "radio states differ with {wireless:?}");
            assert!(walked == general, "the walker changes the results with {wireless:?}");
        }
    }
}
