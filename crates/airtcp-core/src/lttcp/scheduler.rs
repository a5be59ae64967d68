//! LT-TCP's ACK-clocked scheduler (Subramanian 2008, Sec. 4.2.3): each time the window has room,
//! the next packet is chosen by alternating between the current block's new data/PFEC and the
//! queued RFEC, RFEC of lower-numbered blocks first. When one side has nothing, the other goes.

/// What the sender knows about one block when choosing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// First-round units (data, then PFEC) not yet sent.
    pub first_left: u32,
    /// RFEC units queued.
    pub rfec_left: u32,
}

/// The scheduler's choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The next first-round unit (data or PFEC) of the block at this position.
    First(usize),
    /// An RFEC unit of the block at this position.
    Rfec(usize),
    /// Form a new block from the application's data, then send its first unit.
    NewBlock,
    /// Nothing to send.
    Idle,
}

/// Chooses the next packet. `blocks` are in block order (lowest first); `rfec_turn`: the
/// previous packet was new data/PFEC, so RFEC goes first if any is queued; `app_has_data`: the
/// application has bytes not yet in a block.
pub fn choose(blocks: &[Slot], rfec_turn: bool, app_has_data: bool) -> Choice {
    let rfec = blocks.iter().position(|b| b.rfec_left > 0);
    let first = blocks.iter().position(|b| b.first_left > 0);
    let new = if let Some(i) = first {
        Some(Choice::First(i))
    } else if app_has_data {
        Some(Choice::NewBlock)
    } else {
        None
    };
    match (rfec, new) {
        (Some(r), Some(_)) if rfec_turn => Choice::Rfec(r),
        (_, Some(n)) => n,
        (Some(r), None) => Choice::Rfec(r),
        (None, None) => Choice::Idle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn s(first_left: u32, rfec_left: u32) -> Slot {
        Slot { first_left, rfec_left }
    }

    #[test]
    fn alternates_between_new_data_and_rfec_lowest_block_first() {
        let b = [s(0, 2), s(0, 3), s(4, 0)];
        assert_eq!(choose(&b, true, true), Choice::Rfec(0));
        assert_eq!(choose(&b, false, true), Choice::First(2));
        let b = [s(0, 0), s(0, 3)];
        assert_eq!(choose(&b, true, true), Choice::Rfec(1));
        assert_eq!(choose(&b, false, true), Choice::NewBlock);
    }

    #[test]
    fn one_side_idle_lets_the_other_go() {
        assert_eq!(choose(&[s(0, 2)], false, false), Choice::Rfec(0));
        assert_eq!(choose(&[s(3, 0)], true, false), Choice::First(0));
        assert_eq!(choose(&[s(0, 0)], true, false), Choice::Idle);
        assert_eq!(choose(&[], true, true), Choice::NewBlock);
    }
}
