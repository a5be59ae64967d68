# bench/scaling copy of bench/ns2/chain_tcp.tcl with the flat grid sized to the chain (long chains).
# ns-2.35 reference: one TCP NewReno (FTP) flow over a static 802.11 chain, 200 m spacing, WaveLAN
# defaults with 2 Mb/s data and 1 Mb/s control frames, AODV (Afrakhteh 2005: window 20, 1460 B).
# Usage: ns chain.tcl HOPS RTS(0|1) DURATION_S [SEED]
# Prints: hops rts duration rx_bytes throughput_kbps
set hops [lindex $argv 0]
set rts [lindex $argv 1]
set dur [lindex $argv 2]
set seed [expr {[llength $argv] > 3 ? [lindex $argv 3] : 1}]
set nn [expr {$hops + 1}]
Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ 1Mb
if {$rts} { Mac/802_11 set RTSThreshold_ 0 } else { Mac/802_11 set RTSThreshold_ 5000 }
ns-random $seed
set ns [new Simulator]
set tracefd [open /dev/null w]
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid [expr {200.0 * $hops + 300}] 1000
create-god $nn
$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 -ifqType Queue/DropTail/PriQueue \
  -ifqLen 50 -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channel [new Channel/WirelessChannel] -topoInstance $topo -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
  set node($i) [$ns node]
  $node($i) random-motion 0
  $node($i) set X_ [expr {100.0 + 200.0 * $i}]
  $node($i) set Y_ 500.0
  $node($i) set Z_ 0.0
}
set tcp [new Agent/TCP/Newreno]
$tcp set window_ 20
$tcp set packetSize_ 1460
set sink [new Agent/TCPSink]
$ns attach-agent $node(0) $tcp
$ns attach-agent $node($hops) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 1.0 "$ftp start"
proc finish {} {
  global tcp hops rts dur
  set b [expr {[$tcp set ack_] * 1460.0}]
  puts [format "%d %d %s %.0f %.1f" $hops $rts $dur $b [expr {$b * 8.0 / ($dur - 1.0) / 1000.0}]]
  exit 0
}
$ns at $dur "finish"
$ns run
