//! The heap's huge pages (airtcp_core::memory) as `airtcp-sim` uses them: granted on Linux with
//! glibc, refused with `AIRTCP_HUGE_PAGES=0`, and never a change in the results.

use std::path::Path;
use std::process::Command;

fn sim(scenario: &str, huge_pages: Option<&str>, timing: bool) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(scenario);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_airtcp-sim"));
    cmd.arg(&path).env_remove("AIRTCP_HUGE_PAGES");
    if let Some(v) = huge_pages {
        cmd.env("AIRTCP_HUGE_PAGES", v);
    }
    if timing {
        cmd.arg("--timing");
    }
    let out = cmd.output().expect("airtcp-sim runs");
    assert!(out.status.success(), "airtcp-sim {scenario} failed: {}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn results_are_the_same_bits_with_and_without_huge_pages() {
    for scenario in ["tcp-dumbbell.toml", "wifi-infra.toml"] {
        let (with, _) = sim(scenario, None, false);
        let (without, _) = sim(scenario, Some("0"), false);
        assert!(with.contains("\"events\""), "{scenario}: no result");
        assert_eq!(with, without, "{scenario}: huge pages changed the result");
    }
}

#[test]
fn timing_says_whether_the_heap_got_huge_pages() {
    let (_, off) = sim("tcp-dumbbell.toml", Some("0"), true);
    assert!(off.trim_end().ends_with("huge_pages=off"), "{off}");
    let (_, on) = sim("tcp-dumbbell.toml", None, true);
    if !(cfg!(target_os = "linux") && cfg!(target_env = "gnu")) {
        assert!(on.trim_end().ends_with("huge_pages=off"), "{on}");
    } else if !Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
        eprintln!("skipped: this kernel has no transparent huge pages");
    } else {
        assert!(on.trim_end().ends_with("huge_pages=on"), "the main thread's heap was not advised: {on}");
    }
}
