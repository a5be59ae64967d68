#!/usr/bin/env bash
# The scaling generator's points that the profile-guided build (profile.sh) and the extension's
# code layout (bolt.sh) train on: dumbbells of 1, 10 and 1,000 flows, chains of 2 and 8 hops,
# cells of 1, 50 and 400 stations, a 16-node mesh, each a few simulated seconds to a minute.
#
# Usage: bench/pgo/points.sh DIR   (writes DIR/NAME.toml)
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:?usage: bench/pgo/points.sh DIR}"
gen() { python3 bench/scaling/gen.py "$@"; }
gen dumbbell 1 10 >"$out/dumbbell1.toml"
gen dumbbell 10 5 >"$out/dumbbell10.toml"
gen dumbbell 1000 3 >"$out/dumbbell1000.toml"
gen chain 2 60 >"$out/chain2.toml"
gen chain 8 60 >"$out/chain8.toml"
gen cell 1 10 >"$out/cell1.toml"
gen cell 50 5 >"$out/cell50.toml"
gen cell 400 5 >"$out/cell400.toml"
gen mesh 16 20 >"$out/mesh16.toml"
