# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A GPU host's intent as files: what the host and nic roles would set, reviewable offline.

hosts/<host>.yml is the plan's view of the host (NICs, addresses, QoS and NIC settings,
sysctls); hosts/<host>/nccl.conf and hosts/<host>/sysctl.conf are the files the host role
writes. nccl.conf is rendered by the same function on the host (with its live RDMA devices) and
here (without: the values that need them are left out with the reason, as on a host without
RDMA devices).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.roce.fabric.plugins.module_utils import nic_host
from ansible_collections.roce.fabric.plugins.module_utils.render import structured

NCCL_KEYS = ("NCCL_IB_TC", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_IB_QPS_PER_CONNECTION",
             "NCCL_SOCKET_IFNAME")


def nccl_conf(dev, roce_nics=None):
    """/etc/nccl.conf of host ``dev`` from the plan and, on the host, its live RDMA devices."""
    settings, notes = nic_host.nccl_settings(dev, roce_nics or {})
    lines = ["# roce.fabric: %s - rendered from the plan, do not edit" % dev["name"],
             "# RoCE on DSCP %d (ToS %s = DSCP << 2 | ECT(0)); NCCL_IB_TC's default 0 is lossy."
             % (dev["nics"][0]["qos"]["roce_dscp"], settings["NCCL_IB_TC"])]
    lines += ["# " + note for note in notes]
    lines += ["%s=%s" % (key, settings[key]) for key in NCCL_KEYS if settings[key] is not None]
    return "\n".join(lines) + "\n"


def sysctl_conf(dev):
    """The sysctl.d file of host ``dev`` (multi-rail ARP and reverse-path settings)."""
    lines = ["# roce.fabric: %s - rendered from the plan, do not edit" % dev["name"]]
    lines += ["%s = %s" % (key, value) for key, value in sorted(dev["sysctls"].items())]
    return "\n".join(lines) + "\n"


def host_yaml(dev):
    out = ["---", "# roce.fabric intent of GPU host %s" % dev["name"]]
    return "\n".join(out + structured.yaml_lines(dev)) + "\n"


def render_host(dev):
    """{relative path: text} of host ``dev``."""
    name = dev["name"]
    return {"hosts/%s.yml" % name: host_yaml(dev),
            "hosts/%s/nccl.conf" % name: nccl_conf(dev),
            "hosts/%s/sysctl.conf" % name: sysctl_conf(dev)}
