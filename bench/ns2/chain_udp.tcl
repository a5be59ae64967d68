# ns-2.35 reference: UDP/CBR over a static chain of 802.11 nodes, 200 m apart (Afrakhteh 2005 setup).
# Usage: ns chain_udp.tcl HOPS RTS(0|1) RATE_KBPS DURATION_S ROUTING(AODV|NOAH) [SEED]
# Prints one line: hops rts rate_kbps duration rx_bytes throughput_kbps
# Reference only: airtcp never needs ns-2 to build or test.
set hops [lindex $argv 0]
set rts [lindex $argv 1]
set ratek [lindex $argv 2]
set dur [lindex $argv 3]
set rp [lindex $argv 4]
set seed [expr {[llength $argv] > 5 ? [lindex $argv 5] : 1}]
set nn [expr {$hops + 1}]

Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ 1Mb
if {$rts} { Mac/802_11 set RTSThreshold_ 0 } else { Mac/802_11 set RTSThreshold_ 5000 }
Phy/WirelessPhy set Pt_ 0.28183815
Phy/WirelessPhy set freq_ 914e+6
Phy/WirelessPhy set RXThresh_ 3.652e-10
Phy/WirelessPhy set CSThresh_ 1.559e-11
Phy/WirelessPhy set CPThresh_ 10.0
Phy/WirelessPhy set bandwidth_ 2e6
Agent/UDP set packetSize_ 1500
ns-random $seed

set ns [new Simulator]
set tracefd [open /dev/null w]
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 1500 1000
create-god $nn
$ns node-config -adhocRouting $rp -llType LL -macType Mac/802_11 -ifqType Queue/DropTail/PriQueue \
  -ifqLen 50 -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channel [new Channel/WirelessChannel] -topoInstance $topo -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
  set node($i) [$ns node]
  $node($i) random-motion 0
  $node($i) set X_ [expr {100.0 + 200.0 * $i}]
  $node($i) set Y_ 500.0
  $node($i) set Z_ 0.0
}
if {$rp == "NOAH"} {
  # static routes: node i forwards towards the sink through i+1
  for {set i 0} {$i < $hops} {incr i} {
    for {set d [expr {$i + 1}]} {$d < $nn} {incr d} {
      [$node($i) set ragent_] routing add [$node($d) address?] [$node([expr {$i + 1}]) address?] 0
    }
  }
}
set udp [new Agent/UDP]
$ns attach-agent $node(0) $udp
set sink [new Agent/LossMonitor]
$ns attach-agent $node($hops) $sink
$ns connect $udp $sink
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1480
$cbr set rate_ ${ratek}k
$cbr attach-agent $udp
$ns at 1.0 "$cbr start"
proc finish {} {
  global sink hops rts ratek dur
  set b [$sink set bytes_]
  puts [format "%d %d %s %s %d %.1f" $hops $rts $ratek $dur $b [expr {$b * 8.0 / ($dur - 1.0) / 1000.0}]]
  exit 0
}
$ns at [expr {$dur + 0.0}] "finish"
$ns run
