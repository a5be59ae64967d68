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
pub fn parse_time(text: &str) -> Result<SimTime, String> {
    parse_with(text, TIME_UNITS, "time", "20ms").map(SimTime)
}

/// Parses a bit rate such as `"10Mbps"` or `"5.5Mb/s"` into bits per second.
pub fn parse_rate(text: &str) -> Result<u64, String> {
    parse_with(text, RATE_UNITS, "rate", "10Mbps")
}

/// Parses a size such as `"1500B"` or `"64KiB"` into bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    parse_with(text, SIZE_UNITS, "size", "1500B")
}

/// Parses a packet count (`"50pkt"`) or a byte size (`"64KB"`).
pub fn parse_amount(text: &str) -> Result<Amount, String> {
    let (num, unit) = split_number(text);
    if PACKET_UNITS.contains(&unit) {
        return match exact_decimal(num, 1) {
            Some(n) => Ok(Amount::Packets(n)),
            None => Err(format!("\"{text}\" is not a whole number of packets (e.g. \"50pkt\")")),
        };
    }
    parse_size(text).map(Amount::Bytes).map_err(|_| {
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
}
