# ns-2.35 side of the cell curve (bench/scaling): a wired server (100 Mb/s, 10 ms) behind an
# 802.11b AP (11 Mb/s data, 1 Mb/s control, RTS/CTS off, 50-packet IFQ), N stations on a circle
# of 50 m around it, each downloading with one TCP SACK bulk flow (1460 B, window 64), starts
# 1 s + i ms. Same setup as `gen.py cell N`. Wired-cum-wireless with hierarchical addresses.
# Usage: ns cell.tcl N DURATION_S [SEED]
# Prints: N duration rx_bytes goodput_kbps (sum over flows of the payload delivered in order,
# bytes over DURATION - 1 s). A TCPSink's bytes_ counts each segment with its 40 B header
# (packetSize_ + 40 = 1500 B per 1460 B of payload) and the 40 B SYN: converted to payload, as
# airtcp's delivered_bytes counts.
set nsta [lindex $argv 0]
set dur [lindex $argv 1]
set seed [expr {[llength $argv] > 2 ? [lindex $argv 2] : 1}]
Mac/802_11 set dataRate_ 11Mb
Mac/802_11 set basicRate_ 1Mb
Mac/802_11 set RTSThreshold_ 3000
ns-random $seed
# DSDV is only the vehicle of ns-2's wired-cum-wireless addressing here (airtcp's infrastructure
# mode has no routing protocol). With its defaults its control traffic grows as N^2 and took
# 5-30% of the channel from N = 50 on: every node advertises a new route at 2 x wst0_ = 12 s
# after learning it (triggered updates, one per second, for seconds), then again in a cascade,
# plus a full dump every perup_ = 15 s; all broadcast at 1 Mb/s with sizes growing with N, and a
# station whose own advertisement collided is reached through another station (2 hops) for the
# rest of the run. With both at 10^5 s every node sends only its initial dump (t < 2 s) and all
# routes stay one hop (checked in the trace: no relayed data, no "Route to base_stn" drops).
Agent/DSDV set perup_ 100000
Agent/DSDV set wst0_ 100000
set ns [new Simulator]
set tracefd [open /dev/null w]
$ns trace-all $tracefd
$ns node-config -addressType hierarchical
AddrParams set domain_num_ 2
lappend cluster_num 1 1
AddrParams set cluster_num_ $cluster_num
lappend eilastlevel 1 [expr {$nsta + 1}]
AddrParams set nodes_num_ $eilastlevel
set topo [new Topography]
$topo load_flatgrid 500 500
create-god [expr {$nsta + 1}]
set W [$ns node 0.0.0]
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 -ifqType Queue/DropTail/PriQueue \
  -ifqLen 50 -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channel $chan -topoInstance $topo -wiredRouting ON -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
set BS [$ns node 1.0.0]
$BS random-motion 0
$BS set X_ 250.0
$BS set Y_ 250.0
$BS set Z_ 0.0
$ns node-config -wiredRouting OFF
for {set i 0} {$i < $nsta} {incr i} {
  set a [expr {2.0 * 3.14159265358979 * $i / $nsta}]
  set sta($i) [$ns node 1.0.[expr {$i + 1}]]
  $sta($i) random-motion 0
  $sta($i) base-station [AddrParams addr2id [$BS node-addr]]
  $sta($i) set X_ [expr {250.0 + 50.0 * cos($a)}]
  $sta($i) set Y_ [expr {250.0 + 50.0 * sin($a)}]
  $sta($i) set Z_ 0.0
}
$ns duplex-link $W $BS 100Mb 10ms DropTail
for {set i 0} {$i < $nsta} {incr i} {
  set src($i) [new Agent/TCP/Sack1]
  $src($i) set packetSize_ 1460
  $src($i) set window_ 64
  set sink($i) [new Agent/TCPSink/Sack1]
  $ns attach-agent $W $src($i)
  $ns attach-agent $sta($i) $sink($i)
  $ns connect $src($i) $sink($i)
  set app($i) [new Application/FTP]
  $app($i) attach-agent $src($i)
  $ns at [expr {1.0 + 0.001 * $i}] "$app($i) start"
}
proc finish {} {
  global sink nsta dur
  set b 0
  for {set i 0} {$i < $nsta} {incr i} {
    set x [$sink($i) set bytes_]
    if {$x >= 40} { set b [expr {$b + ($x - 40) / 1500 * 1460}] }
  }
  puts [format "%d %s %d %.1f" $nsta $dur $b [expr {$b * 8.0 / ($dur - 1.0) / 1000.0}]]
  exit 0
}
$ns at $dur "finish"
$ns run
