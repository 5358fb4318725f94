# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The deploy backends: how a switch's rendered files reach it (roles/switch_deploy).

One entry per backend, keyed by the name ``switch_deploy_backend`` takes. The role runs
``tasks/<name>.yml`` for it; a backend on the shared split-mode FRR flow (config_db plus
bgpd.conf through frr-reload: ``tasks/frr_flow.yml``) brings its own version of each step that
differs, ``tasks/<name>/<step>.yml``. The port-status parser reads what the backend's port check
prints (``roce.fabric.port_problems`` ``source``). A new backend is one entry here; the tests of
tests/unit/plugins/module_utils/deploy/test_backends.py then name the task files, the step files
and the argument_specs choice it still lacks.

Pure data; imports only deploy/ (deploy/ ships to targets: no planner, not even the platform
list of hardware/platforms.py, which the tests hold DEFAULTS against).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, Mapping, NamedTuple, Tuple

from ansible_collections.roce.fabric.plugins.module_utils.deploy import roll

# What a port-status parser returns: {port: {up, mtu, speed_gbps}} (deploy/roll.py).
PortParser = Callable[[Any], Dict[str, Dict[str, Any]]]


class Backend(NamedTuple):
    name: str
    platform: str       # the platform whose rendered files it deploys (roce_platform)
    tasks: str          # its entry file under roles/switch_deploy/tasks/
    frr_flow: bool      # runs the shared split-mode FRR flow, with tasks/<name>/<step>.yml
    ports: PortParser   # reads its port check's output (roce.fabric.port_problems)
    description: str    # one line for the docs


def _backend(name: str, platform: str, frr_flow: bool, ports: PortParser,
             description: str) -> Backend:
    # The entry file is the name's: main.yml includes "{{ switch_deploy_backend }}.yml".
    return Backend(name, platform, name + ".yml", frr_flow, ports, description)


# The order is the one argument_specs lists the choices in (its validation message shows it).
BACKENDS: Dict[str, Backend] = dict((b.name, b) for b in (
    _backend("sonic", "sonic", True, roll.ports_sonic,
             "SONiC: config_db through sonic-utilities (checkpoint, apply-patch, save), "
             "bgpd.conf to FRR in the bgp container"),
    _backend("linux", "sonic", True, roll.ports_linux,
             "FRR routers standing in for SONiC: the same config_db programmed into Linux "
             "netdevs, bgpd.conf to FRR (the namespace labs)"),
    _backend("eos", "eos", False, roll.ports_eos,
             "Arista EOS through arista.eos: the plan's sections in a configuration session"),
    _backend("cumulus", "cumulus", False, roll.ports_nvue,
             "Cumulus Linux through the NVUE REST API: the plan's part of the tree in a "
             "revision, applied with a confirm timeout (rolls back by itself unless confirmed)"),
))
NAMES: Tuple[str, ...] = tuple(BACKENDS)

# The backend a switch gets unless switch_deploy_backend says otherwise (linux is for labs only:
# chosen, never defaulted).
DEFAULTS: Mapping[str, str] = {"sonic": "sonic", "eos": "eos", "cumulus": "cumulus"}

# roce.fabric.port_problems' source when none is given (its documented default).
PORT_SOURCE = "linux"


def one_of(names: Tuple[str, ...]) -> str:
    """``a, b or c``: the known names, for a message."""
    return names[0] if len(names) == 1 else "%s or %s" % (", ".join(names[:-1]), names[-1])


def backend(name: Any) -> Backend:
    """The backend called ``name``; an unknown name is refused naming the known ones."""
    # Only a str is looked up: an unhashable value (a list from a bad -e) is refused too.
    found = BACKENDS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError("unknown deploy backend %r (known: %s)" % (name, ", ".join(NAMES)))
    return found


def default_for(platform: Any) -> str:
    """The default backend of ``platform``; a platform without one is refused naming those
    with one."""
    found = DEFAULTS.get(platform) if isinstance(platform, str) else None
    if found is None:
        raise ValueError("no default deploy backend for platform %r (platforms with one: %s); "
                         "set switch_deploy_backend" % (platform, ", ".join(DEFAULTS)))
    return found
