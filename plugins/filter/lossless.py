# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jinja2 filters over the lossless core (plugins/module_utils). Documentation: <name>.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.module_utils import (
    catalog, ecn, errors, headroom, inventory, thresholds)


def _guard(func):
    """Turn input errors of the core into one-line filter errors (no traceback)."""
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except errors.RoceInputError as exc:
            raise AnsibleFilterError("roce.fabric.%s: %s" % (func.__name__, exc))
        except TypeError as exc:
            raise AnsibleFilterError("roce.fabric.%s: bad arguments: %s" % (func.__name__, exc))
    wrapper.__name__ = func.__name__
    return wrapper


@_guard
def pfc_headroom(port, asic, model="ieee", asic_overrides=None, sonic=None):
    errors.mapping("port", port, inventory.PORT_KEYS, None)
    profile = catalog.asic_profile(asic, asic_overrides)
    return headroom.port_headroom(
        profile, port.get("speed_gbps"), port.get("cable_m"), port.get("mtu_bytes", 9216),
        port.get("peer_mtu_bytes"), model=model, lanes=port.get("lanes"), sonic=sonic,
        media=port.get("media", "fiber"), port=port.get("name"))


@_guard
def pfc_trigger(shared_pool_bytes, fraction=thresholds.DEFAULT_TRIGGER_FRACTION,
                mode="dynamic", congested_pgs=1, mtu_bytes=9216):
    return thresholds.xoff_trigger(shared_pool_bytes, fraction, mode, congested_pgs, mtu_bytes)


@_guard
def dynamic_th(fraction):
    return thresholds.dynamic_th(thresholds.alpha_from_fraction(fraction))


@_guard
def ecn_thresholds(speed_gbps, xoff_trigger_bytes, mtu_bytes=9216, overrides=None):
    return ecn.ecn_thresholds(speed_gbps, xoff_trigger_bytes, mtu_bytes, overrides)


@_guard
def fabric_lossless(hosts, hostvars):
    if not isinstance(hosts, (list, tuple)):
        raise errors.RoceInputError("hosts", hosts, "a list of inventory host names")
    return inventory.fabric_lossless(hosts, hostvars)


def _mb(value):
    return "%.2f" % (value / 1e6)


@_guard
def lossless_summary(plan):
    if not isinstance(plan, dict):
        raise errors.RoceInputError("plan", plan, "the output of roce.fabric.fabric_lossless")
    lines = ["%-10s %-10s %-12s %5s %8s %9s %6s %10s %-26s %s" % (
        "switch", "asic", "model", "ports", "pool MB", "pause MB", "dyn_th", "pause/N KB",
        "headroom xoff/size KB", "ECN Kmin/Kmax KB")]
    for host in sorted(plan):
        sw = plan[host]
        trig = sw["trigger"]
        classes = {}
        for port in sw["ports"]:
            key = "%dG/%gm" % (port["speed_gbps"], port["cable_m"])
            classes.setdefault(key, (port["headroom"], port["ecn"]))
        hr = ", ".join("%s %.0f/%.0f" % (k, pair[0]["xoff_bytes"] / 1e3,
                                         pair[0]["size_bytes"] / 1e3)
                       for k, pair in sorted(classes.items()))
        marks = ", ".join(sorted(set("%.0f/%.0f" % (pair[1]["kmin_bytes"] / 1e3,
                                                    pair[1]["kmax_bytes"] / 1e3)
                                     for pair in classes.values())))
        lines.append("%-10s %-10s %-12s %5d %8s %9s %6s %10.0f %-26s %s" % (
            host, sw["asic"], sw["model"], len(sw["ports"]), _mb(sw["shared_pool_bytes"]),
            _mb(trig["trigger_one_pg_bytes"]), trig.get("dynamic_th", "static"),
            trig["trigger_n_pgs_bytes"] / 1e3, hr, marks))
    return lines


class FilterModule(object):
    """roce.fabric lossless filters."""

    def filters(self):
        return {
            "pfc_headroom": pfc_headroom,
            "pfc_trigger": pfc_trigger,
            "dynamic_th": dynamic_th,
            "ecn_thresholds": ecn_thresholds,
            "fabric_lossless": fabric_lossless,
            "lossless_summary": lossless_summary,
        }
