# ns-2.35 reference runs for the Afrakhteh 2005 study (python/airtcp/studies/afrakhteh2005.py):
# a static 802.11 chain, 200 m spacing, WaveLAN radio (2 Mb/s data), AODV, one flow from node 0 to
# node HOPS. Reference only: airtcp never needs ns-2 to build or test.
#
# Usage: ns afrakhteh.tcl key=value ...   (every key has a default)
#   hops=3 rts=0|1 basic=1Mb|2Mb dur=300 seed=1
#   transport=tcp|udp   variant=Newreno|Reno|Tahoe|Vegas|Sack1   sink=TCPSink|DelAck|Sack1|Sack1/DelAck
#   delack=0.1 (DelAck interval, s)   window=20   size=1460 (TCP payload / CBR packet size)
#   rate=1700 (CBR kb/s)   ifq=50   per=0 (uniform packet error rate on every received unicast frame)
#   errdrop=0 (1: corrupted frames are dropped before the MAC, so it never senses them; 0: they
#   reach the MAC marked as errors: no ACK, EIFS)
#   minrto=0.2 rtoinit=3 (ns-2.35 defaults; ns-2.27 used 1 and 6)   retry=7 lretry=4   trace=FILE
#   nodes=HOPS+1 spacing=200 src=0 dst=HOPS (the thesis keeps all 7 nodes: nodes=7)
#   flow2=KIND:SRC:DST[:RATE] a second flow, KIND tcp (same settings as the first) or udp (CBR, RATE kb/s)
#
# Prints one line of key=value results:
#   rx_bytes (bytes received by the sink agent, AGT layer, duplicates included, packet sizes as
#   traced: TCP 1460+40, UDP 1480+20), rx_pkts, acked_bytes (TCP: highest cumulative ACK x size),
#   kbps_ack (acked bytes over dur - start), kbps_rx (rx_bytes over dur), start; TCP also timeouts
#   (nrexmit_: retransmission-timer expiries) and cwndcuts (ncwndcuts_: timeouts + fast recoveries).
foreach arg $argv {
  set kv [split $arg =]
  set opt([lindex $kv 0]) [lindex $kv 1]
}
proc o {k d} { global opt; if {[info exists opt($k)]} { return $opt($k) } { return $d } }
set hops [o hops 3]; set rts [o rts 0]; set basic [o basic 1Mb]; set dur [o dur 300]; set seed [o seed 1]
set transport [o transport tcp]; set variant [o variant Newreno]; set sinkt [o sink TCPSink]
set window [o window 20]; set size [o size [expr {[o transport tcp] == "tcp" ? 1460 : 1480}]]; set rate [o rate 1700]; set ifq [o ifq 50]
set per [o per 0]; set start [o start 1.0]; set trace [o trace /dev/null]
set nn [o nodes [expr {$hops + 1}]]; set spacing [o spacing 200.0]
set s0 [o src 0]; set d0 [o dst $hops]; set flow2 [o flow2 ""]

Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ $basic
Mac/802_11 set ShortRetryLimit_ [o retry 7]
Mac/802_11 set LongRetryLimit_ [o lretry 4]
if {$rts} { Mac/802_11 set RTSThreshold_ 0 } else { Mac/802_11 set RTSThreshold_ 5000 }
Agent/TCP set minrto_ [o minrto 0.2]
Agent/TCP set rtxcur_init_ [o rtoinit 3.0]
Agent/TCPSink/DelAck set interval_ [o delack 0.1]
Agent/TCPSink/Sack1/DelAck set interval_ [o delack 0.1]
Agent/UDP set packetSize_ 65536 ;# no fragmentation of CBR packets
ns-random $seed

set ns [new Simulator]
set tracefd [open $trace w]
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 1500 1000
create-god $nn
set chan [new Channel/WirelessChannel]
set tr [expr {$trace != "/dev/null" ? "ON" : "OFF"}]
$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 -ifqType Queue/DropTail/PriQueue \
  -ifqLen $ifq -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channel $chan -topoInstance $topo -agentTrace $tr -routerTrace $tr -macTrace $tr -movementTrace OFF
