# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a platform's renderer provides (render/<platform>/platform.py builds one, render/registry.py
keys them by platform name): its configuration files with their paths and change classifiers,
the ANTA catalog where the platform has one, its section of the device document, and how the
pictures show its switches."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, List, NamedTuple, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.records import Plan, SwitchIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes


class ConfigFile(NamedTuple):
    """One configuration file of a switch."""
    path: str                                   # relative to the output root; %s: the switch
    render: Callable[[SwitchIntent], str]       # its text from the switch's intent
    parts: Callable[[str, str], List[change_classes.Part]]     # the change classifier: (old, new) -> parts


class Renderer(NamedTuple):
    configs: Tuple[ConfigFile, ...]
    # anta/<switch>.yml: (switch, plan, targets.leaf_prefixes(plan) or None) -> text; None: none
    anta: Optional[Callable[[SwitchIntent, Plan, Optional[Any]], str]]
    doc_notes: Callable[[SwitchIntent], List[str]]   # the device document's platform section
    legend: Tuple[str, str]                     # (fill colour, legend text) in the pictures
