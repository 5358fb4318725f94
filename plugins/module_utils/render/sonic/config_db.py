# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""SONiC config_db.json from one switch's plan intent (FRR's bgpd.conf: render/sonic/frr.py).

Every lossless number is copied from the plan, never recomputed here. In SONiC's traditional
buffer model the lossless profiles are pinned per (speed, cable class) with SONiC's own names
(pg_lossless_<Mb/s>_<m>m_profile), so buffermgrd's ini lookup plays no part; in the dynamic
model the PGs are left to buffermgrd, which computes the plan's numbers (buffer_model.py), but
a pinned headroom, rendered as SONiC's headroom override.
Pools and lossy profiles follow the switch vendor (render/sonic/buffers.py). Routing uses SONiC's
split FRR mode (frr.py); BGP_NEIGHBOR and DEVICE_NEIGHBOR are still written so SONiC's show and
LLDP tooling know the peers.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.hardware import capabilities
from ansible_collections.roce.fabric.plugins.module_utils.plan import qos as plan_qos
from ansible_collections.roce.fabric.plugins.module_utils.records import (
    EcnMarks, LosslessProfile, PortIntent, QosIntent, SwitchIntent)
from ansible_collections.roce.fabric.plugins.module_utils.render import memo
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import buffers

MAP = "ROCE"
HASH_FIELDS = capabilities.SONIC_HASH_FIELDS
ROUTER_TYPE = capabilities.SONIC_ROUTER_TYPE
FLEX_COUNTERS = ("PFCWD", "QUEUE", "PG_WATERMARK", "QUEUE_WATERMARK", "PORT")
SCHEDULERS = {"cnp_strict": {"type": "STRICT"},
              "roce_dwrr": {"type": "DWRR", "weight": "50"},   # Cumulus RoCE: TC3 DWRR 50 %
              "lossy_dwrr": {"type": "DWRR", "weight": "50"}}  # and TC0 DWRR 50 %


def _ranges(values: Sequence[int]) -> List[str]:
    """[0, 1, 2, 4, 5] -> ['0-2', '4-5'] (SONiC range keys)."""
    out = []
    run: List[int] = []
    for v in sorted(values):
        if run and v != run[-1] + 1:
            out.append(_span(run))
            run = []
        run.append(v)
    if run:
        out.append(_span(run))
    return out


def _span(run: List[int]) -> str:
    return str(run[0]) if len(run) == 1 else "%d-%d" % (run[0], run[-1])


def profile_name(port: PortIntent) -> str:
    """The standard BUFFER_PROFILE name of lossless ``port``'s PG profile."""
    ll = cast(LosslessProfile, port["lossless"])
    return "pg_lossless_%d_%dm_profile" % (port["speed_gbps"] * 1000, ll["cable_class_m"])


def wred_name(ecn: EcnMarks) -> str:
    return "ROCE_LOSSLESS_%d_%d" % (ecn["kmin_bytes"], ecn["kmax_bytes"])


def config_db(dev: SwitchIntent) -> Dict[str, Any]:
    """CONFIG_DB tables for switch intent ``dev`` (the plan's devices[<switch>])."""
    db = _switch_tables(dev)
    db.update(buffers.tables(dev["buffer"]))
    _port_tables(db, dev, _shared_rows(dev))
    for nbr in dev["bgp"]["neighbors"]:
        db["BGP_NEIGHBOR"][nbr["address"]] = {
            "asn": str(nbr["asn"]), "name": nbr["name"], "local_addr": nbr["local_address"],
            "admin_status": "up", "holdtime": "9", "keepalive": "3"}
    hardware = dev.get("hardware") or {}
    if hardware.get("hwsku"):
        db["DEVICE_METADATA"]["localhost"].update(hwsku=hardware["hwsku"],
                                                  platform=hardware["platform"])
    return dict((k, v) for k, v in db.items() if v)