if {$per > 0} {
  proc err {} {
    global per
    set e [new ErrorModel]
    $e set rate_ $per
    $e unit pkt
    $e ranvar [new RandomVariable/Uniform]
    if {[o errdrop 0]} { $e drop-target [new Agent/Null] }
    return $e
  }
  $ns node-config -IncomingErrProc err
}
for {set i 0} {$i < $nn} {incr i} {
  set node($i) [$ns node]
  $node($i) random-motion 0
  $node($i) set X_ [expr {100.0 + $spacing * $i}]
  $node($i) set Y_ 500.0
  $node($i) set Z_ 0.0
}
proc tcpflow {a b} {
  global ns node variant window size sinkt
  if {$variant == "Tahoe"} { set src [new Agent/TCP] } else { set src [new Agent/TCP/$variant] }
  $src set window_ $window
  $src set packetSize_ $size
  set sink [new Agent/$sinkt]
  $ns attach-agent $node($a) $src
  $ns attach-agent $node($b) $sink
  $ns connect $src $sink
  set app [new Application/FTP]
  $app attach-agent $src
  return [list $src $sink $app]
}
proc udpflow {a b rate sz} {
  global ns node
  set src [new Agent/UDP]
  set sink [new Agent/LossMonitor]
  $ns attach-agent $node($a) $src
  $ns attach-agent $node($b) $sink
  $ns connect $src $sink
  set app [new Application/Traffic/CBR]
  $app set packetSize_ $sz
  $app set rate_ ${rate}k
  $app attach-agent $src
  return [list $src $sink $app]
}
if {$transport == "tcp"} {
  lassign [tcpflow $s0 $d0] src sink app
} else {
  lassign [udpflow $s0 $d0 $rate $size] src sink app
}
set src2 ""
if {$flow2 != ""} {
  set f2 [split $flow2 :]
  if {[lindex $f2 0] == "tcp"} {
    lassign [tcpflow [lindex $f2 1] [lindex $f2 2]] src2 sink2 app2
  } else {
    lassign [udpflow [lindex $f2 1] [lindex $f2 2] [lindex $f2 3] 1480] src2 sink2 app2
  }
  $ns at $start "$app2 start"
}
$ns at $start "$app start"
proc finish {} {
  global src sink transport size dur start hops rts basic seed tracefd src2 sink2 flow2
  flush $tracefd
  if {$flow2 != ""} {
    set b2 [$sink2 set bytes_]
    puts -nonewline [format "flow2_rx_bytes=%d flow2_kbps_rx=%.1f " $b2 [expr {$b2 * 8.0 / ($dur - $start) / 1000.0}]]
  }
  if {$transport == "tcp"} {
    set acked [expr {[$src set ack_] * 1.0 * $size}]
    set b [$sink set bytes_]
    puts [format "hops=%d rts=%d basic=%s seed=%d acked_bytes=%.0f kbps_ack=%.1f rx_bytes=%d kbps_rx=%.1f timeouts=%d cwndcuts=%d" \
      $hops $rts $basic $seed $acked [expr {$acked * 8.0 / ($dur - $start) / 1000.0}] \
      $b [expr {$b * 8.0 / ($dur - $start) / 1000.0}] [$src set nrexmit_] [$src set ncwndcuts_]]
  } else {
    set b [$sink set bytes_]
    puts [format "hops=%d rts=%d basic=%s seed=%d rx_bytes=%d rx_pkts=%d kbps_rx=%.1f" \
      $hops $rts $basic $seed $b [$sink set npkts_] [expr {$b * 8.0 / ($dur - $start) / 1000.0}]]
  }
  exit 0
}
$ns at $dur "finish"
$ns run
