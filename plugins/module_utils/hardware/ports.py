# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Front-panel port names and SerDes lanes of a switch, by platform.

With a model (models.py) the ports are that switch's: its cages in the breakout its port speed
takes, named as the platform names them, with the model's lanes, aliases and cage indexes.
Without one, the inventory gives the switch's port map (``roce_port_map``): the ports, lanes and
aliases its vendor publishes (a SONiC HWSKU's port_config.ini, or the same as a list), read and
checked by inputs/port_map.py. A switch with neither has no ports the plan could name: the
model stage refuses it (model/fabric.py) rather than render ports no real switch is known to
have.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Optional, Tuple, cast

from ansible_collections.roce.fabric.plugins.module_utils.hardware import models

# One given port: (name, lanes, alias, cage index, lanes per port, speed in Mb/s or None).
Given = Tuple[str, str, Optional[str], int, int, Optional[int]]
FIELD = "roce_port_map"      # the inventory variable a given map comes from (messages)


class PortMap:
    """The front-panel ports of one switch; ``port(index)`` gives name, lanes, alias, cage
    number and lanes per port. Switches of one model, platform and breakout (or one given
    port map) share one map."""

    _shared: Dict[Tuple[Any, ...], "PortMap"] = {}

    def __init__(self, platform: str, count: int, model: Optional[str] = None,
                 mode: Optional[models.Mode] = None,
                 given: Optional[Tuple[Given, ...]] = None) -> None:
        self.platform, self.count, self.model, self.mode = platform, count, model, mode
        self.given = given
        self._ports: Dict[int, Tuple[str, str, Optional[str], int, int]] = {}
        self._index: Optional[Dict[str, int]] = None

    @property
    def breakout(self) -> models.Mode:
        """The breakout of a modelled switch's map (given maps, which have none, never ask)."""
        return cast(models.Mode, self.mode)

    @classmethod
    def shared(cls, *args: Any) -> "PortMap":
        if args not in cls._shared:
            cls._shared[args] = cls(*args)
        return cls._shared[args]

    def port(self, index: int) -> Tuple[str, str, Optional[str], int, int]:
        if index not in self._ports:
            if self.model is not None:
                self._ports[index] = models.port(self.model, self.platform, self.breakout, index)
            else:
                self._ports[index] = cast(Tuple[Given, ...], self.given)[index][:5]
        return self._ports[index]

    def speed_mbps(self, index: int) -> Optional[int]:
        """The speed a given map names for port ``index`` in Mb/s (None: it names none)."""
        return self.given[index][5] if self.given is not None else None

    def index_of(self, name: str) -> Optional[int]:
        """Index of the port called ``name``, or None."""
        if self.model is not None:
            index = models.parse(self.model, self.platform, self.breakout, name)
            return index if index is not None and index < self.count else None
        if self._index is None:
            self._index = dict((g[0], i) for i, g in enumerate(cast(Tuple[Given, ...],
                                                                    self.given)))
        return self._index.get(name)

    def describe(self) -> str:
        """'Ethernet0, Ethernet4 .. Ethernet508 (128 ports, sn5600, 2x400G)' for messages: the
        first two names show the step between ports."""
        first = sorted(set([0, min(1, self.count - 1), self.count - 1]))
        names_ = [self.port(i)[0] for i in first]
        where = ", %s, %s" % (self.model, self.breakout.name) if self.model else \
            ", %s" % FIELD
        shown = names_[0] if len(names_) == 1 else ", ".join(names_[:-1]) + " .. " + names_[-1] \
            if len(names_) == 3 else " .. ".join(names_)
        return "%s (%d port%s%s)" % (shown, self.count, "s" if self.count > 1 else "", where)
