# ns-2.35 counterpart of airtcp's example scenario (scenarios/example.toml), for the sweep of
# short runs measured "against ns-2 run the same way" (bench/sweep_throughput.py --executors ns2,
# issue 19). Reference only: airtcp never needs ns-2.
#
#   h1 --\                         /-- h3
#         r1 ==== bottleneck ==== r2
#   h2 --/   (lossy access link)   \-- h4
#
# Usage: ns example.tcl DURATION VIDEO_RATE_BPS REPLICATION [SEED] [BURSTY_START] [BURSTY_STOP] [RED_ECN]
#   DURATION seconds simulated; VIDEO_RATE_BPS the CBR flow's payload rate (the sweep's parameter
#   flows.video.app.rate); SEED (default 1) and REPLICATION select the random streams, as airtcp's
#   sweeps do (seed, replication): ns-2's default RNG (MRG32k3a) is seeded with
#   SEED x 100003 + REPLICATION + 1, a different seed per run, the usual ns-2 practice. (Moving
#   REPLICATION substreams on from one seed would give streams independent by construction, but
#   each `next-substream` costs about 18 us through Tcl on the loaded test machine, 89 ms at
#   replication 5,000: a 10,000-run sweep cost 59.4 ms of CPU per run that way, 54.2 ms with one
#   seed per run.) The bursty flow runs
#   from BURSTY_START (default 1) to BURSTY_STOP (default DURATION - 1), as sweep_throughput.py sets
#   them; RED_ECN (default 1) is the bottleneck queue's setbit_.
# Prints one line: "video_bytes bursty_bytes video_pkts bursty_pkts", application payload bytes
# delivered to each sink over the whole run (airtcp's delivered_bytes for UDP flows).
#
# The same scenario, stated in ns-2's terms (what airtcp does is in docs/models/*.md):
# - Links: full duplex, access links 100 Mb/s 1 ms drop-tail 50 packets (ns-2's default limit, the
#   packet in service not counted, as airtcp); r2-h4 11 Mb/s 2 ms; bottleneck 10 Mb/s 20 ms RED.
# - RED as airtcp's `red` queue: limit 100 packets, thresholds 5 and 15 packets (queue_in_bytes_
#   false, bytes_ false: ns-2.35's defaults count bytes), max_p 0.1 (linterm_ 10), w_q 0.002,
#   gentle, mean packet size 500 B for the idle decay, wait_ false (the classic
#   p_a = p_b / (1 - count p_b), which airtcp implements), setbit_ true.
# - Packet sizes: airtcp's datagram is payload + 8 (UDP) + 20 (IP) bytes on the wire and its rates
#   count payload bits; ns-2's UDP agent sends packets of the application's packetSize_ with no
#   header added, and the application's rate_ counts those bytes. So packetSize_ = payload + 28 and
#   rate_ = rate x (payload + 28) / payload: the same wire sizes and the same intervals.
# - Pareto ON/OFF (airtcp: mean_rate 6 Mb/s, ON and OFF 500 ms, shape 1.5): ns-2's rate_ is the
#   peak, mean_rate x (on + off) / on = 12 Mb/s payload. ns-2 starts with an OFF period, airtcp with
#   an ON period (docs/models/traffic.md): one initial OFF period of difference.
# - Gilbert-Elliott loss on r2 -> h4 only (p_gb 0.01, p_bg 0.25, loss 0 in good, 0.5 in bad, per
#   packet): ns-2's ErrorModel/MultiState with per-packet transitions (sttype pkt) between an
#   ErrorModel/Uniform 0 and an ErrorModel/Uniform 0.5, after the link's delay (link-lossmodel: a
#   lost packet has used the link, as in airtcp). ns-2 moves the chain before judging a packet and
#   starts in the good state; airtcp judges, then moves, and starts from the stationary
#   distribution (3.8% bad): the same process after the first packet.
# - ECN: airtcp's video flow is ECN-capable (`ecn = true`), so RED marks its datagrams instead of
#   dropping them. ns-2.35's Agent/UDP cannot send ECN-capable packets (Agent::initpkt clears
#   ecn_capable_ and UdpAgent::sendmsg never sets it), so here RED drops them: compare with airtcp's
#   example with `ecn = false` for the delivered bytes (sweep_throughput.py --ns2-check does both).
if {$argc < 3} {
	puts stderr "usage: ns example.tcl DURATION VIDEO_RATE_BPS REPLICATION \[SEED\] \[BURSTY_START\] \[BURSTY_STOP\] \[RED_ECN\]"
	exit 2
}
set duration [lindex $argv 0]
set video_rate [lindex $argv 1]
set replication [lindex $argv 2]
set seed [expr {$argc > 3 ? [lindex $argv 3] : 1}]
set bursty_start [expr {$argc > 4 ? [lindex $argv 4] : 1.0}]
set bursty_stop [expr {$argc > 5 ? [lindex $argv 5] : $duration - 1.0}]
set red_ecn [expr {$argc > 6 ? [lindex $argv 6] : 1}]

