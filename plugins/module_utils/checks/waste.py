# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Waste rule: a SKU table row that reserves far more headroom than the link has in flight.

SONiC's traditional buffer model takes each lossless PG's headroom from the HWSKU's
pg_profile_lookup.ini row for the cable's class (docs/rendering.md): a 100 m cable falls into
the 300 m row. Every byte reserved beyond what is in flight leaves the shared pool, so the
pause point comes earlier for every port. Switches whose xoff is drawn from a shared,
over-subscribed headroom pool (Broadcom) are judged by buffer-budget instead. On Spectrum the
dynamic buffer model computes each port's headroom from its own cable (lossless-math.md);
elsewhere the headroom can be pinned.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, List, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.lossless import buffer_model
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Fabric
from ansible_collections.roce.fabric.plugins.module_utils.records import Device, Finding
from ansible_collections.roce.fabric.plugins.module_utils.checks.registry import (
    finding, rule, switches)

WASTE_FACTOR = 1.5      # configured headroom above this multiple of the flight is waste


@rule("headroom-waste", "WARN",
      "where headroom is reserved per PG (not a shared headroom pool), a SKU table row "
      "reserves at most %.1f x what a port's link has in flight; above that the finding names "
      "the ports, the bytes the shared pool loses and the alternative (Spectrum: the dynamic "
      "buffer model, which sizes each port from its cable)" % WASTE_FACTOR)
def check_headroom_waste(fab: Fabric, devices: Dict[str, Device]) -> List[Finding]:
    out: List[Finding] = []
    for dev in switches(devices):
        if dev["buffer"].get("headroom_semantics") == "shared_headroom_pool":
            continue        # Broadcom: xoff comes from an over-subscribed pool, not per PG
        # (speed, cable, SKU table row, required, configured bytes): the ports
        groups: Dict[Tuple[int, float, int, int, int], List[str]] = {}
        for port in dev["ports"]:
            lossless = port.get("lossless")
            if not lossless or not lossless.get("table_row"):
                continue
            need = lossless["headroom_required_bytes"]
            have = lossless["headroom_configured_bytes"]
            if need <= 0 or have <= WASTE_FACTOR * need:
                continue
            key = (lossless["speed_gbps"], lossless["cable_m"], lossless["cable_class_m"],
                   need, have)
            groups.setdefault(key, []).append(port["name"])
        pgs = max(1, len(dev["buffer"].get("lossless_pgs") or [1]))
        for (speed, cable, row, need, have), ports in sorted(groups.items()):
            lost = (have - need) * len(ports) * pgs
            # where the platform's buffer manager has a per-cable model on this ASIC (SONiC's
            # dynamic model on Spectrum)
            dynamic = buffer_model.dynamic_headroom(dev["platform"], dev.get("asic_family"))
            hint = ("roce_lossless.sonic.buffer_model: dynamic on this switch sizes each port's "
                    "headroom from its own cable (SONiC's Mellanox buffer manager)"
                    if dynamic else "pin the headroom of these ports "
                    "(roce_link_overrides.<port>.headroom_bytes) or use the ieee headroom model")
            out.append(finding(
                "headroom-waste", "WARN", dev["name"],
                "%d port(s) %s" % (len(ports), _ports(ports)),
                "%d G %g m cables use the SKU table's %d m row: xoff %s B against %s B in "
                "flight (%.1f x, above %.1f x); the shared pool loses %s B"
                % (speed, cable, row, format(have, ","), format(need, ","), have / need,
                   WASTE_FACTOR, format(lost, ",")),
                hint, configured=have, required=need, ports=len(ports), lost_bytes=lost))
    return out


def _ports(ports: List[str]) -> str:
    return ports[0] if len(ports) == 1 else "%s .. %s" % (ports[0], ports[-1])
