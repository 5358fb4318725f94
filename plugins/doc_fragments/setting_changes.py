# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared documentation of modules that change a device setting by setting, only where it
differs (nic, sonic_netdev)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    DOCUMENTATION = r"""
attributes:
  check_mode:
    support: full
    description: Reports the changes it would make.
  diff_mode:
    support: full
    description: Shows each changed setting's before and after.
"""
