# ns-2.35 reference for issue 15 (Westwood+ / Veno cross-check): one TCP bulk flow s -> d over
# s -(10 Mb/s, 25 ms)- r -(10 Mb/s, 25 ms)- d with Bernoulli loss P on the s -> r data direction
# (ACKs are not lost), the path of tcp_loss.tcl. The sender is ns-2.35's Linux TCP
# (Agent/TCP/Linux, Linux 2.6.22's congestion-control modules: `select_ca westwood|veno|reno`)
# with ns-2's SACK sink (Agent/TCPSink/Sack1), so its loss recovery is Linux's SACK recovery with
# rate halving; or VARIANT = newreno for ns-2's own Agent/TCP/Newreno with a plain sink
# (tcp_loss.tcl). Timestamps stay off: with them on, some runs livelocked while growing a
# "timestamp table" by gigabytes (one, westwood 2% seed 1, livelocks without them too near
# t = 1.2 s; westwood 5% seed 1 instead stalls with cwnd_ 0 after an early loss, ack_ stuck at
# 17): westwood_loss.py caps memory and wall time and reports such runs, and runs without goodput,
# as hung.
# 1460 B segments, window 64 packets, no delayed ACK, 1000-packet queues.
# Usage: ns westwood_loss.tcl VARIANT(westwood|veno|reno|newreno) P DURATION_S SEED
# Prints: variant p seed goodput_kbps timeouts fast_recoveries (goodput after t = 10 s)
# Timeouts: the Linux agent's retransmission-timer expiries (`nrexmit_` counts them for
# Agent/TCP/Newreno); fast recoveries: window cuts that were not timeouts.
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
if {$variant == "newreno"} {
  set tcp [new Agent/TCP/Newreno]
  set sink [new Agent/TCPSink]
} else {
  set tcp [new Agent/TCP/Linux]
  set sink [new Agent/TCPSink/Sack1]
}
$tcp set packetSize_ 1460
$tcp set window_ 64
$tcp set windowInit_ 2
$ns attach-agent $s $tcp
$ns attach-agent $d $sink
$ns connect $tcp $sink
if {$variant != "newreno"} {
  $ns at 0.0 "$tcp select_ca $variant"
}
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
