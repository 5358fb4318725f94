# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Front-panel port names and SerDes lanes of a switch, by platform.

With a model (models.py) the ports are that switch's: its cages in the breakout its port speed
takes, named as the platform names them, with the model's lanes, aliases and cage indexes.
Without one, a generic map: SONiC names a port after its first lane (Ethernet0, Ethernet8, ...),
EOS after its cage (Ethernet1/1), each port with as many lanes as its speed needs at the ASIC's
SerDes rate - names and lanes no real switch is known to have (the port-map check says so).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Optional, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.hardware import models, platforms


def port_name(platform: str, index: int, step: int) -> str:
    """Name of front-panel port ``index`` (0-based) on a generic map."""
    return platforms.PLATFORMS[platform].ports.generic_name(index, step)


_LANE_MAPS: Dict[Tuple[str, int, int, Optional[int], int], Tuple[str, str]] = {}


def lane_map(platform: str, index: int, step: int, speed_gbps: Optional[int],
             serdes_gbps: int, name: str) -> Tuple[str, str]:
    """(lanes, alias) of port ``index``: lanes from the first lane the name encodes, as many as
    the speed needs at the ASIC's SerDes rate. SONiC names a port by its first lane, so lanes
    cannot reach the next name; EOS front-panel ports (OSFP) carry up to 8 lanes. Cached: every
    switch of a model has the same map."""
    key = (platform, index, step, speed_gbps, serdes_gbps)
    if key not in _LANE_MAPS:
        naming = platforms.PLATFORMS[platform].ports
        span = naming.generic_lane_span(step)
        width = max(1, min(span, -(-speed_gbps // serdes_gbps))) if speed_gbps else 1
        _LANE_MAPS[key] = (",".join(str(index * span + k) for k in range(width)),
                           naming.generic_alias(index, name))
    return _LANE_MAPS[key]


def port_range(platform: str, count: int, step: int) -> str:
    """'Ethernet0 .. Ethernet504': the names of a switch's ``count`` ports, for messages."""
    return "%s .. %s" % (port_name(platform, 0, step), port_name(platform, count - 1, step))


class PortMap:
    """The front-panel ports of one switch; ``port(index)`` gives name, lanes, alias, cage
    number and lanes per port. Switches of one model, platform and breakout share one map."""

    _shared: Dict[Tuple[Any, ...], "PortMap"] = {}

    def __init__(self, platform: str, count: int, model: Optional[str] = None,
                 mode: Optional[models.Mode] = None, step: int = 8,
                 serdes_gbps: int = 50) -> None:
        self.platform, self.count, self.model, self.mode = platform, count, model, mode
        self.step, self.serdes_gbps = step, serdes_gbps
        self._ports: Dict[Tuple[int, Optional[int]], Tuple[str, str, Optional[str], int, int]] = {}

    @property
    def breakout(self) -> models.Mode:
        """The breakout of a modelled switch's map (generic maps, which have none, never ask)."""
        return cast(models.Mode, self.mode)

    @classmethod
    def shared(cls, *args: Any) -> "PortMap":
        if args not in cls._shared:
            cls._shared[args] = cls(*args)
        return cls._shared[args]

    def port(self, index: int,
             speed_gbps: Optional[int]) -> Tuple[str, str, Optional[str], int, int]:
        key = (index, speed_gbps if self.model is None else None)
        if key not in self._ports:
            if self.model is not None:
                self._ports[key] = models.port(self.model, self.platform, self.breakout, index)
            else:
                name = port_name(self.platform, index, self.step)
                lanes, alias = lane_map(self.platform, index, self.step, speed_gbps,
                                        self.serdes_gbps, name)
                self._ports[key] = (name, lanes, alias, index + 1, len(lanes.split(",")))
        return self._ports[key]

    def index_of(self, name: str) -> Optional[int]:
        """Index of the port called ``name``, or None."""
        if self.model is not None:
            index = models.parse(self.model, self.platform, self.breakout, name)
            return index if index is not None and index < self.count else None
        for index in range(self.count):
            if port_name(self.platform, index, self.step) == name:
                return index
        return None

    def describe(self) -> str:
        """'Ethernet0, Ethernet4 .. Ethernet508 (128 ports, sn5600, 2x400G)' for messages: the
        first two names show the step between ports."""
        first = sorted(set([0, min(1, self.count - 1), self.count - 1]))
        names = [self.port(i, None)[0] for i in first]
        where = ", %s, %s" % (self.model, self.breakout.name) if self.model else ""
        shown = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " .. " + names[-1] \
            if len(names) == 3 else " .. ".join(names)
        return "%s (%d port%s%s)" % (shown, self.count, "s" if self.count > 1 else "", where)
