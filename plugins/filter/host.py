# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jinja2 filters for the host role. Documentation: <name>.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.module_utils import nic_host
from ansible_collections.roce.fabric.plugins.module_utils.render import host as render_host


def nccl_settings(host_plan, roce_nics):
    try:
        settings, notes = nic_host.nccl_settings(host_plan, roce_nics or {})
    except (KeyError, TypeError, ValueError) as exc:
        raise AnsibleFilterError("roce.fabric.nccl_settings: expected a host's plan and "
                                 "roce.fabric.nic_facts' roce_nics: %s" % exc)
    return {"settings": settings, "notes": notes}


def nccl_conf(host_plan, roce_nics=None):
    try:
        return render_host.nccl_conf(host_plan, roce_nics or {})
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise AnsibleFilterError("roce.fabric.nccl_conf: expected a host's plan and "
                                 "roce.fabric.nic_facts' roce_nics: %s" % exc)


class FilterModule(object):
    """roce.fabric host filters."""

    def filters(self):
        return {"nccl_settings": nccl_settings, "nccl_conf": nccl_conf}
