# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A RoCE NIC's /31, policy rule and per-NIC default route in the host's own network manager,
so they survive it: systemd-networkd removes routing-policy rules it did not configure
(ManageForeignRoutingPolicyRules= defaults to yes, systemd PR #19287), and RoCE address
resolution looks routes up by source address and interface (core/addr.c addr4_resolve), so a
dropped rule breaks cross-leaf RoCE (host-audit.md #8). Never fight the manager: write its
configuration and let it apply; the ``ip`` commands then find everything in place.

Detection looks for the manager's process (systemd-networkd, NetworkManager: a directory under
/run may outlive the daemon or come with the package), else ifupdown's configuration.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
from typing import Any, Callable, Dict, Iterable, List, Optional, Set

RULE_PRIORITY_BASE = 1000       # as live.routing_changes: priority 1000 + table
MANAGED_FILE = "# roce.fabric: %s - rendered from the plan, do not edit\n"


def detect(exists: Callable[[str], bool], running: Callable[[str], bool]) -> str:
    """networkd, networkmanager, ifupdown or none; ``running(name)`` says whether a process of
    that name runs, ``exists(path)`` whether a path exists."""
    if running("systemd-networkd"):
        return "networkd"
    if running("NetworkManager"):
        return "networkmanager"
    if exists("/etc/network/interfaces") and exists("/sbin/ifup"):
        return "ifupdown"
    return "none"


def running_processes(proc: str = "/proc") -> Set[str]:
    """The names (comm, 15 characters at most) of the processes running here."""
    names: Set[str] = set()
    for pid in os.listdir(proc):
        if pid.isdigit():
            try:
                with open(os.path.join(proc, pid, "comm")) as handle:
                    names.add(handle.read().strip())
            except (IOError, OSError):
                continue
    return names


NETWORKD_DIRS = ("/etc/systemd/network", "/run/systemd/network", "/usr/lib/systemd/network",
                 "/lib/systemd/network")
# systemd.network(5): the .network files of all directories are sorted by file name and the
# first whose [Match] fits the link configures it; later ones are ignored. netplan writes
# /run/systemd/network/10-netplan-<id>.network, which a 60-... file never beats. Ours is 09-...,
# or, where netplan already has a file for the NIC, a drop-in to that file (its
# <name>.network.d/*.conf are read from every directory, systemd.network(5) "drop-in").
NETWORKD_FILE = "/etc/systemd/network/09-roce-%s.network"
LEGACY_NETWORKD_FILE = "/etc/systemd/network/60-roce-%s.network"


def netplan_file(name: str, mac: Optional[str], read: Callable[[str], Optional[str]],
                 listdir: Callable[[str], Optional[List[str]]]) -> Optional[str]:
    """The netplan-generated .network file (its base name) that matches interface ``name`` -
    by ``Name=`` or, for a netplan ``match: macaddress``, by ``MACAddress=`` - or None."""
    for directory in NETWORKD_DIRS:
        for entry in sorted(listdir(directory) or []):
            if not (entry.startswith("10-netplan-") and entry.endswith(".network")):
                continue
            text = read("%s/%s" % (directory, entry)) or ""
            section = None
            keys: Dict[str, Set[str]] = {}
            for line in text.splitlines():
                line = line.strip()
                if line.startswith("["):
                    section = line
                elif section == "[Match]" and "=" in line:
                    key, _sep, value = line.partition("=")
                    keys.setdefault(key.strip(), set()).update(value.split())
            if name in keys.get("Name", ()) or (mac and mac.lower() in set(
                    m.lower() for m in keys.get("MACAddress", ()))):
                return entry
    return None


def files(manager: str, nic: Dict[str, Any], netplan: Optional[str] = None) -> Dict[str, str]:
    """{path: text} of ``nic`` (name, address, gateway, route_table, mtu_bytes) for
    ``manager``; nothing for none (the boot-time re-apply unit sets them). ``netplan``: the
    netplan .network file that already matches the NIC (netplan_file), which gets a drop-in."""
    name, table = nic["name"], nic["route_table"]
    src, prefix = nic["address"].split("/")
    priority = RULE_PRIORITY_BASE + table
    head = MANAGED_FILE % name
    if manager == "networkd":
        body = ["[Link]", "MTUBytes=%d" % nic["mtu_bytes"], "", "[Network]",
                "Address=%s/%s" % (src, prefix), "", "[RoutingPolicyRule]",
                "From=%s/32" % src, "Table=%d" % table, "Priority=%d" % priority, "",
                "[Route]", "Gateway=%s" % nic["gateway"], "Table=%d" % table, ""]
        if netplan:
            path = "/etc/systemd/network/%s.d/60-roce-%s.conf" % (netplan, name)
            text = head + "\n".join(body)
        else:
            path = NETWORKD_FILE % name
            text = head + "\n".join(["[Match]", "Name=%s" % name, ""] + body)
        return {
            path: text,
            "/etc/systemd/networkd.conf.d/60-roce-fabric.conf": MANAGED_FILE % "networkd" +
            "[Network]\n# keep rules networkd did not write (a job's, an operator's)\n"
            "ManageForeignRoutingPolicyRules=no\n",
        }
    if manager == "networkmanager":
        return {"/etc/NetworkManager/system-connections/roce-%s.nmconnection" % name:
                head + "\n".join([
                    "[connection]", "id=roce-%s" % name, "type=ethernet",
                    "interface-name=%s" % name, "autoconnect=true", "", "[ethernet]",
                    "mtu=%d" % nic["mtu_bytes"], "", "[ipv4]", "method=manual",
                    "address1=%s/%s" % (src, prefix),
                    "route1=0.0.0.0/0,%s" % nic["gateway"], "route1_options=table=%d" % table,
                    "routing-rule1=priority %d from %s/32 table %d" % (priority, src, table),
                    "never-default=true", "", "[ipv6]", "method=disabled", ""])}
    if manager == "ifupdown":
        return {"/etc/network/interfaces.d/roce-%s" % name: head + "\n".join([
            "auto %s" % name, "iface %s inet static" % name,
            "    address %s/%s" % (src, prefix), "    mtu %d" % nic["mtu_bytes"],
            "    post-up ip rule add from %s table %d priority %d || true" % (src, table,
                                                                              priority),
            "    post-up ip route replace default via %s dev %s table %d" % (nic["gateway"], name,
                                                                             table),
            "    pre-down ip rule del from %s table %d priority %d || true" % (src, table,
                                                                               priority), ""])}
    return {}


def reload_commands(manager: str, names: Iterable[str]) -> List[List[str]]:
    """How the manager takes the new files: argv lists, in order."""
    if manager == "networkd":
        return [["networkctl", "reload"]] + [["networkctl", "reconfigure", n] for n in names]
    if manager == "networkmanager":
        return [["nmcli", "connection", "reload"]] + \
            [["nmcli", "connection", "up", "roce-%s" % n] for n in names]
    return []           # ifupdown: the runtime ip commands set the same; ifup at boot
