"""Which headroom a switch gets, so that the plan equals what the switch computes.

The platform's buffer manager decides (hardware/platforms.py names it per platform; ``MANAGERS``
here holds each). SONiC's buffermgrd has two buffer models (sonic.md §1.1). Traditional: it pins
each lossless PG to the HWSKU's pg_profile_lookup.ini row for the port's speed and CABLE_LENGTH;
the plan's default headroom is that row (model ``sonic-sku``), and a profile computed otherwise
states the traffic pattern it was sized for. Dynamic (Spectrum only: the Mellanox plugin):
buffermgrd computes the headroom from the port, CABLE_LENGTH and LOSSLESS_TRAFFIC_PATTERN with
the lua of its release; the plan computes the same formula (``sonic-nvidia``) at the release's
revision and the rendered pattern. Where the plan's numbers are rendered as they are (EOS), where
the switch sizes its own headroom (Cumulus: NVUE) and on switches without a SKU table the
headroom is Model R (``ieee``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, NamedTuple, Optional, Sequence, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import (
    capabilities, catalog, cumulus, models, platforms, sku_tables)
from ansible_collections.roce.fabric.plugins.module_utils.lossless import headroom, pause
from ansible_collections.roce.fabric.plugins.module_utils.model.fabric import Switch

# SONiC's own LOSSLESS_TRAFFIC_PATTERN default (buffers_config.j2, 50 % since PR #20632).
DYNAMIC_PATTERN = {"lossless_mtu_bytes": 1024, "small_packet_pct": 50}


class Choice(NamedTuple):
    """A switch's headroom model and what goes with it."""
    model: str                            # ieee, sonic-nvidia or sonic-sku
    knobs: Dict[str, Any]                 # sonic-nvidia knobs for headroom.port_headroom
    sku: Optional[Tuple[Optional[str], Optional[str]]]   # (model, HWSKU) of a SKU table
    intent: Optional[Dict[str, Any]]      # the SONiC buffer settings rendered, else None


def choose(sw: Switch, asic: catalog.AsicProfile, given: Dict[str, Any],
           hardware: Optional[Dict[str, Any]]) -> Choice:
    """The headroom model of switch ``sw`` and its roce_lossless ``given``, by the buffer
    manager of its platform."""
    return manager(sw.platform).choose(sw, asic, given, hardware)


def _foreign_blocks(sw: Switch, given: Dict[str, Any], mine: Optional[str]) -> None:
    """Refuse a roce_lossless block of another platform's buffer manager (``mine``: the block
    this switch's manager reads, if any)."""
    for block in BLOCKS:
        if block != mine and given.get(block):
            raise errors.RoceInputError("roce_lossless.%s" % block, given[block], "not set: it "
                                        "configures %s and %s runs %s" % (BLOCKS[block], sw.name,
                                                                          sw.platform), sw.name)


def _as_planned(sw: Switch, asic: catalog.AsicProfile, given: Dict[str, Any],
                hardware: Optional[Dict[str, Any]]) -> Choice:
    """The plan's headroom is rendered as computed: no SONiC settings, no SKU tables."""
    _foreign_blocks(sw, given, None)
    return _formula(sw, given)


def _formula(sw: Switch, given: Dict[str, Any]) -> Choice:
    """The headroom of a switch without SKU tables: Model R or SONiC's Mellanox formula."""
    model = given.get("model", "ieee")
    if model == "sonic-sku":
        raise errors.RoceInputError("roce_lossless.model", model, "ieee or sonic-nvidia on "
                                    "%s (no SONiC SKU tables)"
                                    % platforms.PLATFORMS[sw.platform].title, sw.name)
    return Choice(model, {}, None, None)