# MRG32k3a seeds must be in 1 .. 4294944442 (every component of the seed vector is set to it).
set rng_seed [expr {wide($seed) * 100003 + $replication + 1}]
if {$rng_seed < 1 || $rng_seed > 4294944442} {
	puts stderr "SEED x 100003 + REPLICATION + 1 = $rng_seed: must be in 1 .. 4294944442"
	exit 2
}
global defaultRNG
$defaultRNG seed $rng_seed

set ns [new Simulator]
foreach n {h1 h2 r1 r2 h3 h4} {
	set $n [$ns node]
}

Queue/RED set queue_in_bytes_ false
Queue/RED set bytes_ false
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Queue/RED set linterm_ 10
Queue/RED set q_weight_ 0.002
Queue/RED set gentle_ true
Queue/RED set wait_ false
Queue/RED set mean_pktsize_ 500
Queue/RED set setbit_ [expr {$red_ecn ? "true" : "false"}]

$ns duplex-link $h1 $r1 100Mb 1ms DropTail
$ns duplex-link $h2 $r1 100Mb 1ms DropTail
$ns duplex-link $r1 $r2 10Mb 20ms RED
$ns queue-limit $r1 $r2 100
$ns queue-limit $r2 $r1 100
$ns duplex-link $r2 $h3 100Mb 1ms DropTail
$ns duplex-link $r2 $h4 11Mb 2ms DropTail

set good [new ErrorModel/Uniform 0 pkt]
set bad [new ErrorModel/Uniform 0.5 pkt]
set em [new ErrorModel/MultiState [list $good $bad] {1 1} {{0.99 0.01} {0.25 0.75}} pkt pkt 2 $good]
$em drop-target [new Agent/Null]
$ns link-lossmodel $em $r2 $h4

# Video: CBR 1200 B payload from h1 to h3, from 0 s to the end.
set udp0 [new Agent/UDP]
$udp0 set packetSize_ 1228
$ns attach-agent $h1 $udp0
set sink0 [new Agent/LossMonitor]
$ns attach-agent $h3 $sink0
$ns connect $udp0 $sink0
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1228
$cbr set rate_ [expr {$video_rate * 1228.0 / 1200.0}]
$cbr attach-agent $udp0
$ns at 0.0 "$cbr start"

# Bursty: Pareto ON/OFF, 1000 B payload, peak 12 Mb/s payload, from h2 to h4.
set udp1 [new Agent/UDP]
$udp1 set packetSize_ 1028
$ns attach-agent $h2 $udp1
set sink1 [new Agent/LossMonitor]
$ns attach-agent $h4 $sink1
$ns connect $udp1 $sink1
set par [new Application/Traffic/Pareto]
$par set packetSize_ 1028
$par set rate_ [expr {12e6 * 1028.0 / 1000.0}]
$par set burst_time_ 0.5
$par set idle_time_ 0.5
$par set shape_ 1.5
$par attach-agent $udp1
$ns at $bursty_start "$par start"
$ns at $bursty_stop "$par stop"

proc finish {} {
	global sink0 sink1
	set n0 [$sink0 set npkts_]
	set n1 [$sink1 set npkts_]
	puts "[expr {[$sink0 set bytes_] - 28 * $n0}] [expr {[$sink1 set bytes_] - 28 * $n1}] $n0 $n1"
	exit 0
}
$ns at $duration "finish"
$ns run