def _switch_tables(dev: SwitchIntent) -> Dict[str, Any]:
    """The switch-wide tables (metadata, QoS maps, schedulers, hash, counters) and the empty
    per-port tables the ports fill in."""
    q = dev["qos"]
    maps = _qos_maps(q)
    hash_fields = [HASH_FIELDS[f] for f in dev["ecmp"]["rendered"]["hash_fields"]]
    return {
        "DEVICE_METADATA": {"localhost": {
            "hostname": dev["name"], "type": ROUTER_TYPE[dev["role"]],
            "bgp_asn": str(dev["bgp"]["asn"]),
            "buffer_model": "dynamic" if buffers.dynamic(dev["buffer"]) else "traditional",
            "docker_routing_config_mode": "split", "default_pfcwd_status": "enable"}},
        "LOOPBACK_INTERFACE": {"Loopback0": {}, "Loopback0|%s" % dev["loopback"]: {}},
        "PORT": {}, "INTERFACE": {}, "DEVICE_NEIGHBOR": {}, "BGP_NEIGHBOR": {},
        "CABLE_LENGTH": {"AZURE": {}},
        "BUFFER_PG": {}, "BUFFER_QUEUE": {},
        "DSCP_TO_TC_MAP": {MAP: dict(maps[0])},
        "TC_TO_PRIORITY_GROUP_MAP": {MAP: dict(maps[1])},
        "TC_TO_QUEUE_MAP": {MAP: dict(maps[2])},
        "MAP_PFC_PRIORITY_TO_QUEUE": {MAP: dict((str(t), str(t)) for t in range(8))},
        "PORT_QOS_MAP": {"global": {"dscp_to_tc_map": MAP}},
        "WRED_PROFILE": {}, "QUEUE": {}, "SCHEDULER": dict(SCHEDULERS),
        "PFC_WD": {"GLOBAL": {"POLL_INTERVAL": str(dev["pfc_watchdog"]["poll_ms"])}},
        "SWITCH_HASH": {"GLOBAL": {"ecmp_hash": hash_fields, "lag_hash": list(hash_fields)}},
        "FLEX_COUNTER_TABLE": dict((c, {"FLEX_COUNTER_STATUS": "enable"}) for c in FLEX_COUNTERS),
        "BUFFER_PORT_INGRESS_PROFILE_LIST": {}, "BUFFER_PORT_EGRESS_PROFILE_LIST": {},
    }


@memo.by_identity(1000)      # switches share a handful of QoS intents
def _qos_maps(q: QosIntent) -> Tuple[Tuple[Tuple[str, str], ...], ...]:
    """The DSCP -> TC, TC -> PG and TC -> queue rows of QoS intent ``q`` as text, made once per
    intent the switches share (every switch copies them into its own tables)."""
    return (tuple((str(d), str(tc)) for d, tc in plan_qos.dscp_map(q).items()),
            tuple((str(t), str(pg)) for t, pg in sorted(q["tc_to_pg"].items())),
            tuple((str(t), str(x)) for t, x in sorted(q["tc_to_queue"].items())))


