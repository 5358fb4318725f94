# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Each platform's renderer (render/renderer.py Renderer), keyed by hardware/platforms.py NAMES
(tests/unit/plugins/module_utils/test_platform_registries.py fails when one is missing)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Dict, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render.cumulus import (
    platform as cumulus_platform)
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import (
    platform as eos_platform)
from ansible_collections.roce.fabric.plugins.module_utils.render import renderer
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import (
    platform as sonic_platform)

RENDERERS: Dict[str, renderer.Renderer] = {"sonic": sonic_platform.RENDERER,
                                           "eos": eos_platform.RENDERER,
                                           "cumulus": cumulus_platform.RENDERER}


def config_paths(dev: SwitchIntent) -> Tuple[str, ...]:
    """The paths of switch ``dev``'s configuration files, relative to the output root."""
    return tuple(f.path % dev["name"] for f in RENDERERS[dev["platform"]].configs)
