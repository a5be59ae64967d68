#!/bin/sh
# Builds the ns-3 reference programs of bench/ (bench-only: airtcp never needs ns-3).
#
#   bench/ns3/build.sh --wheel [PROGRAM...]   ns-3.44 from PyPI (the default; see README.md)
#   bench/ns3/build.sh --debian [PROGRAM...]  Debian's ns-3.37 (apt-get install libns3-dev libgsl-dev g++)
#
# --wheel: creates bench/ns3/.venv, pip-installs the pinned wheel of requirements.txt into it
# (`ns3==3.44.post0`, hash-checked, --no-deps: its cppyy dependency is only for the Python
# bindings) and compiles against the wheel's headers and libraries (-I, -L, and an rpath to the
# venv's ns3/lib64, so the programs run without LD_LIBRARY_PATH; nothing is installed outside
# bench/ns3). Default programs: the scaling curves' cell_tcp, chain_tcp and dumbbell_tcp
# (bench/scaling/run.py --ns3). PYTHON selects the interpreter for the venv (the pinned wheel is
# for CPython 3.11).
# --debian: the libraries of Debian's libns3-dev through pkg-config (libns3-dev's pkg-config files
# name -lgsl, which only libgsl-dev provides as libgsl.so). Default programs: all of them
# (chain_udp, infra_udp, westwood_loss for bench/wifi and bench/ns2, and the three *_tcp).
# Debian's ns-3.37 TCP crashes in most runs of the *_tcp programs (docs/performance.md, "ns-3.37
# columns").
# Either way, bench/ns3/BUILT_WITH records which ns-3 the programs were built against; run.py
# prints it with its ns-3 columns.
set -e
cd "$(dirname "$0")"
mode=wheel
case "$1" in
--wheel) shift ;;
--debian) mode=debian; shift ;;
-*) echo "usage: $0 [--wheel|--debian] [PROGRAM...]" >&2; exit 2 ;;
esac
MODULES="core network mobility wifi internet applications propagation point-to-point traffic-control aodv"
if [ "$mode" = wheel ]; then
  programs=${*:-cell_tcp chain_tcp dumbbell_tcp}
  venv=.venv
  if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install -q --no-deps --require-hashes -r requirements.txt
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  prefix="$site/ns3"
  ver=$("$venv/bin/python" -m pip show ns3 | sed -n 's/^Version: //p')
  # The library names carry ns-3's version (libns3.44-core.so); no build-profile suffix: the
  # wheel is ns-3's "release" profile.
  abi=$(ls "$prefix/lib64" | sed -n 's/^libns3\.\([0-9.]*\)-core\.so$/\1/p')
  if [ -z "$abi" ]; then
    echo "no libns3.*-core.so in $prefix/lib64" >&2
    exit 1
  fi
  libs=""
  for m in $MODULES; do libs="$libs -lns3.$abi-$m"; done
  # The definitions the wheel's CMake package exports to its users (ns3Targets.cmake).
  defs="-DNS3_BUILD_PROFILE_RELEASE -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE"
  for p in $programs; do
    echo "building $p against ns-3 $ver (PyPI wheel, $prefix)"
    g++ -O2 -std=c++20 $defs -I"$prefix/include" -o "$p" "$p.cc" \
      -L"$prefix/lib64" -Wl,-rpath,"$prefix/lib64" $libs
  done
  echo "ns-3.$abi (PyPI wheel ns3==$ver, release profile)" >BUILT_WITH
else
  programs=${*:-chain_udp infra_udp westwood_loss cell_tcp chain_tcp dumbbell_tcp}
  pc=""
  for m in $MODULES; do pc="$pc ns3-$m"; done
  for p in $programs; do
    g++ -O2 -std=c++17 -o "$p" "$p.cc" $(pkg-config --cflags --libs $pc)
  done
  echo "ns-$(pkg-config --modversion ns3-core) (Debian libns3-dev)" >BUILT_WITH
fi
