# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fabric-wide lossless checks over the plan (lossless-math.md §3.5, §4, §5, §6).

Each rule returns findings {rule, severity, device, location, message, numbers, hint}. ERROR
stops the run before anything is rendered or pushed; WARN is reported. Every rule is linear in
devices and links; the deadlock analysis uses the fabric's symmetry where that is exact.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.checks import ecmp
from ansible_collections.roce.fabric.plugins.module_utils.model import fabric
from ansible_collections.roce.fabric.plugins.module_utils.lossless import pause as thresholds
from ansible_collections.roce.fabric.plugins.module_utils.checks.deadlock import check_deadlock

ROCE_MIN_L3_MTU = 4096 + 60    # RoCE path MTU 4096 + IP/UDP/BTH/RETH/ICRC headers (§3.5 #11)
SONIC_WD_DETECTION_MS = (100, 5000)   # SONiC YANG PFC_WD detection_time range (sonic.md §2)


_v = errors.finding


def _switches(devices):
    return [d for d in devices.values() if d["kind"] == "switch"]


def check_ecn_before_pfc(fab, devices):
    out = []
    for sw in _switches(devices):
        trig = sw["buffer"]["trigger"]
        if trig is None:
            continue
        seen = set()
        for port in sw["ports"]:
            ll = port["lossless"]
            if not ll or not ll["ecn"]:
                continue
            e = ll["ecn"]
            key = (e["kmin_bytes"], e["kmax_bytes"], e["pmax"])
            if key in seen:
                continue
            seen.add(key)
            limit = trig["trigger_one_pg_bytes"]
            nums = dict(kmin_bytes=e["kmin_bytes"], kmax_bytes=e["kmax_bytes"], pmax=e["pmax"],
                        pfc_trigger_bytes=limit)
            if not 0 <= e["kmin_bytes"] < e["kmax_bytes"] or not 0 < e["pmax"] <= 1:
                out.append(_v("ecn-before-pfc", "ERROR", sw["name"], port["name"],
                              "ECN Kmin %d B / Kmax %d B / Pmax %s out of order"
                              % (e["kmin_bytes"], e["kmax_bytes"], e["pmax"]),
                              "set 0 <= kmin_bytes < kmax_bytes and 0 < pmax <= 1", **nums))
            elif e["kmax_bytes"] >= limit:
                out.append(_v("ecn-before-pfc", "ERROR", sw["name"], port["name"],
                              "ECN Kmax %d B is at or above the PFC pause point %d B: PFC "
                              "pauses before ECN marks" % (e["kmax_bytes"], limit),
                              "lower roce_lossless.ecn.kmax_bytes to <= %d" % int(0.8 * limit),
                              **nums))
            elif e["kmax_bytes"] > 0.8 * limit:
                out.append(_v("ecn-before-pfc", "WARN", sw["name"], port["name"],
                              "ECN Kmax %d B is above 0.8 x the pause point %d B"
                              % (e["kmax_bytes"], limit),
                              "keep kmax_bytes <= %d" % int(0.8 * limit), **nums))
    return out


def check_xon_xoff(fab, devices):
    out = []
    for sw in _switches(devices):
        trig = sw["buffer"]["trigger"]
        if trig is None:
            continue
        mtu = max(p["mtu_bytes"] for p in sw["ports"])
        for severity, msg in thresholds.check_xon(trig["xon_bytes"], trig["trigger_n_pgs_bytes"],
                                                  mtu):
            out.append(_v("xon-below-xoff", severity, sw["name"], "lossless pool", msg,
                          "set roce_lossless.xon_offset_bytes >= 2 x MTU = %d" % (2 * mtu),
                          xon_bytes=trig["xon_bytes"], xoff_bytes=trig["trigger_n_pgs_bytes"]))
        for port in sw["ports"]:
            hr = port["lossless"] and port["lossless"]["headroom"]
            if hr and hr["model"] == "ieee" and hr["xon_bytes"] >= hr["xoff_bytes"]:
                out.append(_v("xon-below-xoff", "ERROR", sw["name"], port["name"],
                              "headroom xon %d B >= xoff %d B"
                              % (hr["xon_bytes"], hr["xoff_bytes"]),
                              "check the port MTU", xon_bytes=hr["xon_bytes"],
                              xoff_bytes=hr["xoff_bytes"]))
    return out


