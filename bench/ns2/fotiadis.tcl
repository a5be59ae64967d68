# ns-2.35 cross-check of the Fotiadis 2005 cell (study fotiadis2005): USERS mobile TCP SACK
# senders on a circle of 200 m around an 802.11b base station (11 Mb/s data, 1 Mb/s control),
# BS -- 100 Mb/s, w/2 -- router -- 100 Mb/s, w/2 -- one wired receiver per mobile. The loss model as ns-2 places it: an
# ErrorModel/Periodic (unit pkt, period 100, burstlen k: "k out of 100 packets lost,
# consecutively") as -IncomingErrProc of every wireless node, so every frame a node receives
# (data, TCP ACK, RTS, CTS, MAC ACK, both directions) is judged; a judged frame is marked
# corrupted and discarded by the MAC (EIFS, no ACK).
# Usage: ns fotiadis.tcl K WPROP_MS SHORT LONG RTS(0|1) [SEED] [DURATION_S] [STARTS_S] [MINRTO_S]
#          [WINDOW] [OFFSET] [USERS]
#   SHORT/LONG: the mobiles' retry limits (7 4 = st-802.11, 50 50 = inf-RL; the BS keeps 7 4)
#   STARTS_S: flow start times, comma-separated, one per mobile (default 1.0 each)
#   MINRTO_S: Agent/TCP minrto_ (default 0.2, ns-2's since 2004/10/14; 0 = no floor but 2 ticks)
#   WINDOW: Agent/TCP window_ (default 20)
#   OFFSET: ErrorModel/Periodic offset_ (default 101-K: the first 100-K frames a radio receives
#     pass, then K are lost, then 100-K pass...: the study's burst offset "end")
#   USERS: mobiles (default 1)
#   ERRAT: "all" (default: the error model on every wireless node) or "bs" (the base station
#     only: the uplink frames, RTS and data, and nothing the mobiles receive)
# Prints: k wprop short long rts goodput_kbps(20 s..end) timeouts(nrexmit_) rexmit_pkts data_pkts,
# each summed over the flows
# Reference only: airtcp never needs ns-2 to build or test.
set k [lindex $argv 0]
set wprop [lindex $argv 1]
set srl [lindex $argv 2]
set lrl [lindex $argv 3]
set rts [lindex $argv 4]
set seed [expr {[llength $argv] > 5 ? [lindex $argv 5] : 1}]
set dur [expr {[llength $argv] > 6 ? [lindex $argv 6] : 140}]
set starts [split [expr {[llength $argv] > 7 ? [lindex $argv 7] : "1.0"}] ,]
Agent/TCP set minrto_ [expr {[llength $argv] > 8 ? [lindex $argv 8] : 0.2}]
Agent/TCP set window_ [expr {[llength $argv] > 9 ? [lindex $argv 9] : 20}]
set offset [expr {[llength $argv] > 10 ? [lindex $argv 10] : 101 - $k}]
set users [expr {[llength $argv] > 11 ? [lindex $argv 11] : 1}]
set errat [expr {[llength $argv] > 12 ? [lindex $argv 12] : "all"}]
Mac/802_11 set dataRate_ 11Mb
Mac/802_11 set basicRate_ 1Mb
if {$rts} { Mac/802_11 set RTSThreshold_ 0 } else { Mac/802_11 set RTSThreshold_ 3000 }
ns-random $seed

set ns [new Simulator]
set tracefd [open /dev/null w]
$ns trace-all $tracefd
$ns node-config -addressType hierarchical
AddrParams set domain_num_ 2
lappend cluster_num 1 1
AddrParams set cluster_num_ $cluster_num
lappend eilastlevel [expr {$users + 1}] [expr {$users + 1}]
AddrParams set nodes_num_ $eilastlevel
set topo [new Topography]
$topo load_flatgrid 500 500
create-god [expr {$users + 1}]
set R [$ns node 0.0.0]
for {set i 0} {$i < $users} {incr i} { set W($i) [$ns node 0.0.[expr {$i + 1}]] }

set mobiles_now 0
proc PeriodicErr {} {
  global k offset errat mobiles_now
  set e [new ErrorModel/Periodic]
  $e unit pkt
  $e set period_ 100
  $e set offset_ $offset ;# the frame numbered offset_ is the first lost, then K-1 more, every 100
  $e set burstlen_ $k
  if {$errat == "bs" && $mobiles_now} { $e set offset_ 1e9 } ;# never reaches its first loss
  return $e
}
set chan [new Channel/WirelessChannel]
set ep ""
if {$k > 0} { set ep PeriodicErr }
$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 -ifqType Queue/DropTail/PriQueue \
  -ifqLen 50 -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channel $chan -topoInstance $topo -wiredRouting ON -agentTrace OFF -routerTrace OFF -macTrace OFF \
  -movementTrace OFF -IncomingErrProc $ep
set BS [$ns node 1.0.0]
$BS random-motion 0
$BS set X_ 250.0
$BS set Y_ 250.0
$BS set Z_ 0.0
$ns node-config -wiredRouting OFF
set mobiles_now 1 ;# PeriodicErr is called per node as it is created: the mobiles come next
set pi 3.14159265358979
for {set i 0} {$i < $users} {incr i} {
  set STA($i) [$ns node 1.0.[expr {$i + 1}]]
  $STA($i) random-motion 0
  $STA($i) base-station [AddrParams addr2id [$BS node-addr]]
  set a [expr {2 * $pi * $i / $users}]
  $STA($i) set X_ [expr {250.0 + 200.0 * cos($a)}]
  $STA($i) set Y_ [expr {250.0 + 200.0 * sin($a)}]
  $STA($i) set Z_ 0.0
  set mac [$STA($i) set mac_(0)]
  $mac set ShortRetryLimit_ $srl
  $mac set LongRetryLimit_ $lrl
}
set half [expr {$wprop / 2.0}]
$ns duplex-link $BS $R 100Mb ${half}ms DropTail
for {set i 0} {$i < $users} {incr i} { $ns duplex-link $R $W($i) 100Mb ${half}ms DropTail }

for {set i 0} {$i < $users} {incr i} {
  set src($i) [new Agent/TCP/Sack1]
  $src($i) set timestamps_ true
  set sink($i) [new Agent/TCPSink/Sack1]
  $ns attach-agent $STA($i) $src($i)
  $ns attach-agent $W($i) $sink($i)
  $ns connect $src($i) $sink($i)
  set app($i) [new Application/FTP]
  $app($i) attach-agent $src($i)
  set t [lindex $starts [expr {$i < [llength $starts] ? $i : 0}]]
  $ns at $t "$app($i) start"
}
proc total {var} {
  global users sink src
  set n 0
  for {set i 0} {$i < $users} {incr i} {
    if {$var == "bytes_"} { set n [expr {$n + [$sink($i) set bytes_]}] } else { set n [expr {$n + [$src($i) set $var]}] }
  }
  return $n
}
set b20 0
proc mark {} { global b20; set b20 [total bytes_] }
$ns at 20.0 "mark"
proc finish {} {
  global b20 dur k wprop srl lrl rts
  set b [expr {[total bytes_] - $b20}]
  puts [format "%s %s %s %s %s %.1f %d %d %d" $k $wprop $srl $lrl $rts [expr {$b * 8.0 / ($dur - 20.0) / 1000.0}] \
    [total nrexmit_] [total nrexmitpack_] [total ndatapack_]]
  exit 0
}
$ns at $dur "finish"
$ns run
