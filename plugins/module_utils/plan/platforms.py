# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the plan adds per platform to a switch's platform-neutral intent: the platform's part of
the hardware record, and whether its deploy merges an inventory base config. Keyed by
hardware/platforms.py NAMES (tests/unit/plugins/module_utils/test_platform_registries.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, NamedTuple

from ansible_collections.roce.fabric.plugins.module_utils.hardware.models import Mode


def _sonic_hardware(model: Dict[str, Any], mode: Mode) -> Dict[str, Any]:
    """SONiC's DEVICE_METADATA platform and the HWSKU of the breakout (models.py)."""
    return {"platform": model["sonic"]["platform"], "hwsku": model["sonic"]["hwsku"][mode.name]}


def _eos_hardware(model: Dict[str, Any], mode: Mode) -> Dict[str, Any]:
    """The tx-queue keyword of the model's EOS qos profiles, where the model has EOS data."""
    return {"eos_tx_queue": model["eos"]["tx_queue"]} if model.get("eos") else {}


def _no_hardware(model: Dict[str, Any], mode: Mode) -> Dict[str, Any]:
    """Cumulus adds nothing: its breakout and port names are in the platform-neutral record."""
    return {}


class PlanHook(NamedTuple):
    # the platform's keys of the hardware record, from the model's data and its breakout
    hardware: Callable[[Dict[str, Any], Mode], Dict[str, Any]]
    # the deploy merges roce_eos_base_config (EOS: the sections the plan does not own)
    base_config: bool


PLATFORMS = {
    "sonic": PlanHook(hardware=_sonic_hardware, base_config=False),
    "eos": PlanHook(hardware=_eos_hardware, base_config=True),
    # NVUE keeps what a revision does not touch: the deploy patches the plan's part only
    "cumulus": PlanHook(hardware=_no_hardware, base_config=False),
}
