# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Front-panel port names and SerDes lanes of a switch, by platform.

SONiC names a port after its first lane (Ethernet0, Ethernet8, ...); EOS after its cage and lane
(Ethernet1/1). The default map gives each port as many lanes as its speed needs at the ASIC's
SerDes rate; a real platform's map goes in roce_link_overrides (lanes, alias).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


def port_name(platform, index, step):
    """Name of front-panel port ``index`` (0-based)."""
    if platform == "eos":
        return "Ethernet%d/1" % (index + 1)
    return "Ethernet%d" % (index * step)


_LANE_MAPS = {}


def lane_map(platform, index, step, speed_gbps, serdes_gbps, name):
    """(lanes, alias) of port ``index``: lanes from the first lane the name encodes, as many as
    the speed needs at the ASIC's SerDes rate. SONiC names a port by its first lane, so lanes
    cannot reach the next name; EOS front-panel ports (OSFP) carry up to 8 lanes. Cached: every
    switch of a model has the same map."""
    key = (platform, index, step, speed_gbps, serdes_gbps)
    if key not in _LANE_MAPS:
        span = step if platform == "sonic" else 8
        width = max(1, min(span, -(-speed_gbps // serdes_gbps))) if speed_gbps else 1
        _LANE_MAPS[key] = (",".join(str(index * span + k) for k in range(width)),
                           "etp%d" % (index + 1) if platform == "sonic" else name)
    return _LANE_MAPS[key]


def port_range(platform, count, step):
    """'Ethernet0 .. Ethernet504': the names of a switch's ``count`` ports, for messages."""
    return "%s .. %s" % (port_name(platform, 0, step), port_name(platform, count - 1, step))
