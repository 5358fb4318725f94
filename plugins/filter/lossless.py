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

PORT_KEYS = ("name", "speed_gbps", "cable_m", "mtu_bytes", "peer_mtu_bytes", "lanes", "media")


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
def fabric_size(gpus, radix=64, planes=1):
    return sizing.size_fabric(gpus, radix, planes)


@_guard
def pfc_headroom(port, asic, model="ieee", asic_overrides=None, sonic=None):
    # The filter is an entry point of its own: its arguments have not passed the input gate.
    errors.mapping("port", port, PORT_KEYS, None)
    errors.choice("roce_asic", asic, catalog.ASICS)
    if asic_overrides:
        asic_overrides = validate.check_value(schema.ASIC_OVERRIDES, asic_overrides,
                                              "asic_overrides")
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
