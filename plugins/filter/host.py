# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jinja2 filters for the host role. Documentation: <name>.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.module_utils.host import nccl


def _call(name, func, *args):
    try:
        return func(*args)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise AnsibleFilterError("roce.fabric.%s: expected a host's plan and "
                                 "roce.fabric.nic_facts' roce_nics: %s" % (name, exc)) from exc


def nccl_settings(host_plan, roce_nics, roce_host=None):
    settings, notes = _call("nccl_settings", nccl.settings, host_plan, roce_nics or {},
                            roce_host)
    return {"settings": settings, "notes": notes}


def nccl_conf(host_plan, roce_nics=None, roce_host=None):
    return _call("nccl_conf", nccl.conf_text, host_plan, roce_nics or {}, roce_host)


def nccl_env(host_plan, roce_nics=None, roce_host=None):
    return _call("nccl_env", nccl.env_text, host_plan, roce_nics or {}, roce_host)


class FilterModule(object):
    """roce.fabric host filters."""

    def filters(self):
        return {"nccl_settings": nccl_settings, "nccl_conf": nccl_conf, "nccl_env": nccl_env}
