//! Parsing of quantities written with explicit units: `"20ms"`, `"10Mbps"`, `"1500B"`, `"50pkt"`.
//!
//! Numbers are parsed as exact decimals (no floating point), so `"0.1s"` is exactly 100 000 000 ns
//! and `"5.5Mbps"` is exactly 5 500 000 b/s. Every error says what was expected, with an example,
//! so the scenario validator can pass it straight to the user.

use crate::time::SimTime;

/// A size limit that is either a packet count or a byte count (queue limits, RED thresholds).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Amount {
    /// A number of packets, written `"50pkt"`, `"50p"` or `"50 packets"`.
    Packets(u64),
    /// A number of bytes, written like any size: `"64KB"`, `"1500B"`.
    Bytes(u64),
}

/// Allowed time units, in the order shown in error messages.
const TIME_UNITS: &[(&str, u64)] = &[("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000)];
/// Allowed rate units (decimal SI prefixes, as in networking).
const RATE_UNITS: &[(&str, u64)] = &[
    ("bps", 1),
    ("b/s", 1),
    ("kbps", 1_000),
    ("kb/s", 1_000),
    ("Kbps", 1_000),
    ("Mbps", 1_000_000),
    ("Mb/s", 1_000_000),
    ("Gbps", 1_000_000_000),
    ("Gb/s", 1_000_000_000),
];
/// Allowed size units: decimal (KB = 1000 B) and binary (KiB = 1024 B).
const SIZE_UNITS: &[(&str, u64)] =
    &[("B", 1), ("KB", 1_000), ("kB", 1_000), ("MB", 1_000_000), ("KiB", 1_024), ("MiB", 1_048_576)];
const PACKET_UNITS: &[&str] = &["pkt", "pkts", "p", "packets", "packet"];

/// Largest time any scenario field may hold: 10^9 s (about 31.7 years), i.e. 10^18 ns.
///
/// The clock is a `u64` of nanoseconds (overflow at about 1.8 x 10^19). With every validated
/// time at most 10^18 ns, the simulated time (at most the run's duration) plus any sum of up to
/// eight validated times stays below 2^63 ns, so no schedule computed from validated values can
/// wrap; the kernel additionally saturates time sums (see [`SimTime`]'s `Add`).
pub const MAX_TIME: SimTime = SimTime(1_000_000_000 * 1_000_000_000);
/// Largest rate any scenario field may hold: 1 Tb/s (10^12 b/s), a thousand times today's
/// fastest links; keeps `rate x time` products in range and every packet interval >= 8 ps x size.
pub const MAX_RATE_BPS: u64 = 1_000_000_000_000;
/// Largest size any scenario field may hold: 10^12 B (1 TB; files, buffers, thresholds). Sizes
/// that describe one packet or frame have their own, much smaller limits (e.g. 65,535 B).
pub const MAX_SIZE_BYTES: u64 = 1_000_000_000_000;
/// Largest packet count any scenario field may hold (queue limits, windows): 10^9 packets.
pub const MAX_PACKETS: u64 = 1_000_000_000;

/// `Err` with a message naming the limit when `value > max`.
fn at_most(value: u64, max: u64, what: &str, limit: &str) -> Result<u64, String> {
    if value > max { Err(format!("too large: a {what} may be at most {limit}")) } else { Ok(value) }
}

/// Splits `"12.5 ms"` into the number text and the unit text.
fn split_number(s: &str) -> (&str, &str) {
    let s = s.trim();
    let end = s.char_indices().find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '_')).map(|(i, _)| i).unwrap_or(s.len());
    (&s[..end], s[end..].trim())
}

/// Multiplies the exact decimal `num` by the integer `scale`; `None` if it is not a valid
/// non-negative decimal, overflows, or has more precision than one unit of the result.
fn exact_decimal(num: &str, scale: u64) -> Option<u64> {
    let num = num.replace('_', "");
    if num.is_empty() || num == "." {
        return None;
    }
    let (int_part, frac_part) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num.as_str(), ""),
    };
    if frac_part.contains('.') {
        return None;
    }
    let int: u128 = if int_part.is_empty() { 0 } else { int_part.parse().ok()? };
    let mut value = int.checked_mul(scale as u128)?;
    if !frac_part.is_empty() {
        let digits = frac_part.trim_end_matches('0');
        if !digits.is_empty() {
            let frac: u128 = digits.parse().ok()?;
            let denom = 10u128.checked_pow(digits.len() as u32)?;
            let scaled = frac.checked_mul(scale as u128)?;
            if scaled % denom != 0 {
                return None; // finer than the base unit (e.g. "0.5ns")
            }
            value = value.checked_add(scaled / denom)?;
        }
    }
    u64::try_from(value).ok()
}

fn unit_list(units: &[(&str, u64)]) -> String {
    units.iter().map(|(u, _)| *u).collect::<Vec<_>>().join(", ")
}

