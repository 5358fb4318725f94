# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A GPU host's intent as files: what the host and nic roles would set, reviewable offline.

hosts/<host>.yml is the plan's view of the host (NICs, addresses, QoS and NIC settings,
sysctls); hosts/<host>/nccl.conf and hosts/<host>/sysctl.conf are the files the host role
writes; hosts/<host>/nccl.env the same variables for containers. They are rendered by the same
functions on the host (with its live RDMA devices) and here (without: the values that need them
are left out with the reason, as on a host without RDMA devices).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Optional, cast

from ansible_collections.roce.fabric.plugins.module_utils.host import nccl
from ansible_collections.roce.fabric.plugins.module_utils.records import HostIntent
from ansible_collections.roce.fabric.plugins.module_utils.render import structured


def nccl_conf(dev: HostIntent, roce_nics: Optional[Dict[str, Any]] = None) -> str:
    """/etc/nccl.conf of host ``dev`` from the plan and, on the host, its live RDMA devices."""
    # host/ takes plain dicts (it ships to the hosts without records.py)
    return nccl.conf_text(cast(Dict[str, Any], dev), roce_nics)


def sysctl_conf(dev: HostIntent) -> str:
    """The sysctl.d file of host ``dev`` (multi-rail ARP and reverse-path settings)."""
    lines = ["# roce.fabric: %s - rendered from the plan, do not edit" % dev["name"]]
    lines += ["%s = %s" % (key, value) for key, value in sorted(dev["sysctls"].items())]
    return "\n".join(lines) + "\n"


def host_yaml(dev: HostIntent) -> str:
    out = ["---", "# roce.fabric intent of GPU host %s" % dev["name"]]
    return "\n".join(out + structured.yaml_lines(dev)) + "\n"


def render_host(dev: HostIntent) -> Dict[str, str]:
    """{relative path: text} of host ``dev``."""
    name = dev["name"]
    return {"hosts/%s.yml" % name: host_yaml(dev),
            "hosts/%s/nccl.conf" % name: nccl_conf(dev),
            "hosts/%s/nccl.env" % name: nccl.env_text(cast(Dict[str, Any], dev)),
            "hosts/%s/sysctl.conf" % name: sysctl_conf(dev)}
