//! Malformed scenarios: each must give a clear, specific message naming the field path, the bad
//! value where there is one, and what is allowed — never a panic.

mod common;

use airtcp_core::scenario::validate;

/// A valid base: two nodes, one link, one flow. Cases replace parts of it.
const NODES: &str = "[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n";
const SIM: &str = "[simulation]\nduration = \"10s\"\n";
const LINK: &str = "[[links]]\na = \"a\"\nb = \"b\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\n";
const FLOW: &str = "[[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"cbr\", rate = \"1Mbps\" }\n";

fn with_link(extra: &str) -> String {
    format!("{SIM}{NODES}{LINK}{extra}\n{FLOW}")
}

/// Two radios 200 m apart.
const RADIOS: &str = "[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [200, 0]\n";

fn wifi(lines: &str) -> String {
    // Keys first, then any sub-tables the case adds.
    format!("{SIM}{RADIOS}[wireless]\n{lines}\n{FLOW}")
}

fn with_flow(flow: &str) -> String {
    format!("{SIM}{NODES}{LINK}{flow}")
}

/// A TCP bulk flow whose transport table gets `keys`.
fn with_tcp(keys: &str) -> String {
    with_flow(&format!(
        "[[flows]]\nsrc = \"a\"\ndst = \"b\"\ntransport = {{ type = \"tcp\", {keys} }}\napp = {{ type = \"bulk\" }}\n"
    ))
}

