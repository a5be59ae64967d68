//! Wired transmission ends (issue 19, `world/net.rs`): a packet offered to a transmitter at the
//! very instant its serialisation ends, by an event that comes before the end, is held and
//! started when that event returns instead of waiting in the queue for an event of its own.
//! Holding must change no result: every field but the event count is the same as with the
//! packet queued, on dumbbells whose flows tie to the nanosecond at every hop (equal rates),
//! with losses, and with RED at the bottleneck.

use airtcp_core::World;
use airtcp_core::scenario::validate;

/// `flows` TCP flows from `s<i>` to `d<i>` over one bottleneck, every link 100 Mb/s (so packets
/// of a window reach each hop exactly when the previous one's serialisation ends there).
fn dumbbell(flows: usize, bottleneck_extra: &str, access_extra: &str) -> String {
    let mut s = format!(
        "[simulation]\nduration = \"4s\"\nseed = 3\n[[nodes]]\nname = \"r1\"\n[[nodes]]\nname = \"r2\"\n\
         [[links]]\nname = \"bottleneck\"\na = \"r1\"\nb = \"r2\"\nrate = \"100Mbps\"\ndelay = \"20ms\"\n{bottleneck_extra}\n"
    );
    for i in 0..flows {
        s += &format!(
            "[[nodes]]\nname = \"s{i}\"\n[[nodes]]\nname = \"d{i}\"\n\
             [[links]]\na = \"s{i}\"\nb = \"r1\"\nrate = \"100Mbps\"\ndelay = \"1ms\"\n{access_extra}\n\
             [[links]]\na = \"r2\"\nb = \"d{i}\"\nrate = \"100Mbps\"\ndelay = \"1ms\"\n\
             [[flows]]\nsrc = \"s{i}\"\ndst = \"d{i}\"\nstart = \"{}ms\"\n\
             transport = {{ type = \"tcp\", variant = \"sack\", preset = \"ns2\", window = \"64pkt\" }}\n\
             app = {{ type = \"bulk\" }}\n",
            100 + 100 * i / flows
        );
    }
    s
}

/// The result as JSON without its event count, and the event count.
fn run(toml: &str, hold: bool) -> (serde_json::Value, u64) {
    let cfg = validate(toml, "<test>", None).unwrap();
    let mut w = World::new(&cfg, cfg.seed, 0);
    if !hold {
        w.queue_instead_of_holding();
    }
    w.run();
    let mut v = serde_json::to_value(w.result()).unwrap();
    let events = v.as_object_mut().unwrap().remove("events").unwrap().as_u64().unwrap();
    (v, events)
}

fn holding_changes_nothing(toml: &str) {
    let (held, held_events) = run(toml, true);
    let (queued, queued_events) = run(toml, false);
    assert_eq!(held, queued, "holding changed a result");
    assert!(held_events < queued_events, "no packet was held ({held_events} events against {queued_events})");
    let delivered = held["flows"].as_array().unwrap().iter().map(|f| f["rx_packets"].as_u64().unwrap()).sum::<u64>();
    assert!(delivered > 2_000, "the flows ran ({delivered} packets)");
}

#[test]
fn ties_at_every_hop() {
    holding_changes_nothing(&dumbbell(1, "", ""));
    holding_changes_nothing(&dumbbell(10, "queue = { type = \"drop_tail\", limit = \"20pkt\" }", ""));
}

#[test]
fn with_losses_and_red() {
    holding_changes_nothing(&dumbbell(
        4,
        "loss = { type = \"bernoulli\", p = 0.01 }",
        "loss = { type = \"bernoulli\", p = 0.002 }",
    ));
    holding_changes_nothing(&dumbbell(
        6,
        "queue = { type = \"red\", limit = \"60pkt\", min_th = \"10pkt\", max_th = \"30pkt\", max_p = 0.1 }",
        "",
    ));
}
