//! Mistakes in `[[schemes]]` get a clear message naming the field path, the bad value and what is
//! allowed — every mistake at once.

mod common;

use airtcp_core::scenario::validate;

const BASE: &str = "[simulation]\nduration = \"10s\"\n[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n\
[[nodes]]\nname = \"c\"\n[[links]]\nname = \"ab\"\na = \"a\"\nb = \"b\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\n\
[[links]]\nname = \"bc\"\na = \"b\"\nb = \"c\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\n\
[[flows]]\nname = \"f\"\nsrc = \"a\"\ndst = \"c\"\ntransport = \"tcp\"\napp = { type = \"bulk\" }\n";

fn scheme(body: &str) -> String {
    format!("{BASE}[[schemes]]\n{body}\n")
}

fn cases() -> Vec<(&'static str, String, &'static str, Vec<&'static str>)> {
    vec![
        ("missing type", scheme("node = \"b\""), "schemes[0].type", vec!["missing field `type`"]),
        ("missing node", scheme("type = \"scripted\""), "schemes[0].node", vec!["missing field `node`"]),
        ("unknown type", scheme("type = \"snooop\"\nnode = \"b\""), "schemes[0].type", vec!["\"snooop\"", "types: scripted"]),
        ("unknown node", scheme("type = \"scripted\"\nnode = \"z\""), "schemes[0].node", vec!["\"z\"", "known nodes: a, b, c"]),
        ("type not a string", scheme("type = 3\nnode = \"b\""), "schemes[0].type", vec!["3", "a string"]),
        ("bad iface", scheme("type = \"scripted\"\nnode = \"a\"\niface = \"bc\""), "schemes[0].iface", vec!["does not end at"]),
        (
            "unknown iface",
            scheme("type = \"scripted\"\nnode = \"b\"\niface = \"xy\""),
            "schemes[0].iface",
            vec!["\"xy\"", "ab, bc, wireless"],
        ),
        ("no radio", scheme("type = \"scripted\"\nnode = \"b\"\niface = \"wireless\""), "schemes[0].iface", vec!["no radio"]),
        (
            "duplicate name",
            format!("{BASE}[[schemes]]\ntype = \"scripted\"\nnode = \"b\"\n[[schemes]]\ntype = \"scripted\"\nnode = \"b\"\n"),
            "schemes[1].name",
            vec!["\"scripted@b\"", "duplicate name (already used by schemes[0].name)"],
        ),
        (
            "unknown key",
            scheme("type = \"scripted\"\nnode = \"b\"\nrulez = []"),
            "schemes[0].rulez",
            vec!["unknown field `rulez`"],
        ),
        (
            "unknown rule point",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"forward\"\naction = \"drop\""),
            "schemes[0].rules[0].at",
            vec!["\"forward\"", "send, receive, mac_enqueued"],
        ),
        (
            "unknown action",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"send\"\naction = \"corrupt\""),
            "schemes[0].rules[0].action",
            vec!["\"corrupt\"", "drop, delay, hold, duplicate, eln, ersn"],
        ),
        (
            "delay without a time",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"send\"\naction = \"delay\""),
            "schemes[0].rules[0].delay",
            vec!["needs a delay", "\"50ms\""],
        ),
        (
            "delay as a bare number",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"send\"\naction = \"delay\"\ndelay = 5"),
            "schemes[0].rules[0].delay",
            vec!["5", "a time with a unit"],
        ),
        (
            "bad nth",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"send\"\naction = \"drop\"\nnth = [0, 3]"),
            "schemes[0].rules[0].nth",
            vec!["[0, 3]", ">= 1"],
        ),
        (
            "unknown flow",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"send\"\naction = \"drop\"\nflow = \"g\""),
            "schemes[0].rules[0].flow",
            vec!["\"g\"", "flows: f"],
        ),
        (
            "hold on receive",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"receive\"\naction = \"hold\"\ndelay = \"1ms\""),
            "schemes[0].rules[0].action",
            vec!["not allowed at \"receive\"", "drop, delay, eln, ersn"],
        ),
        (
            "drop on a MAC indication",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"mac_discarded\"\naction = \"drop\""),
            "schemes[0].rules[0].action",
            vec!["eln, ersn"],
        ),
        (
            "via on a drop",
            scheme("type = \"scripted\"\nnode = \"b\"\n[[schemes.rules]]\nat = \"send\"\naction = \"drop\"\nvia = \"message\""),
            "schemes[0].rules[0].via",
            vec!["only the actions eln and ersn"],
        ),
    ]
}

#[test]
fn every_scheme_mistake_gets_a_specific_message() {
    common::assert_error_cases(cases().into_iter().map(|(c, t, p, f)| (c, t, p.to_string(), f)));
}

#[test]
fn every_scheme_mistake_is_reported_at_once() {
    let text = scheme(
        "type = \"scripted\"\nnode = \"b\"\niface = \"zz\"\n[[schemes.rules]]\nat = \"up\"\naction = \"drop\"\n\
         [[schemes.rules]]\nat = \"send\"\naction = \"delay\"\ndelay = \"5 parsecs\"",
    );
    let err = validate(&text, "many.toml", None).unwrap_err();
    let paths: Vec<&str> = err.errors.iter().map(|e| e.path.as_str()).collect();
    for p in ["schemes[0].iface", "schemes[0].rules[0].at", "schemes[0].rules[1].delay"] {
        assert!(paths.contains(&p), "missing {p} in {paths:?}");
    }
}

#[test]
fn a_valid_scheme_is_accepted_and_attached_to_its_link() {
    let text = scheme(
        "type = \"scripted\"\nname = \"loss3\"\nnode = \"b\"\niface = \"bc\"\n[[schemes.rules]]\nat = \"send\"\npackets = \"tcp_data\"\nnth = [3]\naction = \"drop\"",
    );
    let cfg = validate(&text, "ok.toml", None).unwrap();
    assert_eq!(cfg.schemes.len(), 1);
    let r = airtcp_core::simulate(&cfg, None, 0);
    assert_eq!(r.schemes[0].name, "loss3");
    assert_eq!(r.schemes[0].verdicts.dropped, 1);
    assert_eq!(r.flows[0].drops.get(airtcp_core::stats::DropCause::Scheme), 1);
    // Only the b -> c direction and b's arrivals from c carry the link: ACKs arriving from c are
    // seen, data arriving from a is not.
    assert!(r.schemes[0].verdicts.seen > 0);
}

#[test]
fn a_scheme_without_a_name_gets_type_at_node() {
    let text = scheme("type = \"scripted\"\nnode = \"b\"");
    let cfg = validate(&text, "ok.toml", None).unwrap();
    let r = airtcp_core::simulate(&cfg, None, 0);
    assert_eq!(r.schemes[0].name, "scripted@b");
}