/// (case, scenario, expected path, expected fragments of the message)
fn cases() -> Vec<(&'static str, String, &'static str, Vec<&'static str>)> {
    vec![
        ("toml syntax", format!("{SIM}[[nodes]\nname = 1"), "", vec!["not valid TOML", "line 3"]),
        (
            "unknown section",
            format!("{SIM}{NODES}{LINK}{FLOW}[simulaton]\nx = 1\n"),
            "simulaton",
            vec!["unknown field `simulaton`", "simulation"],
        ),
        ("missing simulation", format!("{NODES}{LINK}{FLOW}"), "simulation", vec!["missing [simulation]", "duration"]),
        (
            "bare number",
            format!("[simulation]\nduration = 30\n{NODES}{LINK}{FLOW}"),
            "simulation.duration",
            vec!["bare number", "\"20ms\""],
        ),
        (
            "bad time unit",
            format!("[simulation]\nduration = \"30 min\"\n{NODES}{LINK}{FLOW}"),
            "simulation.duration",
            vec!["unknown time unit \"min\"", "ms"],
        ),
        (
            "negative seed",
            format!("[simulation]\nduration = \"1s\"\nseed = -4\n{NODES}{LINK}{FLOW}"),
            "simulation.seed",
            vec!["non-negative"],
        ),
        (
            "warmup too long",
            format!("[simulation]\nduration = \"1s\"\nwarmup = \"2s\"\n{NODES}{LINK}{FLOW}"),
            "simulation.warmup",
            vec!["before the run"],
        ),
        (
            "duplicate node",
            format!("{SIM}{NODES}[[nodes]]\nname = \"a\"\n{LINK}{FLOW}"),
            "nodes[2].name",
            vec!["duplicate name", "nodes[0]"],
        ),
        (
            "bad node name",
            format!("{SIM}{NODES}[[nodes]]\nname = \"h 1\"\n{LINK}{FLOW}"),
            "nodes[2].name",
            vec!["letters, digits"],
        ),
        (
            "unknown node in link",
            format!("{SIM}{NODES}[[links]]\na = \"a\"\nb = \"c\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n{FLOW}"),
            "links[0].b",
            vec!["no node has this name", "known nodes: a, b"],
        ),
        (
            "rate typo",
            format!("{SIM}{NODES}[[links]]\na = \"a\"\nb = \"b\"\nrate = \"10Mbs\"\ndelay = \"1ms\"\n{FLOW}"),
            "links[0].rate",
            vec!["\"10Mbs\"", "unknown rate unit", "Mbps"],
        ),
        (
            "unknown link key",
            format!("{SIM}{NODES}{LINK}rte = \"1Mbps\"\n{FLOW}"),
            "links[0].rte",
            vec!["unknown field `rte`", "expected one of"],
        ),
        (
            "wrong type",
            format!("{SIM}{NODES}[[links]]\na = \"a\"\nb = true\nrate = \"1Mbps\"\ndelay = \"1ms\"\n{FLOW}"),
            "links[0].b",
            vec!["invalid type", "string"],
        ),
        (
            "unknown queue type",
            with_link("queue = { type = \"fifo\" }"),
            "links[0].queue.type",
            vec!["\"fifo\"", "drop_tail", "red"],
        ),
        (
            "zero queue limit",
            with_link("queue = { type = \"drop_tail\", limit = \"0pkt\" }"),
            "links[0].queue.limit",
            vec!["at least 1"],
        ),
        (
            "red thresholds order",
            with_link("queue = { type = \"red\", min_th = \"20pkt\", max_th = \"10pkt\" }"),
            "links[0].queue.min_th",
            vec!["min_th < max_th"],
        ),
        ("red max_p", with_link("queue = { type = \"red\", max_p = 1.5 }"), "links[0].queue.max_p", vec!["(0, 1]"]),
        (
            "red flavor",
            with_link("queue = { type = \"red\", flavor = \"ns-2\" }"),
            "links[0].queue.flavor",
            vec!["ns-2", "`standard` or `ns2`"],
        ),
        ("red wait", with_link("queue = { type = \"red\", wait = 1 }"), "links[0].queue.wait", vec!["boolean"]),
        (
            "red mixed units",
            with_link("queue = { type = \"red\", min_th = \"5pkt\", max_th = \"30KB\" }"),
            "links[0].queue.max_th",
            vec!["same unit"],
        ),
        (
            "unknown loss type",
            with_link("loss = { type = \"gilbert\" }"),
            "links[0].loss.type",
            vec!["\"gilbert\"", "gilbert_elliott", "bernoulli"],
        ),
        (
            "probability range",
            with_link("loss = { type = \"bernoulli\", p = 1.5 }"),
            "links[0].loss.p",
            vec!["1.5", "between 0 and 1"],
        ),
        (
            "foreign loss key",
            with_link("loss = { type = \"bernoulli\", p = 0.1, p_gb = 0.2 }"),
            "links[0].loss.p_gb",
            vec!["not a parameter of loss type \"bernoulli\"", "p"],
        ),
        (
            "missing GE key",
            with_link("loss = { type = \"gilbert_elliott\", p_gb = 0.1 }"),
            "links[0].loss.p_bg",
            vec!["missing", "gilbert_elliott"],
        ),
        ("burst k > n", with_link("loss = { type = \"burst\", k = 12, n = 10 }"), "links[0].loss.k", vec!["1 <= k <= n"]),
        (
            "missing trace file",
            with_link("loss = { type = \"packet_trace\", file = \"no/such/trace.txt\" }"),
            "links[0].loss.file",
            vec!["cannot read", "no/such/trace.txt"],
        ),
        (
            "bad inline trace",
            with_link("loss = { type = \"packet_trace\", pattern = \"0 1 x\" }"),
            "links[0].loss.pattern",
            vec!["unexpected character 'x'"],
        ),
        (
            "uniform sojourn order",
            with_link(
                "loss = { type = \"two_state\", good = { dist = \"uniform\", min = \"5ms\", max = \"1ms\" }, bad = { dist = \"exponential\", mean = \"1ms\" } }",
            ),
            "links[0].loss.good.min",
            vec!["must not exceed max"],
        ),
        (
            "unknown sojourn dist",
            with_link(
                "loss = { type = \"outage\", on = { dist = \"normal\", mean = \"1ms\" }, off = { dist = \"fixed\", value = \"1s\" } }",
            ),
            "links[0].loss.on.dist",
            vec!["exponential", "uniform", "fixed"],
        ),
        (
            "overlapping intervals",
            with_link("loss = { type = \"interval_trace\", intervals = [[\"1s\", \"3s\"], [\"2s\", \"4s\"]] }"),
            "links[0].loss.intervals",
            vec!["entry [1]", "sorted"],
        ),
        (
            "flow to itself",
            with_flow("[[flows]]\nsrc = \"a\"\ndst = \"a\"\napp = { type = \"cbr\", rate = \"1Mbps\" }\n"),
            "flows[0].dst",
            vec!["different source and destination"],
        ),
        (
            "flow starts late",
            with_flow("[[flows]]\nsrc = \"a\"\ndst = \"b\"\nstart = \"11s\"\napp = { type = \"cbr\", rate = \"1Mbps\" }\n"),
            "flows[0].start",
            vec!["end of the run"],
        ),
        (
            "flow stops early",
            with_flow(
                "[[flows]]\nsrc = \"a\"\ndst = \"b\"\nstart = \"2s\"\nstop = \"1s\"\napp = { type = \"cbr\", rate = \"1Mbps\" }\n",
            ),
            "flows[0].stop",
            vec!["after start"],
        ),
        (
            "unknown app",
            with_flow("[[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"ftp\" }\n"),
            "flows[0].app.type",
            vec!["\"ftp\"", "cbr", "pareto"],
        ),
        (
            "pareto shape",
            with_flow(
                "[[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"pareto\", rate = \"1Mbps\", on_time = \"1s\", off_time = \"1s\", shape = 0.9 }\n",
            ),
            "flows[0].app.shape",
            vec!["> 1"],
        ),
        (
            "pareto two rates",
            with_flow(
                "[[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"pareto\", rate = \"1Mbps\", mean_rate = \"1Mbps\", on_time = \"1s\", off_time = \"1s\" }\n",
            ),
            "flows[0].app",
            vec!["exactly one of `rate`", "mean_rate"],
        ),
        (
            "zero payload",
            with_flow("[[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"cbr\", rate = \"1Mbps\", payload = \"0B\" }\n"),
            "flows[0].app.payload",
            vec!["1 to 65507 bytes"],
        ),
        (
            "unknown transport",
            with_flow("[[flows]]\nsrc = \"a\"\ndst = \"b\"\ntransport = \"sctp\"\napp = { type = \"cbr\", rate = \"1Mbps\" }\n"),
            "flows[0].transport",
            vec!["\"sctp\"", "allowed transports"],
        ),
        (
            "unknown tcp variant",
            with_tcp("variant = \"cubic\""),
            "flows[0].transport.variant",
            vec!["\"cubic\"", "allowed variants", "\"newreno\"", "\"westwood\""],
        ),
        (
            "unknown tcp preset",
            with_tcp("preset = \"linux\""),
            "flows[0].transport.preset",
            vec!["\"linux\"", "\"rfc\", \"ns2\""],
        ),
        ("unknown tcp key", with_tcp("mms = \"1460B\""), "flows[0].transport.mms", vec!["unknown field `mms`", "mss"]),
        ("zero mss", with_tcp("mss = \"0B\""), "flows[0].transport.mss", vec!["\"0B\"", "1 to 65495 bytes"]),
        (
            "window below one segment",
            with_tcp("window = \"100B\""),
            "flows[0].transport.window",
            vec!["\"100B\"", "at least one segment (1460 B)"],
        ),
        (
            "bare initial window",
            with_tcp("initial_window = 2"),
            "flows[0].transport.initial_window",
            vec!["bare number", "50pkt"],
        ),
        (
            "delayed ack too long",
            with_tcp("delayed_ack = \"600ms\""),
            "flows[0].transport.delayed_ack",
            vec!["\"600ms\"", "at most 500ms", "RFC 1122"],
        ),
        (
            "delayed ack wrong type",
            with_tcp("delayed_ack = 5"),
            "flows[0].transport.delayed_ack",
            vec!["5", "true, false or a time"],
        ),
        ("rto bounds", with_tcp("min_rto = \"2s\", max_rto = \"1s\""), "flows[0].transport.max_rto", vec!["min_rto <= max_rto"]),
        ("rto unit", with_tcp("min_rto = \"200\""), "flows[0].transport.min_rto", vec!["needs a unit", "20ms"]),
        (
            "vegas key on newreno",
            with_tcp("vegas_alpha = 2"),
            "flows[0].transport.vegas_alpha",
            vec!["applies only to variant \"vegas\""],
        ),
        (
            "vegas alpha above beta",
            with_tcp("variant = \"vegas\", vegas_alpha = 4, vegas_beta = 2"),
            "flows[0].transport.vegas_alpha",
            vec!["alpha <= beta"],
        ),
        (
            "westwood gain",
            with_tcp("variant = \"westwood\", westwood_gain = 1.5"),
            "flows[0].transport.westwood_gain",
            vec!["1.5", "[0, 1)"],
        ),
        (
            "sack variant without sack",
            with_tcp("variant = \"sack\", sack = false"),
            "flows[0].transport.sack",
            vec!["needs the SACK option"],
        ),
        ("dupthresh zero", with_tcp("dupthresh = 0"), "flows[0].transport.dupthresh", vec!["1 to 1000"]),
        (
            "bulk over udp",
            with_flow("[[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = { type = \"bulk\" }\n"),
            "flows[0].app.type",
            vec!["\"bulk\"", "UDP flow carries datagrams", "tcp"],
        ),
        (
            "cbr over tcp",
            with_flow("[[flows]]\nsrc = \"a\"\ndst = \"b\"\ntransport = \"tcp\"\napp = { type = \"cbr\", rate = \"1Mbps\" }\n"),
            "flows[0].app.type",
            vec!["\"cbr\"", "TCP flow carries a byte stream", "\"bulk\" or \"file\""],
        ),
        (
            "empty file",
            with_flow("[[flows]]\nsrc = \"a\"\ndst = \"b\"\ntransport = \"tcp\"\napp = { type = \"file\", size = \"0B\" }\n"),
            "flows[0].app.size",
            vec!["\"0B\"", "at least 1 byte"],
        ),
        (
            "tcp series selector",
            format!("{SIM}{NODES}{LINK}{FLOW}[outputs]\ntcp_series = [\"nope\"]\n"),
            "outputs.tcp_series[0]",
            vec!["\"nope\"", "no TCP flow matches", "there are no TCP flows"],
        ),
        (
            "delay percentiles selector",
            format!("{SIM}{NODES}{LINK}{FLOW}[outputs]\ndelay_percentiles = [\"nope\"]\n"),
            "outputs.delay_percentiles[0]",
            vec!["\"nope\"", "no flow matches", "flows: "],
        ),
        (
            "tcp needs a return path",
            format!(
                "{SIM}{NODES}[[nodes]]\nname = \"c\"\n{LINK}[[links]]\na = \"b\"\nb = \"c\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n\
                 [routing]\nroutes = [{{ node = \"b\", destination = \"a\", via = \"c\" }}]\n\
                 [[flows]]\nsrc = \"a\"\ndst = \"c\"\ntransport = \"tcp\"\napp = {{ type = \"bulk\" }}\n"
            ),
            "flows[0].src",
            vec!["c cannot reach a", "the routes loop"],
        ),
        (
            "unreachable",
            format!(
                "{SIM}{NODES}[[nodes]]\nname = \"c\"\n{LINK}[[flows]]\nsrc = \"a\"\ndst = \"c\"\napp = {{ type = \"cbr\", rate = \"1Mbps\" }}\n"
            ),
            "flows[0].dst",
            vec!["a cannot reach c"],
        ),
        (
            "route via non-neighbour",
            format!(
                "{SIM}{NODES}[[nodes]]\nname = \"c\"\n{LINK}{FLOW}[routing]\nroutes = [{{ node = \"a\", destination = \"b\", via = \"c\" }}]\n"
            ),
            "routing.routes[0].via",
            vec!["shares no link"],
        ),
        (
            "bad metric",
            format!("{SIM}{NODES}{LINK}{FLOW}[routing]\nmetric = \"cost\"\n"),
            "routing.metric",
            vec!["hops", "delay"],
        ),
        (
            "unknown routing protocol",
            format!("{SIM}{NODES}{LINK}{FLOW}[routing]\nprotocol = \"olsr\"\n"),
            "routing.protocol",
            vec!["\"olsr\"", "\"static\"", "\"aodv\""],
        ),
        (
            "aodv over wired links",
            format!("{SIM}{NODES}{LINK}{FLOW}[routing]\nprotocol = \"aodv\"\n"),
            "routing.protocol",
            vec!["[wireless]"],
        ),
        (
            "aodv parameters without aodv",
            format!("{SIM}{NODES}{LINK}{FLOW}[routing.aodv]\njitter = \"5ms\"\n"),
            "routing.aodv",
            vec!["protocol = \"aodv\""],
        ),
        (
            "aodv bare number",
            format!("{SIM}{RADIOS}[wireless]\n{FLOW}[routing]\nprotocol = \"aodv\"\naodv = {{ jitter = 0.01 }}\n"),
            "routing.aodv.jitter",
            vec!["bare number is ambiguous"],
        ),
        (
            "aodv unknown key",
            format!("{SIM}{RADIOS}[wireless]\n{FLOW}[routing]\nprotocol = \"aodv\"\naodv = {{ hello = true }}\n"),
            "routing.aodv.hello",
            vec!["unknown field `hello`"],
        ),
        (
            "aodv ttl",
            format!("{SIM}{RADIOS}[wireless]\n{FLOW}[routing]\nprotocol = \"aodv\"\naodv = {{ ttl_start = 0 }}\n"),
            "routing.aodv.ttl_start",
            vec!["integer from 1 to 255"],
        ),
        ("unknown preset", wifi("preset = \"wavelan\""), "wireless.preset", vec!["\"wavelan\"", "ns2-wavelan", "80211b"]),
        ("unknown wireless key", wifi("rts = 0"), "wireless.rts", vec!["unknown field `rts`", "rts_threshold"]),
        (
            "bad dsss rate",
            wifi("preset = \"80211b\"\ndata_rate = \"3Mbps\""),
            "wireless.data_rate",
            vec!["\"3Mbps\"", "5.5Mbps", "11Mbps"],
        ),
        (
            "short preamble at 1 Mb/s",
            wifi("preset = \"80211b\"\npreamble = \"short\""),
            "wireless.basic_rate",
            vec!["short preamble", "1 Mb/s"],
        ),
        ("zero retry limit", wifi("short_retry_limit = 0"), "wireless.short_retry_limit", vec!["at least 1", "unlimited"]),
        (
            "bad retry word",
            wifi("long_retry_limit = \"infinite\""),
            "wireless.long_retry_limit",
            vec!["\"infinite\"", "\"unlimited\""],
        ),
        ("bad rts threshold", wifi("rts_threshold = \"never\""), "wireless.rts_threshold", vec!["\"never\"", "\"off\""]),
        ("power unit", wifi("tx_power = \"20dB\""), "wireless.tx_power", vec!["\"20dB\"", "dBm", "mW"]),
        (
            "cs above rx threshold",
            wifi("cs_threshold = \"1e-9W\""),
            "wireless.cs_threshold",
            vec!["must not exceed the receive threshold"],
        ),
        ("unknown receiver", wifi("receiver = \"ns3\""), "wireless.receiver", vec!["\"ns3\"", "\"ns2\"", "\"sinr\""]),
        ("unknown flavor", wifi("flavor = \"ns3\""), "wireless.flavor", vec!["\"ns2\"", "\"standard\""]),
        ("capture ratio", wifi("capture_ratio = 0.5"), "wireless.capture_ratio", vec![">= 1"]),
        ("cw order", wifi("cw_min = 63\ncw_max = 31"), "wireless.cw_min", vec!["cw_min <= cw_max"]),
        ("ifq in bytes", wifi("queue_limit = \"64KB\""), "wireless.queue_limit", vec!["number of packets"]),
        (
            "ifq type",
            wifi("queue = { type = \"fq_codel\" }"),
            "wireless.queue.type",
            vec!["\"fq_codel\"", "\"drop_tail\"", "\"red\""],
        ),
        ("ifq not a table", wifi("queue = \"red\""), "wireless.queue", vec!["\"red\"", "{ type = \"red\""]),
        ("ifq red max_p", wifi("queue = { type = \"red\", max_p = 1.5 }"), "wireless.queue.max_p", vec!["1.5", "(0, 1]"]),
        (
            "ifq red thresholds",
            wifi("queue = { type = \"red\", min_th = \"20pkt\", max_th = \"10pkt\" }"),
            "wireless.queue.min_th",
            vec!["20 (max_th 10)", "0 < min_th < max_th"],
        ),
        (
            "ifq red limit",
            wifi("queue = { type = \"red\", limit = \"20pkt\" }"),
            "wireless.queue.limit",
            vec!["\"20pkt\"", "wireless.queue_limit"],
        ),
        (
            "ifq red unknown key",
            wifi("queue = { type = \"red\", ecm = true }"),
            "wireless.queue.ecm",
            vec!["unknown field `ecm`"],
        ),
        (
            "station ifq red w_q",
            wifi("[[wireless.station]]\nrole = \"all\"\nqueue = { type = \"red\", w_q = 0.0 }"),
            "wireless.station[0].queue.w_q",
            vec!["0", "(0, 1]"],
        ),
        (
            "station ifq red requeue",
            wifi("[[wireless.station]]\nrole = \"all\"\nqueue = { type = \"red\" }\nrequeue_limit = 3"),
            "wireless.station[0].requeue_limit",
            vec!["round_robin"],
        ),
        (
            "station ifq name",
            wifi("[[wireless.station]]\nrole = \"all\"\nqueue = \"red\""),
            "wireless.station[0].queue",
            vec!["\"red\"", "round_robin", "{ type = \"red\""],
        ),
        ("ap without infrastructure", wifi("ap = \"a\""), "wireless.ap", vec!["mode = \"infrastructure\""]),
        ("infrastructure without ap", wifi("mode = \"infrastructure\""), "wireless.ap", vec!["missing", "access point"]),
        (
            "station out of ap range",
            format!(
                "{SIM}[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [300, 0]\n[wireless]\nmode = \"infrastructure\"\nap = \"a\"\n{FLOW}"
            ),
            "nodes[1].position",
            vec!["300.0 m from the access point", "250.0 m decode range"],
        ),
        (
            "bad position",
            format!(
                "{SIM}[[nodes]]\nname = \"a\"\nposition = [0]\n[[nodes]]\nname = \"b\"\nposition = [100, 0]\n[wireless]\n{FLOW}"
            ),
            "nodes[0].position",
            vec!["[x, y] or [x, y, z]"],
        ),
        (
            "position without wireless",
            format!("{SIM}[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\n{LINK}{FLOW}"),
            "nodes[0].position",
            vec!["add a [wireless] section"],
        ),
        (
            "wireless member without position",
            format!("{SIM}{NODES}{LINK}[wireless]\nnodes = [\"a\"]\n{FLOW}"),
            "wireless.nodes[0]",
            vec!["no position"],
        ),
        (
            "loss frames",
            wifi("[[wireless.loss]]\nframes = \"acks\"\nmodel = { type = \"bernoulli\", p = 0.1 }"),
            "wireless.loss[0].frames",
            vec!["\"data\"", "\"all\""],
        ),
        (
            "loss model",
            wifi("[[wireless.loss]]\nmodel = { type = \"bernoulli\", p = 2.0 }"),
            "wireless.loss[0].model.p",
            vec!["between 0 and 1"],
        ),
        (
            "loss on a wired node",
            format!(
                "{SIM}{RADIOS}[[nodes]]\nname = \"w\"\n[[links]]\na = \"a\"\nb = \"w\"\nrate = \"10Mbps\"\ndelay = \"1ms\"\n[wireless]\n[[wireless.loss]]\nto = \"w\"\nmodel = {{ type = \"bernoulli\", p = 0.1 }}\n{FLOW}"
            ),
            "wireless.loss[0].to",
            vec!["not a wireless node"],
        ),
        (
            "out of radio range",
            format!(
                "{SIM}[[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [400, 0]\n[wireless]\n{FLOW}"
            ),
            "flows[0].dst",
            vec!["a cannot reach b", "radio hops in decode range"],
        ),
        (
            "queue series selector",
            format!("{SIM}{NODES}{LINK}{FLOW}[outputs]\nqueue_series = [\"nope\"]\n"),
            "outputs.queue_series[0]",
            vec!["no link direction matches", "a-b"],
        ),
    ]
}

