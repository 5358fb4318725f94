# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Host NIC state: parse what the standard tools report, and decide what must change.

Groundwork for the nic_facts / nic modules (issue 5): pure functions over command output, so
they are tested against recorded output (tests/unit/fixtures/nic). Every change is an argv list,
never a shell string built from inventory. A setting the NIC cannot take is reported per setting
as unsupported, with the reason.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json


def parse_ethtool_channels(text):
    """`ethtool -l IF` -> {"max": {rx, tx, other, combined}, "current": {...}}; n/a -> None."""
    out = {"max": {}, "current": {}}
    section = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Pre-set maximums"):
            section = "max"
        elif line.startswith("Current hardware settings"):
            section = "current"
        elif section and ":" in line:
            key, value = [x.strip() for x in line.split(":", 1)]
            out[section][key.lower()] = int(value) if value.isdigit() else None
    return out


def parse_ethtool_pause(text):
    """`ethtool -a IF` -> {"autoneg", "rx", "tx"} booleans, or None when not supported."""
    if "not supported" in text.lower():
        return None
    out = {}
    for line in text.splitlines():
        if ":" not in line:
            continue
        key, value = [x.strip().lower() for x in line.split(":", 1)]
        if key in ("autonegotiate", "rx", "tx"):
            out["autoneg" if key == "autonegotiate" else key] = value == "on"
    return out or None


def parse_ethtool_driver(text):
    """`ethtool -i IF` -> {"driver", "version", "firmware", "bus_info"}."""
    fields = {}
    for line in text.splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    return {"driver": fields.get("driver") or None, "version": fields.get("version") or None,
            "firmware": fields.get("firmware-version") or None,
            "bus_info": fields.get("bus-info") or None}


def parse_dcb_app(text):
    """`dcb -j app show dev IF` -> {dscp: prio}; None when DCB is not supported."""
    if "not supported" in text.lower():
        return None
    data = json.loads(text) if text.strip() else {}
    return dict((int(d), int(p)) for d, p in data.get("dscp_prio", []))


def parse_dcb_pfc(text):
    """`dcb pfc show dev IF` (man dcb-pfc(8) format: "pfc-cap 8 macsec-bypass off delay 4096" /
    "prio-pfc 0:off ... 7:on") -> {"pfc_cap", "delay", "enabled": [prio, ...]}; None without DCB."""
    if "not supported" in text.lower() or "prio-pfc" not in text:
        return None
    tokens = text.split()
    out = {"pfc_cap": None, "delay": None, "enabled": []}
    for key, value in zip(tokens, tokens[1:]):
        if key in ("pfc-cap", "delay") and value.isdigit():
            out[key.replace("-", "_")] = int(value)
    for token in tokens:
        prio, sep, state = token.partition(":")
        if sep and prio.isdigit() and state == "on":
            out["enabled"].append(int(prio))
    return out


def parse_int(text):
    """A sysfs/configfs/debugfs number: decimal ("48"), hex ("0x30", bnxt_re configfs prints
    %#x) or "Global tclass=106" (MLNX_OFED tc/1/traffic_class). None when empty or absent."""
    if text is None:
        return None
    value = text.strip().rpartition("=")[2].strip()
    try:
        return int(value, 0)
    except ValueError:
        return None


def parse_cpulist(cpulist):
    """'0-3,8' -> [0, 1, 2, 3, 8] (sysfs cpulist / smp_affinity_list format)."""
    cpus = []
    for part in (cpulist or "").strip().split(","):
        if part:
            lo, _sep, hi = part.partition("-")
            cpus.extend(range(int(lo), int(hi or lo) + 1))
    return cpus


def driver_stack(driver, ofed_qos_sysfs):
    """Which knobs exist: mlx5 with the OFED sysfs, inbox mlx5 (DCBNL + debugfs), bnxt, ice,
    or a netdev without DCB (veth) (host-nic.md §0, §1.4, §1.5)."""
    if driver == "mlx5_core":
        return "mlx5-ofed" if ofed_qos_sysfs else "mlx5-inbox"
    if driver in ("bnxt_en", "ice"):
        return driver
    return "no-dcb"


