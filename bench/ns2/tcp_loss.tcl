# ns-2.35 reference for issue 15: one TCP bulk flow s -> d over s -(10 Mb/s, 25 ms)- r -(10 Mb/s,
# 25 ms)- d with Bernoulli loss P on the s -> r data direction (ACKs are not lost). 1460 B
# segments (1500 B packets), window 64 packets, ns-2.35 defaults otherwise (minrto 0.2 s,
# windowInit 2, singledup 1, maxSackBlocks 3, no delayed ACK). Same setup as
# bench/ns2/tcp_loss.py's airtcp scenario.
# Usage: ns tcp_loss.tcl VARIANT(newreno|sack) P DURATION_S SEED
# Goodput counts the segments acknowledged after t = 10 s (airtcp: warmup = "10s"; this also
# leaves out ns-2's SYN exchange, whose first copy is lost at the base station in the 802.11 case).
# Prints: variant p seed goodput_kbps timeouts fast_recoveries
# Reference only: airtcp never needs ns-2 to build or test.
set variant [lindex $argv 0]
set p [lindex $argv 1]
set dur [lindex $argv 2]
set seed [lindex $argv 3]
ns-random $seed
set ns [new Simulator]
set s [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s $r 10Mb 25ms DropTail
$ns duplex-link $r $d 10Mb 25ms DropTail
$ns queue-limit $s $r 1000
$ns queue-limit $r $d 1000
set em [new ErrorModel]
$em unit pkt
$em set rate_ $p
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$ns lossmodel $em $s $r
if {$variant == "sack"} {
  set tcp [new Agent/TCP/Sack1]
  set sink [new Agent/TCPSink/Sack1]
} else {
  set tcp [new Agent/TCP/Newreno]
  set sink [new Agent/TCPSink]
}
$tcp set packetSize_ 1460
$tcp set window_ 64
$ns attach-agent $s $tcp
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"
proc finish {} {
  global acked0 tcp variant p seed dur
  set acked [$tcp set ack_]
  set to [$tcp set nrexmit_]
  set cuts [$tcp set ncwndcuts_]
  puts [format "%s %s %s %.1f %d %d" $variant $p $seed [expr {($acked - $acked0) * 1460 * 8 / ($dur - 10.0) / 1000.0}] $to [expr {$cuts - $to}]]
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
