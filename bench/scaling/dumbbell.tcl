# ns-2.35 side of the dumbbell curve (bench/scaling): F TCP SACK flows (Agent/TCP/Sack1, window 64,
# 1460 B, FTP) on 100 Mb/s, 1 ms access links sharing a 100 Mb/s, 20 ms drop-tail bottleneck
# (queue max(100, F) packets); flow i starts at 1 s + (1000 i / F) ms. Same setup as `gen.py dumbbell F`.
# Usage: ns dumbbell.tcl F DURATION_S
# Prints: F duration rx_bytes goodput_kbps (sum over flows of the payload delivered in order,
# bytes over DURATION - 1 s; a TCPSink's bytes_ counts 1500 B per 1460 B segment and the 40 B
# SYN, converted to payload as airtcp's delivered_bytes counts)
set nf [lindex $argv 0]
set dur [lindex $argv 1]
set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 100Mb 20ms DropTail
$ns queue-limit $r1 $r2 [expr {$nf > 100 ? $nf : 100}]
$ns queue-limit $r2 $r1 [expr {$nf > 100 ? $nf : 100}]
for {set i 0} {$i < $nf} {incr i} {
  set s($i) [$ns node]
  set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 100Mb 1ms DropTail
  $ns duplex-link $r2 $d($i) 100Mb 1ms DropTail
  set src($i) [new Agent/TCP/Sack1]
  $src($i) set packetSize_ 1460
  $src($i) set window_ 64
  set sink($i) [new Agent/TCPSink/Sack1]
  $ns attach-agent $s($i) $src($i)
  $ns attach-agent $d($i) $sink($i)
  $ns connect $src($i) $sink($i)
  set app($i) [new Application/FTP]
  $app($i) attach-agent $src($i)
  $ns at [expr {1.0 + int(1000 * $i / $nf) / 1000.0}] "$app($i) start"
}
proc finish {} {
  global sink nf dur
  set b 0
  for {set i 0} {$i < $nf} {incr i} {
    set x [$sink($i) set bytes_]
    if {$x >= 40} { set b [expr {$b + ($x - 40) / 1500 * 1460}] }
  }
  puts [format "%d %s %d %.1f" $nf $dur $b [expr {$b * 8.0 / ($dur - 1.0) / 1000.0}]]
  exit 0
}
$ns at $dur "finish"
$ns run