def channel_target(channels, numa_local_cpus, override=None):
    """Channels to set: min(driver maximum, NIC-local cores), or the override.

    Drivers cap channels at their maximum (mlx5: ~completion EQs / online CPUs), so the folk
    advice of 2-4x the cores cannot be applied (host-nic.md §0 #6, §2.3). Returns
    (kind, count): kind "combined" where the driver has combined channels, else "rxtx"."""
    maxima = channels["max"]
    if maxima.get("combined"):
        kind, limit = "combined", maxima["combined"]
    else:
        rxtx = [x for x in (maxima.get("rx"), maxima.get("tx")) if x]
        kind, limit = "rxtx", (min(rxtx) if rxtx else None)
    if limit is None:
        return kind, None
    want = override if override is not None else max(1, numa_local_cpus)
    return kind, min(limit, want)


def decide(desired, current):
    """Changes for one NIC. ``desired``: mtu_bytes, dscp_prio {dscp: prio}, pause_off (bool),
    channels (kind, count). ``current``: mtu_bytes, dscp_prio (None = no DCB), pause (None =
    unsupported), channels (parsed ethtool -l). Returns a list of
    {setting, current, desired, argv | None, unsupported: reason | None}."""
    name = desired["name"]
    out = []
    if current["mtu_bytes"] != desired["mtu_bytes"]:
        out.append(change("mtu", current["mtu_bytes"], desired["mtu_bytes"],
                          ["ip", "link", "set", "dev", name, "mtu", str(desired["mtu_bytes"])]))
    want = desired.get("dscp_prio")
    have = current["dscp_prio"]
    if not want:
        pass
    elif have is None:
        out.append(unsupported("dscp_prio", None, want, "the netdev has no DCB (DCBNL)"))
    elif any(have.get(d) != p for d, p in want.items()):
        pairs = ["%d:%d" % (d, p) for d, p in sorted(want.items())]
        out.append(change("dscp_prio", have, want,
                          ["dcb", "app", "replace", "dev", name, "dscp-prio"] + pairs))
    if desired.get("pause_off"):
        pause = current["pause"]
        if pause is None:
            out.append(unsupported("global_pause", None, "off", "the netdev has no pause "
                                   "frames (ethtool -a: not supported)"))
        elif pause.get("rx") or pause.get("tx") or pause.get("autoneg"):
            out.append(change("global_pause", pause, "off",
                              ["ethtool", "-A", name, "autoneg", "off", "rx", "off", "tx",
                               "off"]))
    out += decide_pfc(name, desired.get("pfc_priorities"), current.get("pfc", None))
    kind, count = desired.get("channels") or (None, None)
    if count is not None:
        cur = current["channels"]["current"]
        if kind == "combined" and cur.get("combined") != count:
            out.append(change("channels", cur, count,
                              ["ethtool", "-L", name, "combined", str(count)]))
        elif kind == "rxtx" and (cur.get("rx") != count or cur.get("tx") != count):
            out.append(change("channels", cur, count,
                              ["ethtool", "-L", name, "rx", str(count), "tx", str(count)]))
    return out


def decide_pfc(name, want, pfc):
    """PFC on exactly the plan's priorities. Written only when it differs: a PFC write bounces
    an mlx5 link (mlx5e_dcbnl_ieee_setpfc toggles the port, host-nic.md §0 #5)."""
    if want is None:
        return []
    want = sorted(want)
    if pfc is None:
        return [unsupported("pfc", None, want, "the netdev has no DCB (DCBNL)")]
    if sorted(pfc["enabled"]) == want:
        return []
    return [change("pfc", pfc["enabled"], want, ["dcb", "pfc", "set", "dev", name, "prio-pfc",
                                                 "all:off"] + ["%d:on" % p for p in want])]


def setting_diffs(changes, owner):
    """Ansible diff entries, one per change: "<owner> <setting>: <value>" before and after
    (``owner``: the key naming the interface or netdev in each change)."""
    return [{"before": "%s %s: %s\n" % (c[owner], c["setting"], c["current"]),
             "after": "%s %s: %s\n" % (c[owner], c["setting"], c["desired"])} for c in changes]


def change(setting, current, desired, argv):
    return {"setting": setting, "current": current, "desired": desired, "argv": argv,
            "write": None, "unsupported": None}


def write(setting, current, desired, path, value, mkdir=None):
    """A sysfs/configfs/debugfs write (``mkdir`` first when a configfs group must exist)."""
    return {"setting": setting, "current": current, "desired": desired, "argv": None,
            "write": {"path": path, "value": str(value), "mkdir": mkdir}, "unsupported": None}


def unsupported(setting, current, desired, reason):
    return {"setting": setting, "current": current, "desired": desired, "argv": None,
            "write": None, "unsupported": reason}
