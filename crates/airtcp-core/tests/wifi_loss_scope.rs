//! `[[wireless.loss]] scope = "receiver"`: one loss process per receiving node over the frames of
//! every transmitter, as ns-2's error model (one ErrorModel object per node, -IncomingErrProc)
//! counts every frame its radio receives; the default `"link"` gives each (transmitter, receiver)
//! pair its own process. Two senders to one receiver with a burst model that loses only the first
//! frame a process judges ("1 of every 1,000,000", offset 0): the receiver loses one frame in all
//! with `receiver`, one per sender with `link`.

mod common;

fn scenario(scope: &str) -> String {
    format!(
        "[simulation]\nduration = \"5s\"\nseed = 1\n\
         [[nodes]]\nname = \"a\"\nposition = [0, 0]\n[[nodes]]\nname = \"b\"\nposition = [100, 0]\n\
         [[nodes]]\nname = \"c\"\nposition = [50, 50]\n\
         [wireless]\npreset = \"80211b\"\nrts_threshold = \"off\"\n\
         [[wireless.loss]]\nto = \"c\"\nscope = \"{scope}\"\n\
         model = {{ type = \"burst\", k = 1, n = 1000000, offset = 0 }}\n\
         [[flows]]\nname = \"ac\"\nsrc = \"a\"\ndst = \"c\"\napp = {{ type = \"cbr\", rate = \"200kbps\", payload = \"500B\" }}\n\
         [[flows]]\nname = \"bc\"\nsrc = \"b\"\ndst = \"c\"\nstart = \"7ms\"\napp = {{ type = \"cbr\", rate = \"160kbps\", payload = \"500B\" }}\n"
    )
}

#[test]
fn receiver_scope_shares_one_process_among_the_senders() {
    let link = common::run(&scenario("link"), None);
    let receiver = common::run(&scenario("receiver"), None);
    let errors = |r: &airtcp_core::RunResult| r.wifi.stations[2].counters.rx_errors;
    assert_eq!(errors(&link), 2, "one process per sender: each loses its first frame");
    assert_eq!(errors(&receiver), 1, "one process at c: only the first frame c receives is lost");
    // Both flows delivered all but what the MAC retried.
    assert!(receiver.flows.iter().all(|f| f.goodput_bps > 120e3));
}

#[test]
fn an_unknown_scope_names_the_key() {
    let err = airtcp_core::scenario::validate(&scenario("node"), "<test>", None).expect_err("bad scope").to_string();
    assert!(err.contains("wireless.loss[0].scope") && err.contains("\"node\"") && err.contains("receiver"), "{err}");
}
