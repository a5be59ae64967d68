#!/usr/bin/env bash
# Profile-guided optimisation for the builds users run (`make build`, `make sim`).
#
# Prints the RUSTFLAGS that apply the profile (`-Cprofile-use=...`) on stdout, or nothing when
# the build goes without it; everything else goes to stderr. Results never depend on it: the
# profile only changes how the compiler lays out and inlines code (branch weights), never what
# the code computes, so a run gives the same bits with and without (bench/golden/golden.py
# checks it). Measured in docs/performance.md ("Profile-guided build"): 6-13% fewer instructions
# and 5-27% less CPU time than the `release` build on the scaling curves' points.
#
# Steps, each only when needed (the profile is kept in target/pgo/, named by a hash of the
# sources, the training set and the compiler: a source change trains again):
#   1. an instrumented `airtcp-sim` (profile `dist`, -Cprofile-generate) in target/pgo-gen/;
#   2. training: the scaling generator's points (bench/scaling/gen.py), the repository's
#      scenarios and the studies' grid points (bench/pgo/studies/, written by export.py);
#   3. llvm-profdata merges the raw profiles into target/pgo/airtcp-KEY.profdata.
#
# Needs an llvm-profdata that reads the raw profiles of rustc's LLVM (LLVM 19 or later for
# rustc 1.95's LLVM 22; Debian: apt-get install llvm-19), or the one AIRTCP_LLVM_PROFDATA names.
# Without one, or with AIRTCP_PGO=0, or if any step fails, the build goes on without the profile
# and says so.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
PGO="$ROOT/target/pgo"

off() {
    echo "profile-guided optimisation off: $1 (same results, about 10% slower runs)" >&2
    exit 0
}

[ "${AIRTCP_PGO:-1}" = 0 ] && off "AIRTCP_PGO=0"

# An llvm-profdata new enough for rustc's LLVM: rustup's llvm-tools first, then versioned names.
llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
profdata=""
if [ -n "${AIRTCP_LLVM_PROFDATA:-}" ]; then
    candidates=("$AIRTCP_LLVM_PROFDATA")
else
    sysroot_tool="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata"
    candidates=("$sysroot_tool" $(for v in $(seq "${llvm_major:-22}" -1 19); do echo "llvm-profdata-$v"; done) llvm-profdata)
fi
for candidate in "${candidates[@]}"; do
    if command -v "$candidate" >/dev/null 2>&1; then
        version=$("$candidate" --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -1)
        if [ -n "$version" ] && [ "$version" -ge 19 ]; then
            profdata="$candidate"
            break
        fi
    fi
done
[ -n "$profdata" ] || off "no llvm-profdata of LLVM 19 or later among ${candidates[*]##*/} (Debian: apt-get install llvm-19)"

# The key: everything the profile depends on.
key=$( {
    rustc -vV
    "$profdata" --version
    cat Cargo.lock Cargo.toml crates/*/Cargo.toml bench/scaling/gen.py bench/pgo/profile.sh bench/pgo/points.sh
    find crates/airtcp-core/src crates/airtcp-cli/src bench/pgo/studies scenarios bench/wifi bench/scenarios \
        -type f \( -name '*.rs' -o -name '*.toml' \) | LC_ALL=C sort | xargs cat
} | sha256sum | cut -d' ' -f1)
# The key is in the file's name, so a new profile is a new RUSTFLAGS and cargo rebuilds with it.
PROFILE="$PGO/airtcp-${key:0:16}.profdata"
if [ -f "$PROFILE" ]; then
    echo "-Cprofile-use=$PROFILE"
    exit 0
fi

echo "profile-guided optimisation: building the instrumented simulator and training it (a few minutes)" >&2
rm -rf "$PGO"
mkdir -p "$PGO/raw" "$PGO/train"
RUSTFLAGS="-Cprofile-generate=$PGO/raw" cargo build --quiet --profile dist -p airtcp-cli \
    --target-dir "$ROOT/target/pgo-gen" >&2 || off "the instrumented build failed"
rm -rf "$PGO/raw" && mkdir -p "$PGO/raw"   # build scripts ran instrumented too: not training data

bench/pgo/points.sh "$PGO/train" || off "the training points could not be written"
sim="$ROOT/target/pgo-gen/dist/airtcp-sim"
failed=0
for scenario in "$PGO"/train/*.toml scenarios/*.toml bench/wifi/*.toml bench/scenarios/*.toml bench/pgo/studies/*.toml; do
    LLVM_PROFILE_FILE="$PGO/raw/%m_%p.profraw" "$sim" "$scenario" >/dev/null 2>"$PGO/last-error" \
        || { failed=$((failed + 1)); echo "training run failed (left out): $scenario: $(head -c 300 "$PGO/last-error")" >&2; }
done
"$profdata" merge -o "$PROFILE.tmp" "$PGO"/raw/*.profraw >&2 || off "llvm-profdata could not merge the raw profiles ($profdata)"
mv "$PROFILE.tmp" "$PROFILE"
rm -rf "$PGO/raw"
echo "profile-guided optimisation: trained ($failed training runs failed), profile $PROFILE" >&2
echo "-Cprofile-use=$PROFILE"
