# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""EOS's renderer: the CLI configuration per switch, its change classifier and the ANTA test
catalog (anta.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import List

from ansible_collections.roce.fabric.plugins.module_utils.records import SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import renderer
from ansible_collections.roce.fabric.plugins.module_utils.render.eos import anta, changes, cli


def doc_notes(dev: SwitchIntent) -> List[str]:
    return []        # the device document says all an EOS switch is told


RENDERER = renderer.Renderer(
    configs=(renderer.ConfigFile(cli.CONFIG_PATH, cli.eos_config, changes.eos_parts),),
    anta=anta.catalog_yaml, doc_notes=doc_notes, legend=("#ccfbf1", "EOS switch"))
