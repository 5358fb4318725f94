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

from typing import Any, Callable, Dict, FrozenSet, NamedTuple, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.hardware import capabilities, cumulus


class SonicPorts:
    """SONiC names a port Ethernet<n> (port_config.ini, platform.json; on the models n is the
    port's first lane counted from the first cage); aliases are the model's (etp<cage>[a-h] or
    <prefix><cage>/<lane>) or a given port map's."""

    grammar = "sonic_port"      # inputs/names.py: the names a given port map may use
    aliases = True              # PORT.alias

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
    8 lanes; EOS has no alias."""

    grammar = "eos_port"
    aliases = False

    @staticmethod
    def model_port(model: Dict[str, Any], ports_per_cage: int, cage: int, sub: int,
                   per: int) -> Tuple[str, Optional[str]]:
        return "Ethernet%d/%d" % (cage + 1, 1 + sub * per), None

    @staticmethod
    def model_place(model: Dict[str, Any], per: int, name: str) -> Tuple[int, int, int]:
        cage, lane = (int(x) for x in name[len("Ethernet"):].split("/"))
        sub, rest = divmod(lane - 1, per)
        return cage - 1, sub, rest


class CumulusPorts:
    """Cumulus Linux names a cage's port swp<cage> and, broken out, swp<cage>s<n> with n from 0
    (NVIDIA Cumulus Linux 5.14 user guide, Interface Configuration and Management: breakout
    ports swp1s0-swp1s3; hardware/cumulus.py); Cumulus has no alias."""

    grammar = "cumulus_port"
    aliases = False

    @staticmethod
    def model_port(model: Dict[str, Any], ports_per_cage: int, cage: int, sub: int,
                   per: int) -> Tuple[str, Optional[str]]:
        if ports_per_cage == 1:
            return "swp%d" % (cage + 1), None
        return "swp%ds%d" % (cage + 1, sub), None

    @staticmethod
    def model_place(model: Dict[str, Any], per: int, name: str) -> Tuple[int, int, int]:
        cage, sub = (name[len("swp"):].split("s", 1) + [""])[:2]
        if (per == model["cage_lanes"]) == bool(sub):     # swp1 is unbroken, swp1s0 broken out
            raise ValueError(name)
        return int(cage) - 1, int(sub or 0), 0


PortNaming = Any    # SonicPorts, EosPorts or CumulusPorts: the same attributes and methods


class Platform(NamedTuple):
    name: str
    title: str                           # how messages and documents name it
    families: Tuple[str, ...]            # ASIC families whose config it renders completely
    refused: Dict[str, str]              # another family -> why it is refused here
    ports: PortNaming                    # front-panel port names, lanes and aliases
    # what the rendered config carries of the requested ECMP settings (capabilities.py), from
    # the ASIC family, the role, the request and the speeds of the switch's fabric ports
    ecmp: Callable[[Optional[str], str, Dict[str, Any], FrozenSet[int]], Dict[str, Any]]
    # the schema's PFC watchdog actions the platform has (plan action -> its keyword); None: all
    watchdog_actions: Optional[Dict[str, str]]
    hwsku_per_breakout: bool             # a modelled switch needs a HWSKU for its breakout
    buffer_manager: str                  # who sizes lossless profiles (buffer_model.MANAGERS)
    # the largest port MTU (the IP MTU of a routed port, bytes) the platform takes on every
    # family it renders, and where that number comes from; the model stage refuses more
    mtu_max_bytes: int
    mtu_source: str
    # other values the platform's config takes only in a range: the plan's setting (as
    # roce_fabric names it) -> (lowest, highest, source); the model stage refuses the rest
    limits: Dict[str, Tuple[int, int, str]] = {}


# Jericho (VOQ, HBM) is refused everywhere: no VOQ thresholds are rendered, so a plan for it
# would show headroom no config carries. Its catalog entries still serve the filters.
SONIC = Platform(
    name="sonic", title="SONiC", families=("strata", "spectrum"),
    refused={"sand": "SONiC on Jericho needs a VOQ chassis config, which is not rendered"},
    ports=SonicPorts,
    ecmp=capabilities.sonic_ecmp, watchdog_actions=None, hwsku_per_breakout=True,
    # buffermgrd: the HWSKU's pg_profile_lookup.ini (traditional) or the Mellanox lua (dynamic)
    buffer_manager="sonic-buffermgrd",
    # PORT.mtu is the IP MTU: orchagent sets SAI_PORT_ATTR_MTU to it + 22 (Ethernet header, FCS,
    # one VLAN tag; sonic-swss orchagent/portsorch.cpp setPortMtu @e6b0c5b5d, lines 2395-2403)
    mtu_max_bytes=9216,
    mtu_source="SONiC YANG sonic-port.yang PORT mtu range 68..9216, sonic-buildimage "
               "@dbc792eb lines 164-169")

# EOS runs on Broadcom only, and its buffer lines are the Strata MMU profile ('platform trident
# mmu', eos-and-avd.md §2).
EOS = Platform(
    name="eos", title="EOS", families=("strata",),
    refused={"spectrum": "NVIDIA Spectrum switches do not run EOS",
             "sand": "Jericho VOQ buffer thresholds are not rendered yet"},
    ports=EosPorts,
    ecmp=capabilities.eos_ecmp,
    # `priority-flow-control pause watchdog action` keywords (eos-and-avd.md §2; AVD #6399): the
    # plan's alert is EOS notify-only; EOS has no forward.
    watchdog_actions={"drop": "drop", "alert": "notify-only"}, hwsku_per_breakout=False,
    # the plan's headroom and pool numbers are rendered as they are, in the Trident MMU profile
    buffer_manager="eos-mmu",
    # EOS `mtu` on a routed port is the IP MTU. 9214 on the Strata switches of the catalog
    # (7060X6-64PE Tomahawk 5, 7060DX5-64S Tomahawk 4, generic Trident/Tomahawk), from Arista's
    # own sources (the EOS User Manual's `mtu` page was in no corpus searched here):
    # - eos.arista.com forum "Jumbo frame MTU sizes" (2016-02-18), a user's EOS output: "Max MTU
    #   in Arista -> 9214", `show interfaces` "IP MTU 9214 bytes" beside an L2 MTU of 9234;
    # - AVD renders 9214 on every hardware platform: p2p_uplinks_mtu default 9214
    #   (aristanetworks/avd @3cac535c python-avd/pyavd/_eos_designs/schema/schema_fragments/
    #   p2p_uplinks_mtu.schema.yml lines 9-20; raised from 9000 in avd#2844; "value of 9214
    #   was confirmed ok in internal discussion", avd#3619); no platform_settings entry lowers
    #   it but the virtual and edge ones (platform_settings.schema.yml lines 286-307: AWE-*
    #   9194; avd#4338: "the internal max IP MTU for CloudEOS is 9194");
    # - the CLI's syntax takes 68-65535 (arista-eosplus/pyeapi ipinterfaces.py set_mtu) and
    #   refuses above the platform's maximum ("% Max MTU for Ethernet4 is 9194" on cEOS,
    #   ipspace/netlab#1890), so the syntax range is not the platform's.
    # No source shows a Strata model taking more, none shows one taking less.
    mtu_max_bytes=9214,
    mtu_source="Arista: eos.arista.com 'Jumbo frame MTU sizes' (max IP MTU 9214) and AVD's "
               "p2p_uplinks_mtu default on every EOS hardware platform, aristanetworks/avd "
               "@3cac535c; the EOS manual's range not read")

# Cumulus Linux runs on NVIDIA Spectrum only. NVUE sizes each lossless PG's headroom itself from
# the port's speed, MTU and cable length (NVIDIA advises leaving xoff/xon to the switch:
# hardware/cumulus.py), so no headroom or pool number of the plan is rendered; the plan's
# are the estimate its checks hold the chip to.
CUMULUS = Platform(
    name="cumulus", title="Cumulus Linux", families=("spectrum",),
    refused={"strata": "Broadcom switches do not run Cumulus Linux 5 (NVIDIA Spectrum only)",
             "sand": "Broadcom switches do not run Cumulus Linux 5 (NVIDIA Spectrum only)"},
    ports=CumulusPorts,
    ecmp=capabilities.cumulus_ecmp,
    watchdog_actions=cumulus.WATCHDOG_ACTIONS, hwsku_per_breakout=False,
    buffer_manager="nvue",
    mtu_max_bytes=cumulus.MTU_MAX_BYTES,
    mtu_source=cumulus.MTU_SOURCE,
    limits={"routing.maximum_paths": cumulus.MULTIPATHS + (cumulus.BGP_PAGE + "Optional-BGP-"
                                                           "Configuration.md @2a1166e0",),
            "pfc_watchdog.poll_ms": cumulus.WATCHDOG_POLL_MS + (cumulus.WATCHDOG_SOURCE,)})

# The order is the schema's and the documents': SONiC first.
PLATFORMS = {SONIC.name: SONIC, EOS.name: EOS, CUMULUS.name: CUMULUS}
NAMES = tuple(PLATFORMS)