def _sonic_buffermgrd(sw: Switch, asic: catalog.AsicProfile, given: Dict[str, Any],
                      hardware: Optional[Dict[str, Any]]) -> Choice:
    """SONiC: the traditional model's SKU table row, or the dynamic model's formula."""
    _foreign_blocks(sw, given, "sonic")
    sonic_cfg = dict(given.get("sonic") or {})
    spectrum = asic.value("family") == "spectrum"
    buffer_model = sonic_cfg.get("buffer_model", "traditional")
    version = sonic_cfg.get("version", headroom.DEFAULT_SONIC_VERSION)
    hwsku = (hardware or {}).get("hwsku")
    table = sku_tables.pg_table(hwsku)
    if buffer_model == "dynamic":
        if not spectrum:
            raise errors.RoceInputError("roce_lossless.sonic.buffer_model", buffer_model,
                                        "traditional: SONiC's dynamic buffer model computes "
                                        "headroom only on Spectrum (its Mellanox plugin; "
                                        "sonic.md §1.1)", sw.name)
        if given.get("trigger_mode") == "static":
            raise errors.RoceInputError("roce_lossless.trigger_mode", "static", "dynamic: "
                                        "SONiC's dynamic buffer model gives every lossless PG "
                                        "a dynamic threshold (DEFAULT_LOSSLESS_BUFFER_PARAMETER "
                                        "default_dynamic_th)", sw.name)
        default = "sonic-nvidia"
    else:
        default = "sonic-sku" if table else "ieee"
    model = given.get("model", default)
    if buffer_model == "dynamic" and model != "sonic-nvidia":
        raise errors.RoceInputError("roce_lossless.model", model, "sonic-nvidia: with the "
                                    "dynamic buffer model the switch computes the headroom with "
                                    "that formula, and the plan must match it", sw.name)
    if model == "sonic-sku" and not table:
        raise errors.RoceInputError("roce_lossless.model", model, "ieee or sonic-nvidia: the "
                                    "model data has no pg_profile_lookup.ini for %s"
                                    % (hwsku or "this switch (no roce_model)"), sw.name)
    pattern = dict(DYNAMIC_PATTERN if buffer_model == "dynamic" else
                   dict((k, v) for k, v in models.SKU_TABLE_PATTERN.items()
                        if k != "port_mtu_bytes"))
    pattern.update((k, sonic_cfg[k]) for k in ("lossless_mtu_bytes", "small_packet_pct")
                   if k in sonic_cfg)
    revision = headroom.SONIC_VERSIONS[version]
    knobs = dict(pattern, revision=revision) if model == "sonic-nvidia" else {}
    intent = {"buffer_model": buffer_model, "version": version, "revision": revision,
              "hwsku": hwsku, "traffic_pattern": pattern if model != "ieee" else None}
    return Choice(model, knobs, (sw.model, hwsku) if table else None, intent)


def physical_model(model: str, family: Optional[str]) -> str:
    """The headroom model of what a link physically needs: a SKU table row stands for the
    formula its table was sized with (Spectrum: the Mellanox lua, sonic-nvidia; else ieee)."""
    if model == "sonic-sku":
        return "sonic-nvidia" if family == "spectrum" else "ieee"
    return model


def physical_knobs(model: str, knobs: Dict[str, Any]) -> Dict[str, Any]:
    """Knobs for the headroom a link physically needs: the SKU tables' pattern for sonic-sku
    switches on Spectrum, else the switch's own."""
    if model == "sonic-nvidia" and not knobs:
        pattern: Dict[str, Any] = dict(models.SKU_TABLE_PATTERN)
        pattern.pop("port_mtu_bytes")
        return dict(pattern, revision=headroom.SONIC_VERSIONS[headroom.DEFAULT_SONIC_VERSION])
    return knobs


def cable_classes(sw: Switch, speed_gbps: int) -> Optional[Tuple[int, ...]]:
    """The CABLE_LENGTH values (metres) the switch's buffer manager has a profile row for on a
    port of ``sw`` at ``speed_gbps``; None where it takes any length and () where the switch's
    table is empty."""
    return manager(sw.platform).cable_classes(sw, speed_gbps)


def _any_length(sw: Switch, speed_gbps: int) -> Optional[Tuple[int, ...]]:
    return None


