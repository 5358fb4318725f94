# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Read one switch's lossless inputs from its inventory variables (plain dicts, no Ansible).

Variables (all validated, errors name the host):

* ``roce_asic`` (str, required): catalog ASIC name.
* ``roce_asic_overrides`` (dict): catalog facts to replace for this switch.
* ``roce_ports`` (list, required): ports, each ``{name, speed_gbps, cable_m[, mtu_bytes]}`` or a
  range ``{prefix, first, count[, step], speed_gbps, cable_m[, mtu_bytes]}`` that expands to
  ``prefix+first``, ``prefix+(first+step)``, ... (SONiC names Ethernet0, Ethernet8, ...).
* ``roce_lossless`` (dict): settings of lossless.switch_lossless (model, lossless_pgs, ...).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.roce.fabric.plugins.module_utils import catalog, errors, lossless

PORT_KEYS = ("name", "speed_gbps", "cable_m", "mtu_bytes", "peer_mtu_bytes", "lanes", "media")
RANGE_KEYS = ("prefix", "first", "count", "step")


def expand_ports(entries, host=None):
    """Expand ``roce_ports`` entries (single ports and ranges) into a flat list of port dicts."""
    if not isinstance(entries, list) or not entries:
        raise errors.RoceInputError("roce_ports", entries, "a non-empty list of ports or ranges",
                                    host)
    ports = []
    for i, entry in enumerate(entries):
        field = "roce_ports[%d]" % i
        errors.mapping(field, entry, PORT_KEYS + RANGE_KEYS, host)
        if "prefix" not in entry:
            ports.append(dict(entry))
            continue
        if "name" in entry:
            raise errors.RoceInputError(field + ".name", entry["name"],
                                        "either name or prefix/first/count, not both", host)
        first = errors.number(field + ".first", entry.get("first"), 0, 100000, "", host,
                              integer=True)
        count = errors.number(field + ".count", entry.get("count"), 1, 4096, "ports", host,
                              integer=True)
        step = errors.number(field + ".step", entry.get("step", 1), 1, 64, "", host,
                             integer=True)
        common = dict((k, v) for k, v in entry.items() if k not in RANGE_KEYS)
        for n in range(count):
            port = dict(common)
            port["name"] = "%s%d" % (entry["prefix"], first + n * step)
            ports.append(port)
    return ports


def switch_inputs(host, hostvars):
    """(AsicProfile, ports, settings) for ``host`` from its variables ``hostvars``."""
    if "roce_asic" not in hostvars:
        raise errors.RoceInputError("roce_asic", None, "required: one of %s"
                                    % ", ".join(sorted(catalog.ASICS)), host)
    asic = catalog.asic_profile(hostvars["roce_asic"], hostvars.get("roce_asic_overrides"), host)
    if "roce_ports" not in hostvars:
        raise errors.RoceInputError("roce_ports", None, "required: the switch's lossless ports",
                                    host)
    ports = expand_ports(hostvars["roce_ports"], host)
    return asic, ports, hostvars.get("roce_lossless") or {}


def fabric_lossless(hosts, hostvars_by_host):
    """Lossless plan of every switch in ``hosts``: {host: switch plan}. Linear in ports."""
    plan = {}
    for host in hosts:
        asic, ports, settings = switch_inputs(host, hostvars_by_host[host])
        plan[host] = lossless.switch_lossless(asic, ports, settings, host)
    return plan