def check_headroom(fab, devices):
    out = []
    for sw in _switches(devices):
        for port in sw["ports"]:
            ll = port["lossless"]
            if not ll:
                continue
            need, have = ll["headroom_required_bytes"], ll["headroom_configured_bytes"]
            if have < need:
                out.append(_v("headroom-covers-flight", "ERROR", sw["name"], port["name"],
                              "headroom %d B < %d B in flight on this %dG, %g m link to %s"
                              % (have, need, port["speed_gbps"], port["cable_m"], port["peer"]),
                              "remove the headroom override or raise it to >= %d B" % need,
                              headroom_bytes=have, required_bytes=need,
                              cable_m=port["cable_m"], speed_gbps=port["speed_gbps"]))
    return out


def check_buffer_budget(fab, devices):
    out = []
    for sw in _switches(devices):
        b = sw["buffer"]
        if b["shared_headroom_pool_bytes"] < b["shared_headroom_pool_required_bytes"]:
            out.append(_v("buffer-budget", "ERROR", sw["name"], "shared headroom pool",
                          "shared headroom pool %d B < sum(xoff) / over_subscribe_ratio = %d B"
                          % (b["shared_headroom_pool_bytes"],
                             b["shared_headroom_pool_required_bytes"]),
                          "raise roce_asic_overrides.shared_headroom_pool_bytes or "
                          "roce_lossless.over_subscribe_ratio",
                          shared_headroom_pool_bytes=b["shared_headroom_pool_bytes"],
                          required_bytes=b["shared_headroom_pool_required_bytes"]))
        if b["budget_error"]:
            out.append(_v("buffer-budget", "ERROR", sw["name"], "buffer", b["budget_error"],
                          "shorten cables, fewer lossless PGs, or a larger over_subscribe_ratio",
                          total_buffer_bytes=b["total_buffer_bytes"],
                          headroom_bytes=b["reserved_headroom_bytes"],
                          shared_headroom_pool_bytes=b["shared_headroom_pool_bytes"],
                          shared_pool_bytes=b["shared_pool_bytes"],
                          overdrawn_bytes=1 - b["shared_pool_bytes"]))
    return out


def _link_ends(fab, devices):
    """(device a, port a, device b, port-or-nic b, kind) for every link, both ends' intent."""
    for kind, a, b in fab.links:
        dev_a = devices[a.switch]
        if kind == "host":
            dev_b = devices[b.host]
            yield dev_a, a.name, dev_b, dev_b["nics"][b.index], kind
        else:
            yield dev_a, a.name, devices[b.switch], b.name, kind


def _port(dev, name):
    return dev["ports"][_port_index(dev, name)]


def _port_index(dev, name):
    index = dev.get("_port_index")
    if index is None:
        index = dev["_port_index"] = dict((p["name"], i) for i, p in enumerate(dev["ports"]))
    return index[name]


def check_link_consistency(fab, devices):
    """PFC sets and lossless classes equal on both ends of every link (§3.5 #8, #9)."""
    out = []
    for dev_a, pa, dev_b, b, kind in _link_ends(fab, devices):
        qa = dev_a["qos"]
        qb = b["qos"] if kind == "host" else dev_b["qos"]
        if qa is qb:         # both ends share one QoS intent (no override on either)
            continue
        where = "%s<->%s:%s" % (pa, dev_b["name"], b["name"] if kind == "host" else b)
        if qa["pfc_priorities"] != qb["pfc_priorities"]:
            out.append(_v("pfc-match", "ERROR", dev_a["name"], where,
                          "PFC priorities %s here, %s on %s"
                          % (qa["pfc_priorities"], qb["pfc_priorities"], dev_b["name"]),
                          "use the same roce_qos.pfc_priorities on both ends",
                          local=qa["pfc_priorities"], remote=qb["pfc_priorities"]))
        la = (qa["lossless_priorities"], qa["roce_dscp"], qa["roce_tc"], qa["trust"])
        lb = (qb["lossless_priorities"], qb["roce_dscp"], qb["roce_tc"], qb["trust"])
        if la != lb:
            out.append(_v("lossless-class-match", "ERROR", dev_a["name"], where,
                          "lossless class differs: here priorities %s, RoCE DSCP %d -> TC %d, "
                          "trust %s; on %s %s, DSCP %d -> TC %d, trust %s"
                          % (la + (dev_b["name"],) + lb),
                          "render both ends from one roce_qos plan",
                          local=list(la), remote=list(lb)))
    return out


