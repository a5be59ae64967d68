//! Unit tests of the AODV agents, driven without a world.

use super::*;

fn agents(n: usize) -> Aodv {
    let names: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
    Aodv::new(AodvParams::default(), &names, &RngFactory::new(1, 0))
}

#[test]
fn first_packet_is_buffered_and_starts_a_network_wide_request() {
    let mut a = agents(4);
    let t = SimTime::from_secs(1);
    a.route(t, NodeId(0), PacketId(7), NodeId(0), NodeId(3));
    // A fresh entry's last hop count is "infinity": the first search is network-wide (TTL 30),
    // as in ns-2 traces.
    match a.out.as_slice() {
        [Action::Control { node: NodeId(0), msg: AodvMsg::Rreq(rq), ttl: 30, delay, .. }] => {
            assert_eq!((rq.dst, rq.src, rq.hop_count, rq.bcast_id), (NodeId(3), NodeId(0), 1, 1));
            assert_eq!(*delay, SimTime::ZERO);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(a.counters(NodeId(0)).buffered, 1);
    a.out.clear();
    // Rate limited: 2 x 30 hops x 30 ms x 1 request, capped at 10 s.
    a.route(t, NodeId(0), PacketId(8), NodeId(0), NodeId(3));
    assert!(a.out.is_empty());
    assert_eq!(a.entry(NodeId(0), NodeId(3)).req_timeout, t + SimTime::from_millis(1800));
}

/// Runs one discovery on a chain 0-1-2-3 by passing messages by hand (each broadcast reaches
/// the two neighbours, unicasts their next hop).
fn discover(a: &mut Aodv, t: SimTime) {
    a.route(t, NodeId(0), PacketId(1), NodeId(0), NodeId(3));
    let mut pending: Vec<Action> = std::mem::take(&mut a.out);
    let mut steps = 0;
    while let Some(act) = pending.first().copied() {
        pending.remove(0);
        steps += 1;
        assert!(steps < 100, "discovery does not converge");
        if let Action::Control { node, msg, ip_dst, ttl, hop, .. } = act {
            let receivers: Vec<u32> = if hop == BROADCAST_NODE {
                [node.0.wrapping_sub(1), node.0 + 1].into_iter().filter(|&r| r < 4).collect()
            } else {
                vec![hop.0]
            };
            for r in receivers {
                a.receive(t, NodeId(r), &msg, ip_dst, ttl);
                pending.append(&mut a.out);
            }
        }
    }
}

#[test]
fn a_discovery_installs_the_chain_routes_and_releases_the_buffer() {
    let mut a = agents(4);
    let t = SimTime::from_secs(1);
    discover(&mut a, t);
    for (node, next, hops) in [(0, 1, 3), (1, 2, 2), (2, 3, 1)] {
        let e = a.entry(NodeId(node), NodeId(3));
        assert_eq!((e.state, e.next_hop, e.hops), (RouteState::Up, NodeId(next), hops), "node {node}");
    }
    // Reverse routes towards the originator.
    for (node, next) in [(3, 2), (2, 1), (1, 0)] {
        assert_eq!(a.entry(NodeId(node), NodeId(0)).next_hop, NodeId(next));
    }
    assert_eq!(a.counters(NodeId(3)).rrep_sent, 1);
    assert_eq!(a.counters(NodeId(0)).buffered, 1);
}

#[test]
fn a_link_failure_drops_flushes_downs_and_reports() {
    let mut a = agents(4);
    let t = SimTime::from_secs(1);
    discover(&mut a, t);
    a.out.clear();
    // Node 1 gives up on a data packet for node 3 sent to node 2, after one hop: closer to the
    // source than to the destination, so no local repair.
    let f = Failed { pkt: PacketId(9), dst: NodeId(3), data: true, hops_travelled: 1, delivered: false };
    a.link_failed(t, NodeId(1), NodeId(2), f);
    let out = std::mem::take(&mut a.out);
    assert_eq!(out[0], Action::Drop { pkt: PacketId(9), cause: DropCause::LinkFailure });
    assert_eq!(out[1], Action::Flush { node: NodeId(1), hop: NodeId(2) });
    let Action::Control { msg: AodvMsg::Rerr(e), ttl: 1, delay, .. } = out[2] else { panic!("{out:?}") };
    assert_eq!(delay, SimTime::ZERO);
    let dsts: Vec<NodeId> = e.entries().iter().map(|&(d, _)| d).collect();
    assert_eq!(dsts, vec![NodeId(3)], "node 1 knows only the routes the discovery taught it");
    assert_eq!(a.entry(NodeId(1), NodeId(3)).state, RouteState::Down);
    assert_eq!(a.entry(NodeId(1), NodeId(3)).last_hop_count, 2);
    // The RERR reaches node 0, which uses node 1 for node 3 and has no precursors: it downs the
    // route, flushes its queue towards node 1 and does not rebroadcast.
    a.receive(t, NodeId(0), &AodvMsg::Rerr(e), BROADCAST_NODE, 1);
    assert_eq!(a.out, vec![Action::Flush { node: NodeId(0), hop: NodeId(1) }]);
    assert_eq!(a.entry(NodeId(0), NodeId(3)).state, RouteState::Down);
    a.out.clear();
    // A packet node 1 must forward now is dropped with a RERR; one node 0 originates is buffered
    // and triggers an expanding-ring request (last hop count 3 -> TTL 5).
    a.route(t, NodeId(1), PacketId(10), NodeId(0), NodeId(3));
    assert!(matches!(a.out[0], Action::Control { msg: AodvMsg::Rerr(_), .. }));
    assert_eq!(a.out[1], Action::Drop { pkt: PacketId(10), cause: DropCause::NoRoute });
    a.out.clear();
    a.route(t, NodeId(0), PacketId(11), NodeId(0), NodeId(3));
    assert!(matches!(a.out[0], Action::Control { msg: AodvMsg::Rreq(_), ttl: 5, .. }));
}

#[test]
fn a_failure_near_the_destination_starts_a_local_repair() {
    let mut a = agents(4);
    let t = SimTime::from_secs(1);
    discover(&mut a, t);
    a.out.clear();
    // Node 2 fails towards node 3 with a packet that travelled 2 hops (> 1 hop left).
    let f = Failed { pkt: PacketId(9), dst: NodeId(3), data: true, hops_travelled: 2, delivered: false };
    a.link_failed(t, NodeId(2), NodeId(2 + 1), f);
    assert_eq!(a.entry(NodeId(2), NodeId(3)).state, RouteState::InRepair);
    assert_eq!(a.counters(NodeId(2)).local_repairs, 1);
    assert!(!a.out.iter().any(|x| matches!(x, Action::Flush { .. } | Action::Drop { .. })), "{:?}", a.out);
    assert!(a.out.iter().any(|x| matches!(x, Action::Control { msg: AodvMsg::Rreq(_), .. })));
    // ns-2 schedules the give-up timer with the absolute request expiry used as a delay.
    let expiry = a.entry(NodeId(2), NodeId(3)).req_timeout;
    assert!(a.out.contains(&Action::RepairTimer { node: NodeId(2), dst: NodeId(3), at: t + expiry }));
}

#[test]
fn a_delivered_packet_is_freed_not_lost() {
    let mut a = agents(4);
    let t = SimTime::from_secs(1);
    discover(&mut a, t);
    a.out.clear();
    let f = Failed { pkt: PacketId(9), dst: NodeId(3), data: true, hops_travelled: 0, delivered: true };
    a.link_failed(t, NodeId(0), NodeId(1), f);
    assert_eq!(a.out[0], Action::Free { pkt: PacketId(9) });
    assert_eq!(a.counters(NodeId(0)).link_failure_drops, 0);
}

#[test]
fn unused_routes_expire_at_the_purge() {
    let mut a = agents(4);
    let t = SimTime::from_secs(1);
    discover(&mut a, t);
    a.out.clear();
    a.purge(t + SimTime::from_secs(11));
    assert_eq!(a.entry(NodeId(0), NodeId(3)).state, RouteState::Down);
}

/// The purge as ns-2's `rt_purge` runs it (and as it ran here on the dense table): every
/// destination of every node, in ascending order.
fn purge_full(a: &mut Aodv, now: SimTime, n: usize) {
    if now >= a.next_id_purge {
        for ag in &mut a.agents {
            ag.bcast_ids.retain(|&(_, _, exp)| exp > now);
        }
        a.next_id_purge = now + a.params.bcast_id_save;
    }
    let arp = a.params.arp_delay;
    for i in 0..a.agents.len() {
        let node = a.agents[i].node;
        for d in 0..n {
            let dst = NodeId(d as u32);
            let (state, expire) = {
                let rt = a.agents[i].table.get(dst);
                (rt.state, rt.expire)
            };
            if state == RouteState::Up && expire < now {
                let rt = a.agents[i].table.get_mut(dst);
                rt.seqno = rt.seqno.wrapping_add(1);
                rt.down();
                while let Some(pkt) = a.agents[i].buffer.take(dst, now, &mut a.scratch) {
                    a.scratch.push(pkt);
                }
                a.drop_scratch(node);
            } else if state == RouteState::Up {
                a.release(now, node, dst, arp);
            } else {
                let waiting = a.agents[i].buffer.has(dst, now, &mut a.scratch);
                a.drop_scratch(node);
                if waiting {
                    a.send_request(now, node, dst);
                }
            }
        }
    }
}

fn copy(a: &Aodv) -> Aodv {
    Aodv {
        params: a.params.clone(),
        agents: a.agents.clone(),
        out: a.out.clone(),
        scratch: Vec::new(),
        visit: Vec::new(),
        next_id_purge: a.next_id_purge,
    }
}

/// Property: the purge (entries and waiting packets only) has exactly the full pass's effect:
/// the same actions in the same order, and the same tables, send buffers, counters and random
/// streams afterwards. Agents are driven at random (data packets, requests, replies, errors,
/// link failures, repair timeouts) with short lifetimes and buffer timeouts so that routes
/// expire, packets time out, wait behind routes that are up, down or in repair, and requests
/// are rate limited; the test also checks that every one of these cases was reached.
#[test]
fn purge_matches_the_full_pass() {
    use rand::SeedableRng;
    let mut rng = crate::rng::SimRng::seed_from_u64(0x19);
    let ms = |v: u64| SimTime::from_millis(v);
    // Cases seen across all runs: [expired up route, up route with packets waiting, packets
    // waiting behind a route that is not up (request sent), purges that dropped packets,
    // packets waiting behind a route that is not up with requests rate limited].
    let mut seen = [0u32; 5];
    for case in 0..400u64 {
        let n = rng.random_range(2..9usize);
        let params = AodvParams {
            active_route_timeout: ms(rng.random_range(100..4_000)),
            my_route_timeout: ms(rng.random_range(100..4_000)),
            rev_route_life: ms(rng.random_range(100..4_000)),
            bcast_id_save: ms(rng.random_range(100..4_000)),
            max_rreq_timeout: ms(rng.random_range(100..4_000)),
            buffer_timeout: ms(rng.random_range(100..6_000)),
            buffer_limit: rng.random_range(1..6),
            local_repair: rng.random_bool(0.5),
            ..AodvParams::default()
        };
        let names: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
        let mut a = Aodv::new(params, &names, &RngFactory::new(case, 0));
        let mut now = SimTime::ZERO;
        let node = |rng: &mut crate::rng::SimRng| NodeId(rng.random_range(0..n as u32));
        for step in 0..80u32 {
            now += ms(rng.random_range(0..700));
            let at = node(&mut rng);
            match rng.random_range(0..8) {
                0 | 1 => {
                    let dst = NodeId((at.0 + rng.random_range(1..n as u32)) % n as u32);
                    let src = if rng.random_bool(0.6) { at } else { node(&mut rng) };
                    a.route(now, at, PacketId(step), src, dst);
                }
                2 => {
                    let rq = Rreq {
                        hop_count: rng.random_range(1..6),
                        bcast_id: rng.random_range(1..6),
                        dst: node(&mut rng),
                        dst_seqno: rng.random_range(0..8),
                        src: node(&mut rng),
                        src_seqno: rng.random_range(0..8),
                        timestamp: now.saturating_sub(ms(rng.random_range(0..200))),
                        sender: node(&mut rng),
                    };
                    a.receive(now, at, &AodvMsg::Rreq(rq), BROADCAST_NODE, rng.random_range(1..6));
                }
                3 => {
                    let rp = Rrep {
                        hop_count: rng.random_range(1..6),
                        dst: node(&mut rng),
                        dst_seqno: rng.random_range(0..8),
                        sender: node(&mut rng),
                        lifetime: ms(rng.random_range(0..4_000)),
                        timestamp: now.saturating_sub(ms(rng.random_range(0..200))),
                    };
                    let ip_dst = if rng.random_bool(0.5) { at } else { node(&mut rng) };
                    a.receive(now, at, &AodvMsg::Rrep(rp), ip_dst, rng.random_range(1..6));
                }
                4 => {
                    let count = rng.random_range(1..4u8);
                    let mut e = Rerr { sender: node(&mut rng), count, unreachable: [(NodeId(0), 0); RERR_MAX] };
                    for u in &mut e.unreachable[..count as usize] {
                        *u = (node(&mut rng), rng.random_range(0..8));
                    }
                    a.receive(now, at, &AodvMsg::Rerr(e), BROADCAST_NODE, 1);
                }
                5 => {
                    let f = Failed {
                        pkt: PacketId(1_000 + step),
                        dst: node(&mut rng),
                        data: rng.random_bool(0.9),
                        hops_travelled: rng.random_range(0..4),
                        delivered: rng.random_bool(0.2),
                    };
                    a.link_failed(now, at, node(&mut rng), f);
                }
                6 => a.repair_timeout(at, node(&mut rng)),
                _ => {
                    // A route brought up without releasing its packets (through the public
                    // calls a route coming up releases them at once): the purge's release case.
                    let (dst, hop) = (node(&mut rng), node(&mut rng));
                    let expire = now + ms(rng.random_range(0..2_000));
                    a.agents[at.0 as usize].table.get_mut(dst).update(rng.random_range(0..8), 2, hop, expire);
                }
            }
            a.out.clear();
            if rng.random_bool(0.35) {
                for ag in &a.agents {
                    let expired = ag.table.iter().filter(|(_, e)| e.state == RouteState::Up && e.expire < now).count();
                    seen[0] += expired as u32;
                    for dst in ag.buffer.destinations() {
                        let e = ag.table.get(dst);
                        if e.state == RouteState::Up && e.expire >= now {
                            seen[1] += 1;
                        } else if e.state != RouteState::Up && e.req_timeout <= now {
                            seen[2] += 1;
                        } else if e.state != RouteState::Up {
                            seen[4] += 1;
                        }
                    }
                }
                let mut full = copy(&a);
                purge_full(&mut full, now, n);
                a.purge(now);
                assert_eq!(a.out, full.out, "case {case} step {step}: actions");
                assert_eq!(a.agents, full.agents, "case {case} step {step}: agents");
                assert_eq!(a.next_id_purge, full.next_id_purge);
                seen[3] += u32::from(a.out.iter().any(|x| matches!(x, Action::Drop { .. })));
                a.out.clear();
            }
        }
    }
    assert!(seen.iter().all(|&k| k >= 20), "every kind of visit reached: {seen:?}");
}
