# ns-2.35 reference for issue 15: the 11 Mb/s 802.11b downlink of infra.tcl (wired server 100 Mb/s,
# 10 ms -> base station -> one station 100 m away; RTS/CTS off, 50-packet IFQ) with a packet error
# rate FER on every frame the station receives (IncomingErrProc: data frames and MAC ACKs) and MAC
# retry limit RETRY (ShortRetryLimit_: attempts; corrupted frames reach the MAC marked as errors:
# no ACK, EIFS). One TCP bulk flow server -> station, 1460 B
# segments, window 64 packets. Same setup as tcp_wifi.toml.
# Usage: ns tcp_wifi.tcl VARIANT(newreno|sack) FER RETRY DURATION_S SEED
# Goodput counts the segments acknowledged after t = 10 s (airtcp: warmup = "10s"; this also
# leaves out ns-2's SYN exchange, whose first copy is lost at the base station in the 802.11 case).
# Prints: variant fer seed goodput_kbps timeouts fast_recoveries
# Reference only: airtcp never needs ns-2 to build or test.
set variant [lindex $argv 0]
set fer [lindex $argv 1]
set retry [lindex $argv 2]
set dur [lindex $argv 3]
set seed [lindex $argv 4]
Mac/802_11 set ShortRetryLimit_ $retry
Mac/802_11 set LongRetryLimit_ $retry
Mac/802_11 set dataRate_ 11Mb
Mac/802_11 set basicRate_ 1Mb
Mac/802_11 set RTSThreshold_ 3000
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
proc err {} {
  global fer
  set e [new ErrorModel]
  $e unit pkt
  $e set rate_ $fer
  $e ranvar [new RandomVariable/Uniform]
  return $e
}
$ns node-config -wiredRouting OFF -IncomingErrProc err
set STA [$ns node 1.0.1]
$STA random-motion 0
$STA base-station [AddrParams addr2id [$BS node-addr]]
$STA set X_ 200.0
$STA set Y_ 100.0
$STA set Z_ 0.0
$ns duplex-link $W $BS 100Mb 10ms DropTail
if {$variant == "sack"} {
  set tcp [new Agent/TCP/Sack1]
  set sink [new Agent/TCPSink/Sack1]
} else {
  set tcp [new Agent/TCP/Newreno]
  set sink [new Agent/TCPSink]
}
$tcp set packetSize_ 1460
$tcp set window_ 64
$ns attach-agent $W $tcp
$ns attach-agent $STA $sink
$ns connect $tcp $sink
set app [new Application/FTP]
$app attach-agent $tcp
$ns at 1.0 "$app start"
proc finish {} {
  global acked0 tcp variant fer seed dur
  set acked [$tcp set ack_]
  set to [$tcp set nrexmit_]
  set cuts [$tcp set ncwndcuts_]
  puts [format "%s %s %s %.1f %d %d" $variant $fer $seed [expr {($acked - $acked0) * 1460 * 8 / ($dur - 10.0) / 1000.0}] $to [expr {$cuts - $to}]]
  exit 0
}
set acked0 0
proc mark {} {
  global tcp acked0
  set acked0 [$tcp set ack_]
}
$ns at 10.0 "mark"
$ns at $dur "finish"
$ns run