def check_device_classes(fab, devices):
    """On each device: PFC == lossless priorities (pfc-match); RoCE DSCP -> TC == lossless ==
    ECN queues (lossless-class-match); CNP strict and lossy (cnp-strict-lossy)."""
    out = []
    for dev in devices.values():
        qos_list = [("qos", dev["qos"])] if dev["kind"] == "switch" else \
            [(n["name"], n["qos"]) for n in dev["nics"]]
        for where, q in qos_list:
            lossless = q["lossless_priorities"]
            if q["pfc_priorities"] != lossless:
                out.append(_v("pfc-match", "ERROR", dev["name"], where,
                              "PFC on priorities %s, but the lossless priorities (with "
                              "headroom) are %s" % (q["pfc_priorities"], lossless),
                              "enable PFC on exactly the lossless priorities",
                              pfc=q["pfc_priorities"], lossless=lossless))
            if not ([q["roce_tc"]] == lossless
                    and (dev["kind"] == "host" or q["ecn_queues"] == lossless)):
                out.append(_v("lossless-class-match", "ERROR", dev["name"], where,
                              "RoCE DSCP %d -> TC %d, lossless %s, ECN queues %s differ"
                              % (q["roce_dscp"], q["roce_tc"], lossless, q["ecn_queues"]),
                              "map the RoCE DSCP to the one lossless TC with ECN on it",
                              roce_tc=q["roce_tc"], lossless=lossless, ecn=q["ecn_queues"]))
            cnp = q["cnp_tc"]
            if cnp in q["pfc_priorities"] or cnp in q["ecn_queues"] or \
                    q["cnp_scheduler"] != "strict":
                out.append(_v("cnp-strict-lossy", "ERROR", dev["name"], where,
                              "CNP DSCP %d -> TC %d must be strict (is %s), without PFC (%s) and "
                              "without ECN (%s)" % (q["cnp_dscp"], cnp, q["cnp_scheduler"],
                                                    q["pfc_priorities"], q["ecn_queues"]),
                              "CNP on its own strict, lossy, unmarked queue (e.g. DSCP 48 -> TC 6)",
                              cnp_tc=cnp))
    return out


def check_mtu_chain(fab, devices):
    # The link ends themselves carry the MTUs the intents copy (one pass, no lookups).
    out = []
    for kind, a, b in fab.links:
        mine = a.mtu_bytes
        if kind == "host":
            if b.mtu_bytes > mine or b.mtu_bytes < ROCE_MIN_L3_MTU:
                out.append(_v("mtu-chain", "ERROR", b.host, b.name,
                              "NIC MTU %d B vs leaf %s %s MTU %d B: need %d <= NIC <= leaf"
                              % (b.mtu_bytes, a.switch, a.name, mine, ROCE_MIN_L3_MTU),
                              "host MTU 9000 with leaf/spine 9216 is the usual chain",
                              nic_mtu=b.mtu_bytes, leaf_mtu=mine))
            continue
        theirs = b.mtu_bytes
        if mine != theirs or mine < ROCE_MIN_L3_MTU:
            out.append(_v("mtu-chain", "ERROR", a.switch, "%s<->%s:%s" % (a.name, b.switch, b.name),
                          "MTU %d B here, %d B on %s (must be equal and >= %d)"
                          % (mine, theirs, b.switch, ROCE_MIN_L3_MTU),
                          "set the same roce_mtu on both tiers", local=mine, remote=theirs))
    return out


def check_pfc_watchdog(fab, devices):
    out = []
    for sw in _switches(devices):
        wd = sw["pfc_watchdog"]
        lo, hi = SONIC_WD_DETECTION_MS
        bad = None
        if not wd["enabled"]:
            bad = "PFC watchdog disabled on lossless queues %s" % sw["qos"]["pfc_priorities"]
        elif not wd["poll_ms"] <= min(wd["detection_ms"], wd["restoration_ms"]):
            bad = "poll %d ms must be <= detection %d ms and restoration %d ms" % (
                wd["poll_ms"], wd["detection_ms"], wd["restoration_ms"])
        elif not lo <= wd["detection_ms"] <= hi:
            bad = "detection %d ms outside %d..%d ms" % (wd["detection_ms"], lo, hi)
        if bad:
            timers = dict((k, wd[k]) for k in ("poll_ms", "detection_ms", "restoration_ms"))
            out.append(_v("pfc-watchdog", "ERROR", sw["name"], "pfc watchdog", bad,
                          "enable it with poll 100-200 ms, detection 200 ms, restoration "
                          "200-400 ms", **timers))
    return out


def _tier_links(dev):
    """(down ports, up ports) of a switch: hosts/spines for a leaf, leaves/super-spines for a
    spine, spines/none for a super-spine."""
    below, above = fabric.DOWNLINK[dev["role"]], fabric.UPLINK.get(dev["role"])
    down = [p for p in dev["ports"] if p["peer_kind"] == below and p["up"]]
    up = [p for p in dev["ports"] if p["peer_kind"] == above and p["up"]]
    return down, up


