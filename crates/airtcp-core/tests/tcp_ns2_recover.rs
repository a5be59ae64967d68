//! The `ns2_recover` key (ns-2.35's recovery-entry test; docs/models/tcp.md, "Recovery entry"):
//! off in every preset, on only when a scenario asks for it, and a clear error for a non-boolean.
use airtcp_core::scenario::config::TransportConfig;
use airtcp_core::scenario::validate;
use airtcp_core::tcp::TcpParams;

fn scenario(keys: &str) -> String {
    format!(
        "[simulation]\nduration = \"10s\"\n[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n\
         [[links]]\na = \"a\"\nb = \"b\"\nrate = \"10Mbps\"\ndelay = \"10ms\"\n\
         [[flows]]\nsrc = \"a\"\ndst = \"b\"\ntransport = {{ type = \"tcp\", {keys} }}\napp = {{ type = \"bulk\" }}\n"
    )
}

fn params(keys: &str) -> TcpParams {
    let cfg = validate(&scenario(keys), "<test>", None).unwrap_or_else(|e| panic!("{keys}: {e}"));
    match cfg.flows[0].transport {
        TransportConfig::Tcp(p) => p,
        TransportConfig::Udp { .. } | TransportConfig::LtTcp(_) => unreachable!(),
    }
}

#[test]
fn off_in_every_preset_on_when_asked() {
    for (keys, want) in [
        ("variant = \"newreno\"", false),
        ("variant = \"newreno\", preset = \"ns2\"", false),
        ("variant = \"sack\", preset = \"bsd\"", false),
        ("variant = \"newreno\", preset = \"ns2\", ns2_recover = true", true),
        ("variant = \"sack\", ns2_recover = true", true),
    ] {
        assert_eq!(params(keys).ns2_recover, want, "{keys}");
    }
}

#[test]
fn a_non_boolean_is_an_error_naming_the_key() {
    let e = validate(&scenario("variant = \"newreno\", ns2_recover = 1"), "<test>", None).unwrap_err();
    assert!(e.to_string().contains("ns2_recover"), "{e}");
}
