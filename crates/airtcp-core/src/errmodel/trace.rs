//! Trace-driven losses: a recorded 0/1 sequence per packet, or a list of loss time intervals.
//!
//! Packet traces: `1` means the packet is lost, `0` delivered; the n-th packet seen uses the n-th
//! entry. At the end of the trace it either wraps around (`repeat = true`) or loses nothing more.
//!
//! Interval traces: a packet seen at time `t` is lost when `t` lies in one of the half-open
//! intervals `[start, end)`. Intervals are sorted and non-overlapping (checked when the scenario is
//! validated); lookups walk a cursor forward, so a run costs O(packets + intervals).

use crate::time::SimTime;

/// A per-packet loss pattern.
#[derive(Clone, Debug)]
pub struct PacketTrace {
    pattern: Vec<bool>,
    repeat: bool,
    next: usize,
}

impl PacketTrace {
    /// A trace over `pattern` (true = lost).
    pub fn new(pattern: Vec<bool>, repeat: bool) -> Self {
        PacketTrace { pattern, repeat, next: 0 }
    }

    /// Decides the fate of the next packet.
    pub fn next_lost(&mut self) -> bool {
        if self.next >= self.pattern.len() {
            if !self.repeat || self.pattern.is_empty() {
                return false;
            }
            self.next = 0;
        }
        self.next += 1;
        self.pattern[self.next - 1]
    }
}

/// Loss intervals in time.
#[derive(Clone, Debug)]
pub struct IntervalTrace {
    intervals: Vec<(SimTime, SimTime)>,
    cursor: usize,
}

impl IntervalTrace {
    /// A trace over sorted, non-overlapping `[start, end)` intervals.
    pub fn new(intervals: Vec<(SimTime, SimTime)>) -> Self {
        debug_assert!(intervals.windows(2).all(|w| w[0].1 <= w[1].0));
        IntervalTrace { intervals, cursor: 0 }
    }

    /// Whether a packet seen at `now` is lost. Times must not decrease between calls.
    pub fn is_lost_at(&mut self, now: SimTime) -> bool {
        while self.cursor < self.intervals.len() && self.intervals[self.cursor].1 <= now {
            self.cursor += 1;
        }
        self.intervals.get(self.cursor).is_some_and(|&(s, _)| s <= now)
    }
}

/// Parses a 0/1 packet trace: digits separated by anything except other digits; `#` starts a
/// comment to the end of the line. Returns the pattern or a message naming the bad line.
pub fn parse_packet_trace(text: &str) -> Result<Vec<bool>, String> {
    let mut out = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        for c in line.chars() {
            match c {
                '0' => out.push(false),
                '1' => out.push(true),
                c if c.is_whitespace() || c == ',' => {}
                c => return Err(format!("line {}: unexpected character {c:?}; a packet trace holds only 0 and 1", no + 1)),
            }
        }
    }
    Ok(out)
}

/// Checks that intervals are non-empty, sorted and non-overlapping; `label(i)` names entry `i`
/// in the message (a file line, or an index into an inline list).
pub fn check_intervals(list: &[(SimTime, SimTime)], label: impl Fn(usize) -> String) -> Result<(), String> {
    for (i, &(start, end)) in list.iter().enumerate() {
        if end <= start {
            return Err(format!("{}: interval end {end} is not after its start {start}", label(i)));
        }
        if i > 0 && start < list[i - 1].1 {
            let prev_end = list[i - 1].1;
            return Err(format!(
                "{}: interval starting at {start} overlaps or precedes the previous one (ends {prev_end}); intervals must be sorted",
                label(i)
            ));
        }
    }
    Ok(())
}

/// Parses an interval trace: one `start end` pair per line in seconds (decimals allowed), `#`
/// comments; intervals must be sorted, non-overlapping and non-empty.
pub fn parse_interval_trace(text: &str) -> Result<Vec<(SimTime, SimTime)>, String> {
    let mut out = Vec::new();
    let mut lines = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).collect();
        let parse = |s: &str| crate::units::parse_time(&format!("{s}s"));
        match fields.as_slice() {
            [a, b] => match (parse(a), parse(b)) {
                (Ok(a), Ok(b)) => out.push((a, b)),
                _ => return Err(format!("line {}: expected two non-negative times in seconds, got {line:?}", no + 1)),
            },
            _ => return Err(format!("line {}: expected \"start end\" in seconds, got {line:?}", no + 1)),
        }
        lines.push(no + 1);
    }
    check_intervals(&out, |i| format!("line {}", lines[i]))?;
    Ok(out)
}
