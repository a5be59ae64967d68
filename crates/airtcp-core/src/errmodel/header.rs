//! Whether the *header* of a lost frame survived: the partial-corruption view a header checksum
//! (TCP HACK, Balan et al., INFOCOM 2001) needs, derived from the same random draw that decided
//! the loss, so no extra draw is taken and every loss decision stays exactly as it was.
//!
//! A frame of `b` bytes is judged lost when its uniform draw `u` falls below its loss
//! probability `P(b)`. Under independent bit errors at rate `ber`, with the header the first
//! `h` of those bytes, the frame splits into
//!
//! ```text
//! P(lost, header intact) = (1 - ber)^(8h) (1 - (1 - ber)^(8(b - h)))
//!                        = (1 - ber)^(8h) - (1 - ber)^(8b)            (Eq. H1)
//! P(lost)                = 1 - (1 - ber)^(8b)
//! P(header intact | lost) = ((1 - ber)^(8h) - (1 - ber)^(8b)) / (1 - (1 - ber)^(8b))
//! ```
//!
//! and since `P(lost, header intact) <= P(lost)`, the lost draws `u < P(lost, header intact)` are
//! exactly a sub-interval of the lost ones: a lost frame has an intact header iff
//! `u < (1 - ber)^(8h) - (1 - ber)^(8b)`. Conditional on the loss, `u` is uniform on
//! `[0, P(lost))`, so this gives the conditional probability above exactly.
//!
//! A per-frame Bernoulli loss `p` is read as the bit-error rate that loses a `b`-byte frame with
//! probability `p`, `(1 - ber)^(8b) = 1 - p`, so Eq. H1 becomes `(1 - p)^(h/b) - (1 - p)`.
//! Models whose loss is not a draw against a per-frame probability (Gilbert-Elliott, two-state,
//! bursts, traces, periodic capture, Bluetooth) carry no bit-level information: their lost frames
//! never have an intact header (a documented limitation: `docs/models/loss.md`).

use super::ber_packet_loss;

/// `P(lost, header intact)` (Eq. H1) for a `bytes`-byte frame whose first `head` bytes are the
/// header, under independent bit errors at rate `ber`.
pub fn lost_with_intact_header_ber(ber: f64, bytes: u32, head: u32) -> f64 {
    let head = head.min(bytes);
    // (1 - ber)^(8h) - (1 - ber)^(8b) = P(lost b) - P(lost h), accurate at tiny BER.
    (ber_packet_loss(ber, bytes) - ber_packet_loss(ber, head)).max(0.0)
}

/// `P(lost, header intact)` for a per-frame loss probability `p` read as bit errors over the
/// frame's `bytes` bytes: `(1 - p)^(h/b) - (1 - p)`.
pub fn lost_with_intact_header_frame(p: f64, bytes: u32, head: u32) -> f64 {
    if bytes == 0 || p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 0.0;
    }
    let frac = head.min(bytes) as f64 / bytes as f64;
    // (1 - p)^frac - (1 - p) = -expm1(frac ln(1-p)) ... written as a difference of losses.
    let keep = (-p).ln_1p();
    let lost_all = -keep.exp_m1();
    let lost_head = -(frac * keep).exp_m1();
    (lost_all - lost_head).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ber_split_matches_the_closed_form() {
        let (ber, b, h) = (1e-5, 1074, 74);
        let q = lost_with_intact_header_ber(ber, b, h);
        let closed = (1.0f64 - ber).powi(8 * h as i32) - (1.0f64 - ber).powi(8 * b as i32);
        assert!((q - closed).abs() < 1e-12, "{q} vs {closed}");
        // Conditional on the loss: about the payload's share of the bits at small BER.
        let cond = q / ber_packet_loss(ber, b);
        assert!((cond - 1000.0 / 1074.0).abs() < 0.01, "{cond}");
        assert!(q < ber_packet_loss(ber, b));
    }

    #[test]
    fn header_only_frames_never_survive_a_loss() {
        assert_eq!(lost_with_intact_header_ber(1e-3, 40, 40), 0.0);
        assert_eq!(lost_with_intact_header_frame(0.5, 40, 40), 0.0);
    }

    #[test]
    fn frame_split_is_the_equivalent_ber_split() {
        let (p, b, h) = (0.09f64, 1074, 74);
        let ber = 1.0 - (1.0 - p).powf(1.0 / (8.0 * b as f64));
        let a = lost_with_intact_header_frame(p, b, h);
        let c = lost_with_intact_header_ber(ber, b, h);
        assert!((a - c).abs() < 1e-9, "{a} vs {c}");
        assert!(a > 0.0 && a < p);
    }
}