#[test]
fn every_malformed_scenario_gets_a_specific_message() {
    let all = cases();
    assert!(all.len() >= 15);
    common::assert_error_cases(all.into_iter().map(|(c, t, p, f)| (c, t, p.to_string(), f)));
}

#[test]
fn all_independent_mistakes_are_reported_at_once() {
    let text = format!(
        "[simulation]\nduration = \"10 s\"\nwarmup = 5\n{NODES}[[links]]\na = \"a\"\nb = \"x\"\nrate = \"fast\"\ndelay = \"1ms\"\n\
         [[flows]]\nsrc = \"a\"\ndst = \"b\"\napp = {{ type = \"cbr\", rate = \"1Mbps\", payload = \"9MB\" }}\n"
    );
    let err = validate(&text, "many.toml", None).unwrap_err();
    let paths: Vec<&str> = err.errors.iter().map(|e| e.path.as_str()).collect();
    for p in ["simulation.warmup", "links[0].b", "links[0].rate", "flows[0].app.payload"] {
        assert!(paths.contains(&p), "missing {p} in {paths:?}");
    }
    // "10 s" (with a space) is accepted: units may be separated by whitespace.
    assert!(!paths.contains(&"simulation.duration"));
}

#[test]
fn an_invalid_entry_is_reported_once_not_at_every_reference() {
    // Each scenario has one mistake inside a node, link or flow entry that other parts refer to
    // (links, flows, outputs, captures, traces). The entry's own error must be the only one: a
    // "no node has this name" at each reference would be false (the entry exists, it is invalid).
    let refs = "[outputs]\nqueue_series = [\"ab:a->b\"]\ntcp_series = [\"f\"]\ndelay_percentiles = [\"f\"]\n\
                pcap = [\"a\", \"a:ab\"]\ntrace = { nodes = [\"a\"], flows = [\"f\"] }\n";
    let link =
        |extra: &str| format!("[[links]]\nname = \"ab\"\na = \"a\"\nb = \"b\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\n{extra}");
    let flow = |extra: &str| {
        format!("[[flows]]\nname = \"f\"\nsrc = \"a\"\ndst = \"b\"\ntransport = \"tcp\"\napp = {{ type = \"bulk\" }}\n{extra}")
    };
    let node_b = "[[nodes]]\nname = \"b\"\n";
    let cases = [
        (
            "node with an unknown key",
            format!("{SIM}[[nodes]]\nname = \"a\"\nbogus = 1\n{node_b}{}{}", link(""), flow("")),
            "nodes[0].bogus",
        ),
        (
            "node with a bad name",
            format!("{SIM}[[nodes]]\nname = \"a\"\nposition = \"here\"\n{node_b}{}{}", link(""), flow("")),
            "nodes[0].position",
        ),
        ("link with an unknown key", format!("{SIM}{NODES}{}{}", link("colour = 1\n"), flow("")), "links[0].colour"),
        ("link with a bad rate", format!("{SIM}{NODES}{}{}", link("").replace("10Mbps", "fast"), flow("")), "links[0].rate"),
        (
            "link with a bad queue",
            format!("{SIM}{NODES}{}{}", link("queue = { type = \"red\", flavor = \"x\" }\n"), flow("")),
            "links[0].queue.flavor",
        ),
        ("flow with an unknown key", format!("{SIM}{NODES}{}{}", link(""), flow("bogus = 2\n")), "flows[0].bogus"),
        ("flow with a bad start", format!("{SIM}{NODES}{}{}", link(""), flow("start = \"soon\"\n")), "flows[0].start"),
    ];
    for (case, text, path) in cases {
        let text = format!("{text}{refs}");
        let err = validate(&text, "case.toml", None).unwrap_err();
        let paths: Vec<&str> = err.errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, [path], "{case}: {err}");
    }
    // A reference to an entry that does not exist at all is still reported.
    let text = format!("{SIM}{NODES}{}{}[outputs]\nqueue_series = [\"cd\"]\ntcp_series = [\"g\"]\n", link(""), flow(""));
    let err = validate(&text, "case.toml", None).unwrap_err();
    let paths: Vec<&str> = err.errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["outputs.queue_series[0]", "outputs.tcp_series[0]"], "{err}");
}

#[test]
#[ignore = "prints every message for review: cargo test --test bad_input -- --ignored --nocapture"]
fn print_all_messages() {
    for (case, text, _, _) in cases() {
        println!("--- {case}\n{}", validate(&text, "case.toml", None).unwrap_err());
    }
}
