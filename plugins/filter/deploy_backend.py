# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jinja2 filter: the switch deploy role's default backend. Documentation: deploy_backend.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Callable, Dict

from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.module_utils.deploy import backends


def deploy_backend(platform: Any) -> str:
    # The registry's default per platform (deploy/backends.py DEFAULTS), not the platform's
    # name itself: the two name lists differ (linux is a backend and no platform).
    try:
        return backends.default_for(platform)
    except ValueError as exc:
        raise AnsibleFilterError("roce.fabric.deploy_backend: %s" % exc) from exc


class FilterModule(object):
    """roce.fabric deploy backend filter."""

    def filters(self) -> Dict[str, Callable[[Any], str]]:
        return {"deploy_backend": deploy_backend}
