//! Embeds a fingerprint of the simulator's sources: `AIRTCP_SOURCE_HASH`, a 64-bit FNV-1a hash of
//! every file under `src/` (relative path and contents, in sorted order), of the crate's
//! `Cargo.toml` and of the workspace's `Cargo.lock` (a dependency update, e.g. of the random
//! number generator, can change results as surely as a source edit).
//!
//! The version the core reports is `<crate version>+src.<hash>`, so a results store keyed by
//! version never hands back results computed by a different simulator, even between releases.

use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut list = Vec::new();
    files(&root.join("src"), &mut list);
    list.sort();
    // Cargo.lock sits at the workspace root (two levels up); a crate built outside the workspace
    // (from a package) has none, and its Cargo.toml pins what it can.
    for extra in [root.join("Cargo.toml"), root.join("../../Cargo.lock")] {
        if extra.exists() {
            println!("cargo:rerun-if-changed={}", extra.display());
            list.push(extra);
        }
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for p in &list {
        // the path relative to the crate; the workspace's Cargo.lock by its name alone, so the
        // fingerprint does not depend on where the checkout lives
        let rel = match p.strip_prefix(root) {
            Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
            Err(_) => p.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        };
        feed(rel.as_bytes());
        feed(&[0]);
        feed(&fs::read(p).unwrap_or_default());
        feed(&[0]);
    }
    println!("cargo:rustc-env=AIRTCP_SOURCE_HASH={h:016x}");
}
