# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jinja2 filters over the lossless core (plugins/module_utils). Documentation: <name>.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.lossless import (
    ecn, headroom, pause as thresholds)
from ansible_collections.roce.fabric.plugins.module_utils.design import sizing
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog
from ansible_collections.roce.fabric.plugins.module_utils.inputs import schema, validate


def _guard(func):
    """Turn input errors of the core into one-line filter errors (no traceback)."""
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except errors.RoceInputError as exc:
            raise AnsibleFilterError("roce.fabric.%s: %s" % (func.__name__, exc)) from None
        except TypeError as exc:
            raise AnsibleFilterError("roce.fabric.%s: bad arguments: %s"
                                     % (func.__name__, exc)) from None
    wrapper.__name__ = func.__name__
    return wrapper


@_guard
def fabric_size(gpus, radix=64, planes=1):
    return sizing.size_fabric(gpus, radix, planes)


def _checked(field, value):
    """``value`` checked against the input schema's rule for ``field`` (inputs/schema.py
    FILTER_ARGS): a filter's arguments have not passed the inventory gate."""
    return validate.check_value(schema.FILTER_ARGS[field], value, field)


@_guard
def pfc_headroom(port, asic, model="ieee", asic_overrides=None, sonic=None):
    port = _checked("port", port)
    _checked("roce_asic", asic)
    _checked("roce_headroom_model", model)
    profile = catalog.asic_profile(asic, asic_overrides and _checked("roce_asic_overrides",
                                                                     asic_overrides))
    return headroom.port_headroom(
        profile, port["speed_gbps"], port["cable_m"], port.get("mtu_bytes", 9216),
        port.get("peer_mtu_bytes"), model=model, lanes=port.get("lanes"),
        sonic=sonic and _checked("roce_sonic_buffer", sonic),
        media=port.get("media", "fiber"), port=port.get("name"))


@_guard
def pfc_trigger(shared_pool_bytes, fraction=thresholds.DEFAULT_TRIGGER_FRACTION,
                mode="dynamic", congested_pgs=1, mtu_bytes=9216):
    return thresholds.xoff_trigger(
        _checked("shared_pool_bytes", shared_pool_bytes),
        _checked("roce_pfc_trigger_fraction", fraction), _checked("roce_pfc_trigger_mode", mode),
        _checked("congested_pgs", congested_pgs), _checked("mtu_bytes", mtu_bytes))


@_guard
def dynamic_th(fraction):
    return thresholds.dynamic_th(thresholds.alpha_from_fraction(
        _checked("roce_pfc_trigger_fraction", fraction)))


@_guard
def ecn_thresholds(speed_gbps, xoff_trigger_bytes, mtu_bytes=9216, overrides=None):
    return ecn.ecn_thresholds(
        _checked("speed_gbps", speed_gbps), _checked("xoff_trigger_bytes", xoff_trigger_bytes),
        _checked("mtu_bytes", mtu_bytes), overrides and _checked("roce_ecn", overrides))


class FilterModule(object):
    """roce.fabric lossless filters."""

    def filters(self):
        return {
            "pfc_headroom": pfc_headroom,
            "pfc_trigger": pfc_trigger,
            "dynamic_th": dynamic_th,
            "ecn_thresholds": ecn_thresholds,
            "fabric_size": fabric_size,
        }
