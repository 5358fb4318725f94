# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a switch redistributes into BGP: its loopback and the /31s of its host-facing ports,
nothing else (on SONiC the bgp container also sees eth0 and docker0; fabric /31s need no
announcement, BGP next hops are directly connected)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

# the list lives with the plan, which sizes each neighbour's route limit from it
# (plan/bgp_limits.py) and whose checks recount it (checks/bgp.py); the renders write it as is
from ansible_collections.roce.fabric.plugins.module_utils.plan.targets import (  # noqa: F401 pylint: disable=unused-import
    connected_prefixes)

CONNECTED = "RF-CONNECTED"     # prefix-list and route-map name, on FRR and EOS alike
