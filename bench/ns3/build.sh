#!/bin/sh
# Builds the ns-3 reference programs against Debian's libns3-dev (apt-get install libns3-dev libgsl-dev g++; libns3-dev's pkg-config files name -lgsl, which only libgsl-dev provides as libgsl.so).
# The *_tcp programs are the ns-3 sides of bench/scaling's curves (run.py --ns3).
set -e
cd "$(dirname "$0")"
for p in chain_udp infra_udp westwood_loss cell_tcp chain_tcp dumbbell_tcp; do
  g++ -O2 -std=c++17 -o "$p" "$p.cc" $(pkg-config --cflags --libs ns3-core ns3-network ns3-mobility ns3-wifi ns3-internet ns3-applications ns3-propagation ns3-point-to-point ns3-traffic-control ns3-aodv)
done