def _sonic_cable_classes(sw: Switch, speed_gbps: int) -> Optional[Tuple[int, ...]]:
    """SONiC's traditional buffer manager: the HWSKU's pg_profile_lookup.ini lengths (() where
    the HWSKU publishes no table); any length on a generic port map and in the dynamic model."""
    if sw.model is None:
        return None
    sonic_cfg = (sw.vars.get("roce_lossless") or {}).get("sonic") or {}
    if sonic_cfg.get("buffer_model", "traditional") == "dynamic":
        return None
    return sku_tables.cable_classes(models.hwsku(sw.model, sw.portmap.breakout.name),
                                    speed_gbps)


def link_class(cable_m: float, options: Sequence[Optional[Tuple[int, ...]]]) -> int:
    """One cable class for both ends of a link (``options``: each end's cable_classes, None
    for any length): the smallest length at least ``cable_m`` at which every end that has a
    table row that long takes exactly that row; the cable in whole metres where no table has a
    row that long. An end whose table lacks the class computes its headroom at it and pins its
    profile (CABLE_LENGTH 0m)."""
    tables = [o for o in options if o]
    cls = cable_m
    while True:
        picks = [min(c for c in t if c >= cls) for t in tables if max(t) >= cls]
        new = max(picks) if picks else int(-(-cls // 1))
        if new == cls:
            return int(new)
        cls = new


def dynamic_headroom(platform: str, family: Optional[str]) -> bool:
    """Whether the platform's buffer manager can size each port's headroom from its own cable
    on an ASIC of ``family`` (SONiC's dynamic buffer model: Spectrum only, sonic.md §1.1)."""
    return family in manager(platform).dynamic_families


def _no_mmu(result: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    return None


def _eos_mmu(result: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """EOS on a Broadcom XGS chip: what its `platform trident mmu` lines carry. The queue
    profile is one per switch, so every lossless PG reserves the largest headroom of its ports
    (whole bytes); the headroom-pool limit is given in whole cells, rounded up. None on other
    chips (and without a pause point: the budget failed, nothing to apply)."""
    if result["asic"] not in capabilities.EOS_TRIDENT_ASICS or result["trigger"] is None:
        return None
    pool, cell = result["shared_headroom_pool_bytes"], result["cell_bytes"]
    return {"pg_reserved_bytes": max([p["headroom"]["size_bytes"] for p in result["ports"]]
                                     or [0]),
            "headroom_pool_cells": -(-pool // cell) if pool else None}


# roce_lossless settings NVUE has no key for: refused on a Cumulus switch, which sizes them itself
# (xoff/xon and port buffer: hardware/cumulus.py HEADROOM_SOURCE; pools: its lossless pool's
# share and alpha)
_NVUE_REFUSED = {
    "trigger_mode": "dynamic only: NVUE's lossless pool has a dynamic threshold (alpha 1)",
    "xon_offset_bytes": "not set: NVUE sizes xon itself (NVIDIA advises leaving it to the "
                        "switch)",
    "over_subscribe_ratio": "not set: Cumulus Linux %s reserves headroom per PG (no shared "
                            "headroom pool key)" % cumulus.RELEASE,
    "lossy_reserved_per_port_bytes": "not set: NVUE sizes the lossy reservations itself",
}


def _nvue(sw: Switch, asic: catalog.AsicProfile, given: Dict[str, Any],
          hardware: Optional[Dict[str, Any]]) -> Choice:
    """Cumulus: NVUE sizes every headroom itself; the plan estimates it (ieee, or the SONiC
    formula NVIDIA's own buffer manager uses) and refuses what it would not render."""
    _foreign_blocks(sw, given, "nvue")
    for key, why in sorted(_NVUE_REFUSED.items()):
        if key in given and not (key == "trigger_mode" and given[key] == "dynamic"):
            raise errors.RoceInputError("roce_lossless.%s" % key, given[key], why, sw.name)
    for port, over in sorted((sw.vars.get("roce_link_overrides") or {}).items()):
        if "headroom_bytes" in (over or {}):
            raise errors.RoceInputError(
                "roce_link_overrides.%s.headroom_bytes" % port, over["headroom_bytes"],
                "not set on Cumulus Linux: NVUE sizes each port's headroom from its PFC "
                "profile's cable length (NVIDIA advises against setting xoff)", sw.name)
    return _formula(sw, given)


def _plan_imposes(sw: Switch, given: Dict[str, Any]) -> Dict[str, Any]:
    return {}


def _pool_percent(given: Dict[str, Any]) -> int:
    return int((given.get("nvue") or {}).get("lossless_pool_percent",
                                             cumulus.LOSSLESS_POOL_PERCENT))


def _nvue_imposes(sw: Switch, given: Dict[str, Any]) -> Dict[str, Any]:
    """What NVUE fixes itself: the lossless PGs share the lossless pool (its memory-percent of
    the shared buffer, rendered) under alpha 1 (not rendered: NVUE's own, ALPHA_SOURCE)."""
    return {"trigger_fraction": pause.pause_fraction(cumulus.LOSSLESS_ALPHA),
            "trigger_mode": "dynamic", "lossless_pool_percent": _pool_percent(given)}


def _nvue_view(result: Dict[str, Any], given: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The buffer record's ``nvue``: the pools rendered, what NVUE computes itself, and the
    requested trigger it replaces."""
    percent = _pool_percent(given)
    view: Dict[str, Any] = {
        "lossless_pool_percent": percent, "lossy_pool_percent": 100 - percent,
        "pool_source": cumulus.POOL_SOURCE, "alpha": cumulus.LOSSLESS_ALPHA,
        "alpha_source": cumulus.ALPHA_SOURCE, "headroom_source": cumulus.HEADROOM_SOURCE,
        "not_rendered": []}
    if "trigger_fraction" in given:
        view["not_rendered"].append(
            "roce_lossless.trigger_fraction %g: NVUE's lossless pool pauses one PG at half its "
            "size (alpha 1)" % given["trigger_fraction"])
    view["lossless_pool_bytes"] = result["itm_pool_bytes"] * percent // 100
    return view


def _no_view(result: Dict[str, Any], given: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    return None


class BufferManager(NamedTuple):
    """Who sizes a platform's lossless profiles, and how the plan matches it."""
    choose: Callable[[Switch, catalog.AsicProfile, Dict[str, Any], Optional[Dict[str, Any]]],
                     Choice]
    cable_classes: Callable[[Switch, int], Optional[Tuple[int, ...]]]
    dynamic_families: Tuple[str, ...]     # ASIC families with a per-cable dynamic model
    # the switch's own MMU units for the plan's numbers (the buffer record's eos_mmu), or None
    mmu: Callable[[Dict[str, Any]], Optional[Dict[str, Any]]]
    # lossless settings the switch fixes itself, replacing the roce_lossless ones (switch.py)
    imposes: Callable[[Switch, Dict[str, Any]], Dict[str, Any]]
    # the buffer record's view of what the switch computes itself, or None (keyed by the
    # manager's settings block: the buffer record's "nvue")
    view: Callable[[Dict[str, Any], Dict[str, Any]], Optional[Dict[str, Any]]]


# hardware/platforms.py Platform.buffer_manager -> the manager
MANAGERS = {
    "sonic-buffermgrd": BufferManager(_sonic_buffermgrd, _sonic_cable_classes, ("spectrum",),
                                      _no_mmu, _plan_imposes, _no_view),
    # EOS: the plan's numbers rendered as they are, in the Trident MMU profile
    "eos-mmu": BufferManager(_as_planned, _any_length, (), _eos_mmu, _plan_imposes, _no_view),
    # Cumulus: NVUE sizes each PG's headroom from its port's PFC profile (speed, cable length:
    # one profile per cable, so per port like SONiC's dynamic model) and the pools' thresholds
    # itself; the plan renders the cable lengths and the pool split and holds its estimate of
    # the rest to the chip (hardware/cumulus.py)
    "nvue": BufferManager(_nvue, _any_length, ("spectrum",), _no_mmu, _nvue_imposes, _nvue_view),
}
# roce_lossless blocks that configure one buffer manager -> what they configure
BLOCKS = {"sonic": "SONiC's buffer manager", "nvue": "Cumulus Linux's NVUE buffer pools"}


def manager(platform: str) -> BufferManager:
    return MANAGERS[platforms.PLATFORMS[platform].buffer_manager]
