# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cumulus Linux's renderer: startup.yaml (NVUE) per switch, its change classifier, and the
device document's notes on what NVUE computes itself."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List

from ansible_collections.roce.fabric.plugins.module_utils.hardware import cumulus
from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import renderer
from ansible_collections.roce.fabric.plugins.module_utils.render.cumulus import changes, nvue


def doc_notes(dev: SwitchIntent) -> List[str]:
    """What NVUE is told and what it computes itself: the numbers of the table above that the
    switch sizes on its own are the plan's estimate, held to the chip by the checks."""
    view: Dict[str, Any] = dev["buffer"].get("nvue") or {}
    wd = dev["pfc_watchdog"]
    trig = dev["buffer"]["trigger"] or {}
    lines = ["", "## Cumulus Linux notes", "",
             "- startup.yaml (NVUE, Cumulus Linux %s): QoS is set key by key - trust l3, all 64 "
             "DSCPs, the queue map, DWRR/strict scheduling, the pools, a PFC profile per cable "
             "length and an ECN profile per mark class - not through `nv set qos roce`, whose "
             "ECN and scheduler NVIDIA documents no way to override." % cumulus.RELEASE,
             "- headroom: NVUE sizes each lossless PG's xoff, xon and port buffer itself from "
             "its PFC profile's cable length (%s: the real cable, not the class); the "
             "headroom columns above are the plan's estimate (model `%s`), not rendered, and "
             "the buffer carve below is the plan's estimate of the same ASIC in SONiC's "
             "accounting." % (", ".join(sorted(set(
                 nvue.pfc_profile(nvue.cable_length(p)) for p in dev["ports"]
                 if p["lossless"]))) or "none", dev["buffer"]["model"]) if any(
                 p["lossless"] for p in dev["ports"]) else
             "- headroom: no lossless port.",
             "- pools: default-lossless %d %% and default-lossy %d %% of the shared buffer "
             "(rendered); the lossless pool's threshold is NVUE's own alpha %g (not rendered), "
             "so one congested PG pauses at %s B of the plan's %s B lossless pool estimate."
             % (view.get("lossless_pool_percent", 0), view.get("lossy_pool_percent", 0),
                view.get("alpha", 0), format(trig.get("trigger_one_pg_bytes") or 0, ","),
                format(view.get("lossless_pool_bytes") or 0, ","))]
    if wd["enabled"]:
        robust = nvue.watchdog_robustness(wd)
        lines.append("- PFC watchdog: polling-interval %d ms, robustness %d (acts after %d ms; "
                     "the plan asked %d ms); it drops on the stalled queue and restores the port "
                     "after a polling interval without pause frames - restoration_ms %d is not "
                     "rendered." % (wd["poll_ms"], robust, wd["poll_ms"] * robust,
                                    wd["detection_ms"], wd["restoration_ms"]))
    lines += ["- " + note + "." for note in view.get("not_rendered", [])]
    return lines


RENDERER = renderer.Renderer(
    configs=(renderer.ConfigFile(nvue.CONFIG_PATH, nvue.nvue_yaml, changes.nvue_parts),),
    anta=None, doc_notes=doc_notes, legend=("#dcfce7", "Cumulus switch"))