def _shared_rows(dev: SwitchIntent) -> Dict[str, Any]:
    """Per switch, not per port: the PG/queue key suffixes and row values every port repeats
    (ports of one headroom / ECN class share the profile rows the ports loop adds)."""
    q = dev["qos"]
    lossless = q["lossless_priorities"]
    lossy_queues = [t for t in range(8) if t not in lossless]
    lossy_pg_row, lossy_queue_row, ingress_list, egress_list = buffers.port_rows(dev["buffer"])
    pfc = ",".join(str(p) for p in q["pfc_priorities"])
    wd = dev["pfc_watchdog"]
    queue_sched: List[Tuple[int, Optional[Dict[str, str]]]] = []
    for queue in range(8):
        if queue in q["ecn_queues"]:
            queue_sched.append((queue, None))                  # RoCE: DWRR + the port's WRED
        elif queue == q["cnp_tc"]:
            queue_sched.append((queue, {"scheduler": "cnp_strict" if q["cnp_scheduler"] ==
                                        "strict" else "lossy_dwrr"}))
        elif queue == 0:
            queue_sched.append((queue, {"scheduler": "lossy_dwrr"}))
    sched_rows = [("|%d" % queue, entry) for queue, entry in queue_sched]   # QUEUE key suffixes
    return {
        "pg": [("|" + pg, None) for pg in _ranges(lossless)] +
              [("|" + pg, lossy_pg_row) for pg in _ranges([0])],
        "queue": [("|" + qr, {"profile": "egress_lossless_profile"})
                  for qr in _ranges(lossless)] +
                 [("|" + qr, lossy_queue_row) for qr in _ranges(lossy_queues)],
        "qos": {"dscp_to_tc_map": MAP, "tc_to_queue_map": MAP, "tc_to_pg_map": MAP,
                "pfc_to_queue_map": MAP, "pfc_enable": pfc, "pfcwd_sw_enable": pfc},
        "wd": {"action": wd["action"], "detection_time": str(wd["detection_ms"]),
               "restoration_time": str(wd["restoration_ms"])} if wd["enabled"] else None,
        "ingress": ingress_list, "egress": egress_list, "queue_sched": sched_rows,
    }


def _port_tables(db: Dict[str, Any], dev: SwitchIntent, rows: Dict[str, Any]) -> None:
    """Every port's rows in every per-port table. Ports of one headroom / ECN class share the
    profile rows made for the first of them. One loop with the tables at hand: a 100k-GPU
    fabric renders 655,360 ports."""
    port_t, intf, neigh = db["PORT"], db["INTERFACE"], db["DEVICE_NEIGHBOR"]
    cable_t, pg_t, queue_t = db["CABLE_LENGTH"]["AZURE"], db["BUFFER_PG"], db["BUFFER_QUEUE"]
    ingress_t, egress_t = db["BUFFER_PORT_INGRESS_PROFILE_LIST"], \
        db["BUFFER_PORT_EGRESS_PROFILE_LIST"]
    qos_t, wred_t, sched_t, wd_t = db["PORT_QOS_MAP"], db["WRED_PROFILE"], db["QUEUE"], \
        db["PFC_WD"]
    pg_rows, queue_rows, queue_sched = rows["pg"], rows["queue"], rows["queue_sched"]
    ingress, egress, qos, wd = rows["ingress"], rows["egress"], rows["qos"], rows["wd"]
    # (speed, cable class, id(headroom)) -> (BUFFER_PG row, CABLE_LENGTH); id(ecn) -> QUEUE
    # row; speeds, mtus: their text, once
    profiles: Dict[Tuple[int, int, int], Tuple[Dict[str, str], str]] = {}
    wreds: Dict[int, Dict[str, str]] = {}
    speeds: Dict[int, str] = {}
    mtus: Dict[int, str] = {}
    for port in dev["ports"]:
        name = port["name"]
        ll = port["lossless"]
        speed = port["speed_gbps"]
        port_t[name] = {
            "lanes": port["lanes"], "alias": port["alias"], "index": str(port["cage"]),
            "speed": speeds.get(speed) or speeds.setdefault(speed, str(speed * 1000)),
            "mtu": mtus.get(port["mtu_bytes"]) or mtus.setdefault(port["mtu_bytes"],
                                                                  str(port["mtu_bytes"])),
            "fec": "rs", "admin_status": "up" if port["up"] else "down",
            "description": "%s:%s" % (port["peer"], port["peer_port"]),
        }
        intf[name] = {}
        intf["%s|%s" % (name, port["address"])] = {}
        neigh[name] = {"name": port["peer"], "port": port["peer_port"]}
        if not ll:
            continue      # admin-down port: no lossless objects
        pkey = (port["speed_gbps"], ll["cable_class_m"], id(ll["headroom"]))
        if pkey not in profiles:
            profiles[pkey] = _pg_profile(db, dev, port)
        pg_row, cable_t[name] = profiles[pkey]
        for suffix, row in pg_rows:
            pg_t[name + suffix] = pg_row if row is None else row
        for suffix, row in queue_rows:
            queue_t[name + suffix] = row
        if ingress:
            ingress_t[name] = ingress
            egress_t[name] = egress
        qos_t[name] = qos
        ecn = ll["ecn"]
        marks = wreds.get(id(ecn))
        if marks is None:
            marked = cast(EcnMarks, ecn)    # None only in a plan with a buffer error
            wred = wred_name(marked)
            wred_t[wred] = _wred(marked)
            marks = wreds[id(ecn)] = {"scheduler": "roce_dwrr", "wred_profile": wred}
        for suffix, entry in queue_sched:
            sched_t[name + suffix] = entry or marks
        if wd:
            wd_t[name] = wd