def check_oversubscription(fab, devices):
    out = []
    limits = {"leaf": ("max_oversubscription", "add uplinks (links_per_leaf_spine) or spines"),
              "spine": ("max_oversubscription_above_pod", "add uplinks "
                        "(links_per_spine_superspine) or super-spines")}
    for dev in _switches(devices):
        if dev["role"] not in limits or (dev["role"] == "spine" and fab.tiers == 2):
            continue
        down, up = _tier_links(dev)
        field, fix = limits[dev["role"]]
        limit = fab.settings[field]
        down_g = sum(p["speed_gbps"] for p in down)
        up_g = sum(p["speed_gbps"] for p in up)
        ratio = down_g / float(up_g) if up_g else float("inf")
        if ratio > limit:
            out.append(_v("oversubscription", "ERROR", dev["name"], "uplinks",
                          "%d G down vs %d G up = %.2f:1 (max %.2f:1, roce_fabric.%s)"
                          % (down_g, up_g, ratio, limit, field),
                          fix + " for the planned ratio",
                          down_gbps=down_g, up_gbps=up_g, ratio=ratio))
    return out


def _rail_crossing(fab):
    """Switches whose uplinks carry same-rail traffic: a leaf hosting a rail that other leaves
    host too, a three-tier spine whose pod shares a rail with another pod. NCCL keeps a
    collective on its rail (PXN moves cross-rail data over NVLink first), so a leaf that holds
    all of its rails' NICs sends next to nothing up (lossless-math.md §6, rail-optimized)."""
    leaves_of, rails_of = {}, {}
    for _host, nics in fab.hosts:
        for nic in nics:
            leaves_of.setdefault((fab.switches[nic.leaf].plane, nic.rail), set()).add(nic.leaf)
            rails_of.setdefault(nic.leaf, set()).add(nic.rail)
    crossing = set()
    pods_of = {}
    for (plane, rail), leaves in leaves_of.items():
        pods_of[(plane, rail)] = set(fab.switches[leaf].pod for leaf in leaves)
        if len(leaves) > 1:
            crossing.update(leaves)
    for sw in fab.spines:
        if any(len(pods) > 1 and sw.pod in pods for pods in pods_of.values()):
            crossing.add(sw.name)
    return crossing


def check_ecmp(fab, devices):
    out = []
    crossing = _rail_crossing(fab)
    for dev in _switches(devices):
        bgp = dev["bgp"]
        if bgp["ecmp_width"] > bgp["maximum_paths"]:
            out.append(_v("ecmp-width", "ERROR", dev["name"], "router bgp",
                          "ECMP width %d exceeds maximum-paths %d"
                          % (bgp["ecmp_width"], bgp["maximum_paths"]),
                          "raise roce_fabric.routing.maximum_paths to >= %d" % bgp["ecmp_width"],
                          width=bgp["ecmp_width"], maximum_paths=bgp["maximum_paths"]))
        e = dev["ecmp"]
        rendered = e["rendered"]
        if "l4_src_port" not in rendered["hash_fields"]:
            out.append(_v("hash-entropy", "ERROR", dev["name"], "ecmp hash",
                          "the rendered hash fields %s leave out the UDP source port, RoCEv2's "
                          "only per-QP entropy" % rendered["hash_fields"],
                          "add l4_src_port to roce_ecmp.hash_fields",
                          fields=rendered["hash_fields"]))
        if rendered["adaptive_routing"] or dev["name"] not in crossing:
            continue
        down, up = _tier_links(dev)
        if not down or len(up) < 2:
            continue
        figures = ecmp.balls_into_bins(len(down) * e["qps_per_connection"], len(up))
        if figures["efficiency"] < ecmp.EFFICIENCY_WARN:
            asked = " (requested, but %s renders none)" % dev["platform"] \
                if e["adaptive_routing"] else ""
            out.append(_v("ecmp-efficiency", "WARN", dev["name"], "uplinks",
                          "same-rail traffic hashed without adaptive routing%s: %d flows on %d "
                          "uplinks, E[max load] %.3f, efficiency %.3f < %.1f"
                          % (asked, figures["flows"], figures["links"],
                             figures["expected_max_load"], figures["efficiency"],
                             ecmp.EFFICIENCY_WARN),
                          "a platform that renders DLB/adaptive routing here, a rail layout "
                          "that keeps each rail on one leaf, or more QPs per connection",
                          **figures))
    out.extend(_polarization(devices))
    return out


