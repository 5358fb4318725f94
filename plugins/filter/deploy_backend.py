# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jinja2 filters of the switch deploy role: its default backend and the config files it records
in the deployed-state record. Documentation: deploy_backend.yml, config_files.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict, List

from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.module_utils.deploy import backends
from ansible_collections.roce.fabric.plugins.module_utils.render import registry


def deploy_backend(platform: Any) -> str:
    # The registry's default per platform (deploy/backends.py DEFAULTS), not the platform's
    # name itself: the two name lists differ (linux is a backend and no platform).
    try:
        return backends.default_for(platform)
    except ValueError as exc:
        raise AnsibleFilterError("roce.fabric.deploy_backend: %s" % exc) from exc


def config_files(device: Any) -> List[str]:
    # The platform renderer's config files (render/registry.py), the paths the change plan
    # reads from the deployed-state record: one list, so the record and its reader agree.
    if not isinstance(device, dict) or device.get("platform") not in registry.RENDERERS:
        raise AnsibleFilterError("roce.fabric.config_files: a switch of the plan "
                                 "(switch_deploy_device) with a platform of %s, got %r"
                                 % (", ".join(sorted(registry.RENDERERS)), device))
    return list(registry.config_paths(device))


class FilterModule(object):
    """roce.fabric deploy backend filter."""

    def filters(self) -> Dict[str, Callable[[Any], Any]]:
        return {"deploy_backend": deploy_backend, "config_files": config_files}
