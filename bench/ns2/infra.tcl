# ns-2.35 reference: an 11 Mb/s 802.11b downlink. A wired server (100 Mb/s, 10 ms) feeds a base
# station that serves one station 100 m away (ns-2 wired-cum-wireless, hierarchical addresses,
# DSDV). Control frames at 1 Mb/s, RTS/CTS off, 50-packet IFQ.
# Usage: ns infra.tcl TRANSPORT(udp|sack) DURATION_S [SEED]
# Prints: transport duration rx_bytes throughput_kbps
# Reference only: airtcp never needs ns-2 to build or test.
set tr [lindex $argv 0]
set dur [lindex $argv 1]
set seed [expr {[llength $argv] > 2 ? [lindex $argv 2] : 1}]
Mac/802_11 set dataRate_ 11Mb
Mac/802_11 set basicRate_ 1Mb
Mac/802_11 set RTSThreshold_ 3000
Agent/UDP set packetSize_ 1500
ns-random $seed

set ns [new Simulator]
set tracefd [open /dev/null w]
$ns trace-all $tracefd
$ns node-config -addressType hierarchical
AddrParams set domain_num_ 2
lappend cluster_num 1 1
AddrParams set cluster_num_ $cluster_num
lappend eilastlevel 1 2
AddrParams set nodes_num_ $eilastlevel
set topo [new Topography]
$topo load_flatgrid 500 500
create-god 2
set W [$ns node 0.0.0]
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 -ifqType Queue/DropTail/PriQueue \
  -ifqLen 50 -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channel $chan -topoInstance $topo -wiredRouting ON -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
set BS [$ns node 1.0.0]
$BS random-motion 0
$BS set X_ 100.0
$BS set Y_ 100.0
$BS set Z_ 0.0
$ns node-config -wiredRouting OFF
set STA [$ns node 1.0.1]
$STA random-motion 0
$STA base-station [AddrParams addr2id [$BS node-addr]]
$STA set X_ 200.0
$STA set Y_ 100.0
$STA set Z_ 0.0
$ns duplex-link $W $BS 100Mb 10ms DropTail

if {$tr == "udp"} {
  set src [new Agent/UDP]
  set sink [new Agent/LossMonitor]
  $ns attach-agent $W $src
  $ns attach-agent $STA $sink
  $ns connect $src $sink
  set app [new Application/Traffic/CBR]
  $app set packetSize_ 1460
  $app set rate_ 8Mb
  $app attach-agent $src
} else {
  set src [new Agent/TCP/Sack1]
  $src set packetSize_ 1460
  $src set window_ 64
  set sink [new Agent/TCPSink/Sack1]
  $ns attach-agent $W $src
  $ns attach-agent $STA $sink
  $ns connect $src $sink
  set app [new Application/FTP]
  $app attach-agent $src
}
$ns at 1.0 "$app start"
proc finish {} {
  global sink tr dur
  if {$tr == "udp"} { set b [$sink set bytes_] } else { set b [expr {[$sink set bytes_]}] }
  puts [format "%s %s %d %.1f" $tr $dur $b [expr {$b * 8.0 / ($dur - 1.0) / 1000.0}]]
  exit 0
}
$ns at $dur "finish"
$ns run