fn parse_with(text: &str, units: &[(&str, u64)], what: &str, example: &str) -> Result<u64, String> {
    let (num, unit) = split_number(text);
    if num.is_empty() {
        return Err(format!("expected a {what} such as \"{example}\" (a number followed by a unit: {})", unit_list(units)));
    }
    if unit.is_empty() {
        return Err(format!("a {what} needs a unit, e.g. \"{example}\"; allowed units: {}", unit_list(units)));
    }
    let Some(&(_, scale)) = units.iter().find(|(u, _)| *u == unit) else {
        return Err(format!("unknown {what} unit \"{unit}\"; allowed units: {} (e.g. \"{example}\")", unit_list(units)));
    };
    exact_decimal(num, scale).ok_or_else(|| {
        format!(
            "\"{text}\" is not a valid {what}: the number must be non-negative, not too large, and not finer than 1 {}",
            units[0].0
        )
    })
}

/// Parses a time such as `"20ms"`, `"1.5s"`, `"100us"`.
/// Times above [`MAX_TIME`] are refused.
pub fn parse_time(text: &str) -> Result<SimTime, String> {
    let t = parse_with(text, TIME_UNITS, "time", "20ms")?;
    at_most(t, MAX_TIME.0, "time", "1000000000s (10^9 s, about 31.7 years)").map(SimTime)
}

/// Parses a bit rate such as `"10Mbps"` or `"5.5Mb/s"` into bits per second.
/// Rates above [`MAX_RATE_BPS`] are refused.
pub fn parse_rate(text: &str) -> Result<u64, String> {
    let r = parse_with(text, RATE_UNITS, "rate", "10Mbps")?;
    at_most(r, MAX_RATE_BPS, "rate", "1000Gbps (1 Tb/s)")
}

/// Parses a size such as `"1500B"` or `"64KiB"` into bytes.
/// Sizes above [`MAX_SIZE_BYTES`] are refused.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let b = parse_with(text, SIZE_UNITS, "size", "1500B")?;
    at_most(b, MAX_SIZE_BYTES, "size", "1000000MB (10^12 B)")
}

/// Parses a packet count (`"50pkt"`) or a byte size (`"64KB"`).
pub fn parse_amount(text: &str) -> Result<Amount, String> {
    let (num, unit) = split_number(text);
    if PACKET_UNITS.contains(&unit) {
        return match exact_decimal(num, 1) {
            Some(n) => at_most(n, MAX_PACKETS, "packet count", "1000000000pkt (10^9 packets)").map(Amount::Packets),
            None => Err(format!("\"{text}\" is not a whole number of packets (e.g. \"50pkt\")")),
        };
    }
    parse_size(text).map(Amount::Bytes).map_err(|e| {
        if e.starts_with("too large") {
            return e;
        }
        format!("expected a packet count such as \"50pkt\" or a size such as \"64KB\" (units: pkt, {})", unit_list(SIZE_UNITS))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_exact() {
        assert_eq!(parse_time("0.1s"), Ok(SimTime(100_000_000)));
        assert_eq!(parse_time("20ms"), Ok(SimTime(20_000_000)));
        assert_eq!(parse_time("2.5 us"), Ok(SimTime(2_500)));
        assert_eq!(parse_time("1_000ns"), Ok(SimTime(1_000)));
        assert!(parse_time("0.5ns").is_err());
        assert!(parse_time("20").unwrap_err().contains("needs a unit"));
        assert!(parse_time("20 min").unwrap_err().contains("unknown time unit"));
        assert!(parse_time("-3s").is_err());
        assert!(parse_time("1.2.3s").is_err());
    }

    #[test]
    fn rates_and_sizes() {
        assert_eq!(parse_rate("5.5Mbps"), Ok(5_500_000));
        assert_eq!(parse_rate("11Mb/s"), Ok(11_000_000));
        assert_eq!(parse_rate("64kbps"), Ok(64_000));
        assert_eq!(parse_size("1500B"), Ok(1500));
        assert_eq!(parse_size("1.5KB"), Ok(1500));
        assert_eq!(parse_size("64KiB"), Ok(65536));
        assert!(parse_rate("10Mbs").unwrap_err().contains("Mbps"));
    }

    #[test]
    fn amounts() {
        assert_eq!(parse_amount("50pkt"), Ok(Amount::Packets(50)));
        assert_eq!(parse_amount("50 packets"), Ok(Amount::Packets(50)));
        assert_eq!(parse_amount("250KB"), Ok(Amount::Bytes(250_000)));
        assert!(parse_amount("2.5pkt").is_err());
        assert!(parse_amount("50").is_err());
    }

    #[test]
    fn every_quantity_is_bounded() {
        assert_eq!(parse_time("1000000000s"), Ok(MAX_TIME));
        assert!(parse_time("1000000000.000000001s").unwrap_err().contains("too large"));
        assert!(parse_time("18446744073s").unwrap_err().contains("too large"));
        assert_eq!(parse_rate("1000Gbps"), Ok(MAX_RATE_BPS));
        assert!(parse_rate("1001Gbps").unwrap_err().contains("too large"));
        assert!(parse_size("18446744073709551615B").is_err());
        assert!(parse_size("1000000000001B").unwrap_err().contains("too large"));
        assert!(parse_amount("1000000001pkt").unwrap_err().contains("too large"));
        assert!(parse_amount("1000001MB").unwrap_err().contains("too large"));
        // the bound leaves room: duration + 8 more maximal times < 2^63 ns
        assert!(MAX_TIME.0.checked_mul(9).is_some_and(|t| t < 1 << 63));
    }
}