def _polarization(devices):
    """Tiers of one ASIC family hashing with one seed polarize (lossless-math.md §5.1)."""
    tiers = {}
    for dev in _switches(devices):
        key = (dev["asic_family"], dev["ecmp"]["rendered"]["seed"])
        tiers.setdefault(key, {}).setdefault(dev["role"], dev["name"])
    out = []
    for (family, seed), roles in sorted(tiers.items()):
        if len(roles) < 2:
            continue
        named = sorted(roles.items())
        out.append(_v("hash-polarization", "WARN", named[1][1], "ecmp seed %d" % seed,
                      "%s hash with the same seed %d on %s ASICs: flows polarize across tiers"
                      % (" and ".join("%ss (e.g. %s)" % item for item in named), seed, family),
                      "give each tier its own seed (roce_fabric.ecmp.seeds on EOS; SONiC "
                      "derives it from the switch type)", seed=seed, roles=sorted(roles)))
    return out


def check_ecn_incast(fab, devices):
    """ECN starts marking before PFC pauses under incast: Kmin below the pause point an ingress
    PG reaches when every lossless queue of the switch holds Kmin (LM §3.1-3.2, DCQCN §5)."""
    out = []
    for sw in _switches(devices):
        trig = sw["buffer"]["trigger"]
        if trig is None:
            continue
        bound = trig["incast_pause_bytes"]
        worst = None
        for port in sw["ports"]:
            ll = port["lossless"]
            if ll and ll["ecn"] and (worst is None or ll["ecn"]["kmin_bytes"] >
                                     worst[1]["lossless"]["ecn"]["kmin_bytes"]):
                worst = (port["name"], port)
        if worst is None or worst[1]["lossless"]["ecn"]["kmin_bytes"] < bound:
            continue
        kmin = worst[1]["lossless"]["ecn"]["kmin_bytes"]
        out.append(_v("ecn-before-pfc-incast", "ERROR", sw["name"], worst[0],
                      "ECN Kmin %d B >= %d B: with all %d lossless ports congested a PG pauses "
                      "before any queue marks" % (kmin, bound, trig["incast_fanout_ports"]),
                      "lower roce_lossless.ecn.kmin_bytes to <= %d" % int(0.8 * bound),
                      kmin_bytes=kmin, incast_pause_bytes=bound,
                      fanout_ports=trig["incast_fanout_ports"]))
    return out


def check_port_map(fab, devices):
    """A switch without roce_model gets a generic port map: names, lanes and (SONiC) HWSKU no
    real switch is known to have, so the plan cannot vouch for its ports."""
    out = []
    for dev in _switches(devices):
        if dev["hardware"] is None:
            out.append(_v("port-map", "WARN", dev["name"], "ports",
                          "no roce_model: port names, lanes and aliases are generic (%s), not "
                          "those of a real switch, and no HWSKU is rendered" % dev["asic"],
                          "set roce_model to the switch's model (docs/rendering.md lists them)"))
    return out


RULE_IDS = ("ecn-before-pfc", "xon-below-xoff", "headroom-covers-flight", "buffer-budget",
            "pfc-match", "lossless-class-match", "cnp-strict-lossy", "mtu-chain", "pfc-watchdog",
            "oversubscription", "ecmp-width", "ecmp-efficiency", "hash-entropy",
            "hash-polarization", "ecn-before-pfc-incast", "pfc-deadlock", "port-map")

RULES = {
    "ecn-before-pfc": check_ecn_before_pfc,
    "xon-below-xoff": check_xon_xoff,
    "headroom-covers-flight": check_headroom,
    "buffer-budget": check_buffer_budget,
    "pfc-match": check_link_consistency,          # also emits lossless-class-match per link
    "lossless-class-match": check_device_classes,  # also emits cnp-strict-lossy
    "mtu-chain": check_mtu_chain,
    "pfc-watchdog": check_pfc_watchdog,
    "oversubscription": check_oversubscription,
    "ecmp": check_ecmp,                            # ecmp-width, ecmp-efficiency, hash-*
    "ecn-before-pfc-incast": check_ecn_incast,
    "pfc-deadlock": check_deadlock,
    "port-map": check_port_map,
}


def run_all(fab, devices):
    out = []
    for func in RULES.values():
        out.extend(func(fab, devices))
    for dev in devices.values():
        dev.pop("_port_index", None)
    order = {"ERROR": 0, "WARN": 1}
    out.sort(key=lambda v: (order[v["severity"]], v["rule"], v["device"], v["location"]))
    return out