def _pg_profile(db: Dict[str, Any], dev: SwitchIntent,
                port: PortIntent) -> Tuple[Dict[str, str], str]:
    """(the BUFFER_PG row of a lossless PG of ``port``, its CABLE_LENGTH), adding its profile to
    BUFFER_PROFILE, so that SONiC's traditional buffer manager leaves both as rendered
    (render/sonic/buffermgrd.py replays it). Its doSpeedUpdateTask (sonic-swss
    cfgmgr/buffermgr.cpp @e6b0c5b) points every lossless PG at pg_lossless_<speed>_<cable>_profile
    (L184, L281-306), reusing a configured profile of that name (L245-279), and logs "No PG
    profile configured" where its ini has no row for the cable (L238-243); CABLE_LENGTH 0m makes
    it leave the port alone (L159-163). So a profile takes the standard name, with CABLE_LENGTH
    its class, when the HWSKU's table has that row and no other headroom of the class holds the
    name; a pinned headroom, another headroom of the class or a class the table lacks gets its
    own name and CABLE_LENGTH 0m. Dynamic model: "NULL" and the class (buffermgrdyn computes);
    a pinned headroom is SONiC's headroom override there, a profile of its own name (never
    buffermgrdyn's pg_lossless_<speed>_<cable>_profile) that buffermgrdyn runs as it is, whatever
    the cable (buffers.lossless_pg_profile), so CABLE_LENGTH keeps the class."""
    buf = dev["buffer"]
    ll = cast(LosslessProfile, port["lossless"])
    prof = buffers.lossless_pg_profile(ll["headroom"], buf["trigger"], buf)
    cable = "%dm" % ll["cable_class_m"]
    if prof is None:            # dynamic model: buffermgrd computes the headroom
        return {"profile": "NULL"}, cable
    pname = profile_name(port)
    pinned = buffers.pinned(ll["headroom"])
    if pinned or db["BUFFER_PROFILE"].get(pname, prof) != prof:
        # same speed and cable, other headroom (a pinned xoff, another MTU): its own name
        pname = pname.replace("m_profile", "m_xoff%s_size%s_profile"
                              % (prof["xoff"], prof["size"]))
        pinned = True
    db["BUFFER_PROFILE"][pname] = prof
    if buffers.dynamic(buf):
        return {"profile": pname}, cable
    return {"profile": pname}, cable if ll.get("table_row") and not pinned else "0m"


def _wred(ecn: EcnMarks) -> Dict[str, str]:
    prof = {"ecn": "ecn_all"}
    for colour in ("green", "yellow", "red"):
        prof.update({
            "wred_%s_enable" % colour: "true",   # without it SAI ignores the colour (sonic#4545)
            "%s_min_threshold" % colour: str(ecn["kmin_bytes"]),
            "%s_max_threshold" % colour: str(ecn["kmax_bytes"]),
            "%s_drop_probability" % colour: str(ecn["pmax_percent"]),
        })
    return prof
