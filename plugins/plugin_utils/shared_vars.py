# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan's variables of hosts that hold none of their own, read once per set of groups.

Why: ``hostvars[host]`` merges every variable source of the host (ansible-core's
VariableManager.get_vars: group_vars files through the vars plugins, inventory variables,
facts, magic variables) - about 1.2 ms a host, 30 s over the 26,624 hosts of a 131,072-GPU
inventory, though most hosts only inherit what their groups set. In get_vars' order
(ansible/vars/manager.py, ansible-core 2.19), the sources below the groups that can differ
between two hosts of the same groups are: the inventory's host variables (host.vars), the
vars plugins' host_vars for the host (inventory sources and the playbook directory), facts
(the fact cache), include_vars and set_fact/register results (the variable manager's caches).
Extra and play variables are the same for every host; magic variables carry none of the names
read here. So when none of those host sources sets a name read here (``wanted``), the host's
values are those of any other host with the same groups, and are merged once for them all.

A value that may hold a template is templated per host by the caller; a set of groups with
one is never shared. Anything this module cannot read (another ansible-core's internals) turns
sharing off: every host is then merged as before.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

try:
    from ansible.vars.plugins import get_vars_from_inventory_sources, get_vars_from_path
except ImportError:     # another core: no sharing
    get_vars_from_inventory_sources = get_vars_from_path = None

STAGE = "task"          # HostVars.raw_get calls get_vars with its default stage


class SharedVars:
    """Per set of groups, the variables a host with nothing of its own gets."""

    def __init__(self, hostvars, wanted):
        """``hostvars``: Ansible's HostVars; ``wanted(name)``: True for a variable name read."""
        self._wanted = wanted
        self._known = {}        # group names -> values, or None: not shared
        try:
            manager = hostvars._variable_manager   # pylint: disable=protected-access
            self._inventory = hostvars._inventory  # pylint: disable=protected-access
            self._loader = hostvars._loader        # pylint: disable=protected-access
            self._caches = (manager._fact_cache,    # pylint: disable=protected-access
                            manager._vars_cache,    # pylint: disable=protected-access
                            manager._nonpersistent_fact_cache)  # pylint: disable=protected-access
            self._sources = list(self._inventory._sources)  # pylint: disable=protected-access
            self._basedirs = [self._loader.get_basedir()] if manager.safe_basedir else []
            self.enabled = get_vars_from_path is not None
        except AttributeError:
            self.enabled = False

    def key(self, name):
        """The key of a host whose variables may be shared (its groups), None otherwise."""
        if not self.enabled:
            return None
        try:
            host = self._inventory.get_host(name)
            if host is None or self._sets_own(host):
                return None
            return tuple(sorted(group.name for group in host.get_groups()))
        except Exception:   # pylint: disable=broad-except
            return None     # a best-effort shortcut: merge this host as before

    def get(self, key):
        """The values kept for ``key``, or None."""
        return self._known.get(key) if key is not None else None

    def keep(self, key, values, shareable):
        """Keep ``values`` (read from a host of ``key``) for the other hosts of the same
        groups, if ``shareable`` (no value needed templating per host)."""
        if key is not None and key not in self._known:
            self._known[key] = values if shareable else None

    def _sets_own(self, host):
        """True if a source of the host itself sets a wanted name."""
        if any(self._wanted(name) for name in host.vars):
            return True
        own = [get_vars_from_inventory_sources(self._loader, self._sources, [host], STAGE)]
        own += [get_vars_from_path(self._loader, path, [host], STAGE) for path in self._basedirs]
        for cache in self._caches:
            try:
                own.append(cache.get(host.name) or {})
            except KeyError:
                continue
        return any(self._wanted(name) for found in own for name in found)
