# Issue 15: what ns-2.35's one-way TCP does when its first packet (the SYN-sized packet 0,
# `syn_ true`) is lost. One Agent/TCP/Newreno over a 10 Mb/s, 25 ms link; ErrorModel/List drops
# packet 0; the agent's state is printed at fixed times. Run: ns bench/ns2/syn_loss.tcl
# (Debian ns2 2.35+dfsg-5). Findings in docs/models/tcp.md ("Differences from ns-2").
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 25ms DropTail
set em [new ErrorModel/List]
$em droplist {0}
$ns lossmodel $em $n0 $n1
set tcp [new Agent/TCP/Newreno]
$tcp set packetSize_ 1460
$tcp set window_ 64
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
proc show {} {
    global tcp ns
    puts "[format %.3f [$ns now]] cwnd [$tcp set cwnd_] ssthresh [$tcp set ssthresh_]\
          nrexmit [$tcp set nrexmit_] t_seqno [$tcp set t_seqno_] ack [$tcp set ack_]\
          srtt [$tcp set srtt_] backoff [$tcp set backoff_]"
}
foreach t {0.5 3.2 3.6 3.7 3.8 4.0} { $ns at $t "show" }
$ns at 0.5 "$ftp start"
$ns at 4.1 "exit 0"
$ns run
