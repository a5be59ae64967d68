//! `airtcp-sim` as a process: its command line, its exit statuses, and what it does with the
//! descriptors it is given. On Unix the program starts without Rust's runtime set-up (see
//! `main.rs`), so the parts of that set-up it relies on are checked here.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(name)
}

fn sim() -> Command {
    Command::new(env!("CARGO_BIN_EXE_airtcp-sim"))
}

#[test]
fn the_command_line_and_the_exit_statuses() {
    let out = sim().arg("--version").output().unwrap();
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).starts_with("airtcp-sim "));
    let out = sim().arg("--no-such-option").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-such-option"));
    let out = sim().arg("/no/such/file.toml").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file.toml"));
    // Options after the scenario, and a seed: the arguments reach the parser in order.
    let out = sim().arg(scenario("tcp-dumbbell.toml")).args(["--seed", "7", "--pretty"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\n  \"seed\": 7,"), "{}", &text[..text.len().min(200)]);
}

/// A reader that goes away: the write fails with a broken pipe, which ends the program quietly
/// with status 0 (a `SIGPIPE` left at its default would kill it instead).
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_program_with_status_zero() {
    let mut child =
        sim().arg(scenario("tcp-dumbbell.toml")).arg("--pretty").stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // Close the reading end before the run ends and the result is written.
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}: {err}");
    assert!(err.is_empty(), "{err}");
}

/// Started with its standard output closed (which `main` opens on `/dev/null`, as Rust's runtime
/// would, so that no file takes its number), the program runs and ends with status 0.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_with_status_zero() {
    let out = Command::new("sh")
        .args(["-c", "exec \"$0\" \"$1\" >&-"])
        .arg(env!("CARGO_BIN_EXE_airtcp-sim"))
        .arg(scenario("tcp-dumbbell.toml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}
