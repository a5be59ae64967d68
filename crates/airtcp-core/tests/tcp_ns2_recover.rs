//! The `ns2_recover` key (ns-2.35's recovery-entry test; docs/models/tcp.md, "Recovery entry"):
//! on in the ns2 preset (issue 15), off in the others, overridable either way, and a clear error
//! for a non-boolean.
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
fn on_in_the_ns2_preset_overridable() {
    for (keys, want) in [
        ("variant = \"newreno\"", false),
        ("variant = \"newreno\", preset = \"ns2\"", true),
        ("variant = \"sack\", preset = \"bsd\"", false),
        ("variant = \"newreno\", preset = \"ns2\", ns2_recover = false", false),
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

/// Under the ns2 preset `variant = "sack"` is ns-2.35's Sack1 and its ACKs are charged ns-2's
/// option bytes; the explicit pair and `option_bytes = false` override both; the rfc preset keeps
/// RFC 6675 without option bytes.
#[test]
fn ns2_preset_sack_is_sack1_with_ns2_option_bytes() {
    use airtcp_core::tcp::{OptionBytes, RecoveryKind};
    for (keys, recovery, bytes) in [
        ("variant = \"sack\", preset = \"ns2\"", RecoveryKind::Sack1, OptionBytes::Ns2),
        ("cc = \"aimd\", recovery = \"sack\", preset = \"ns2\"", RecoveryKind::Sack, OptionBytes::Ns2),
        ("variant = \"sack\", preset = \"ns2\", option_bytes = false", RecoveryKind::Sack1, OptionBytes::None),
        ("variant = \"sack\"", RecoveryKind::Sack, OptionBytes::None),
        ("variant = \"sack\", preset = \"bsd\"", RecoveryKind::Sack, OptionBytes::None),
    ] {
        let p = params(keys);
        assert_eq!((p.recovery, p.option_bytes, p.sack), (recovery, bytes, true), "{keys}");
    }
}
