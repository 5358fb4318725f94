# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The network operating systems roce.fabric plans for, and what the hardware stage knows of each.

``NAMES`` is the one list of platform names: the input schema's ``roce_platform`` enum and the
key of every stage's platform registry (lossless/buffer_model.py MANAGERS, plan/platforms.py,
render/registry.py, deploy/backends.py). A platform is an entry here, never a string compared
across the code: tests/unit/test_platform_registries.py fails, naming the registry, when one
lacks a platform of this list.

Per platform: the ASIC families whose configuration it renders completely (and why others are
refused), how it names front-panel ports, what its rendered ECMP settings carry
(capabilities.py), the PFC watchdog actions it takes, whether a modelled switch needs a HWSKU
per breakout, and which buffer manager sizes its lossless profiles (lossless/buffer_model.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.hardware import capabilities


class SonicPorts:
    """SONiC names a port after its first SerDes lane (Ethernet0, Ethernet8, ...: port_config.ini,
    platform.json), so a generic port's lanes cannot reach the next name; aliases are the
    model's (etp<cage>[a-h] or <prefix><cage>/<lane>) or etp<n> on a generic map."""

    @staticmethod
    def generic_name(index: int, step: int) -> str:
        return "Ethernet%d" % (index * step)

    @staticmethod
    def generic_lane_span(step: int) -> int:
        return step

    @staticmethod
    def generic_alias(index: int, name: str) -> str:
        return "etp%d" % (index + 1)

    @staticmethod
    def model_port(model: Dict[str, Any], ports_per_cage: int, cage: int, sub: int,
                   per: int) -> Tuple[str, Optional[str]]:
        name = "Ethernet%d" % (cage * model["cage_lanes"] + sub * per)
        style, prefix = model["sonic"]["alias"]
        if style == "etp":
            return name, "etp%d%s" % (cage + 1, "abcdefgh"[sub] if ports_per_cage > 1 else "")
        return name, "%s%d/%d" % (prefix, cage + 1, 1 + sub * per)

    @staticmethod
    def model_place(model: Dict[str, Any], per: int, name: str) -> Tuple[int, int, int]:
        """(cage, port in cage, lanes left over) of ``name``; ValueError if it is no such name."""
        cage, offset = divmod(int(name[len("Ethernet"):]), model["cage_lanes"])
        sub, rest = divmod(offset, per)
        return cage, sub, rest


class EosPorts:
    """EOS names a port after its cage and first lane in it: EthernetN/1, N/5 for two ports per
    cage, N/1 N/3 N/5 N/7 for four (EOS manual 'Layer 1 Profiles'); an OSFP cage carries up to
    8 lanes; the alias is the name itself (EOS has none)."""

    @staticmethod
    def generic_name(index: int, step: int) -> str:
        return "Ethernet%d/1" % (index + 1)

    @staticmethod
    def generic_lane_span(step: int) -> int:
        return 8

    @staticmethod
    def generic_alias(index: int, name: str) -> str:
        return name

    @staticmethod
    def model_port(model: Dict[str, Any], ports_per_cage: int, cage: int, sub: int,
                   per: int) -> Tuple[str, Optional[str]]:
        return "Ethernet%d/%d" % (cage + 1, 1 + sub * per), None

    @staticmethod
    def model_place(model: Dict[str, Any], per: int, name: str) -> Tuple[int, int, int]:
        cage, lane = (int(x) for x in name[len("Ethernet"):].split("/"))
        sub, rest = divmod(lane - 1, per)
        return cage - 1, sub, rest


PortNaming = Any    # SonicPorts or EosPorts: the same static methods


class Platform(NamedTuple):
    name: str
    title: str                           # how messages and documents name it
    families: Tuple[str, ...]            # ASIC families whose config it renders completely
    refused: Dict[str, str]              # another family -> why it is refused here
    ports: PortNaming                    # front-panel port names, lanes and aliases
    # roce_fabric.port_name_step.<name> of the schema: (choices, description, default)
    port_name_step: Tuple[Tuple[int, ...], str, int]
    # what the rendered config carries of the requested ECMP settings (capabilities.py)
    ecmp: Callable[[Optional[str], str, Dict[str, Any]], Dict[str, Any]]
    # the schema's PFC watchdog actions the platform has (plan action -> its keyword); None: all
    watchdog_actions: Optional[Dict[str, str]]
    hwsku_per_breakout: bool             # a modelled switch needs a HWSKU for its breakout
    buffer_manager: str                  # who sizes lossless profiles (buffer_model.MANAGERS)


# Jericho (VOQ, HBM) is refused everywhere: no VOQ thresholds are rendered, so a plan for it
# would show headroom no config carries. Its catalog entries still serve the filters.
SONIC = Platform(
    name="sonic", title="SONiC", families=("strata", "spectrum"),
    refused={"sand": "SONiC on Jericho needs a VOQ chassis config, which is not rendered"},
    ports=SonicPorts, port_name_step=((1, 2, 4, 8), "SONiC Ethernet<n> step", 8),
    ecmp=capabilities.sonic_ecmp, watchdog_actions=None, hwsku_per_breakout=True,
    # buffermgrd: the HWSKU's pg_profile_lookup.ini (traditional) or the Mellanox lua (dynamic)
    buffer_manager="sonic-buffermgrd")

# EOS runs on Broadcom only, and its buffer lines are the Strata MMU profile ('platform trident
# mmu', eos-and-avd.md §2).
EOS = Platform(
    name="eos", title="EOS", families=("strata",),
    refused={"spectrum": "NVIDIA Spectrum switches do not run EOS",
             "sand": "Jericho VOQ buffer thresholds are not rendered yet"},
    ports=EosPorts, port_name_step=((1,), "EOS ports are Ethernet<cage>/1", 1),
    ecmp=capabilities.eos_ecmp,
    # `priority-flow-control pause watchdog action` keywords (eos-and-avd.md §2; AVD #6399): the
    # plan's alert is EOS notify-only; EOS has no forward.
    watchdog_actions={"drop": "drop", "alert": "notify-only"}, hwsku_per_breakout=False,
    # the plan's headroom and pool numbers are rendered as they are, in the Trident MMU profile
    buffer_manager="eos-mmu")

# The order is the schema's and the documents': SONiC first.
PLATFORMS = {SONIC.name: SONIC, EOS.name: EOS}
NAMES = tuple(PLATFORMS)
