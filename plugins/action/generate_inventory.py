# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action plugin roce.fabric.generate_inventory: a thin shell over
module_utils.design.inventory (files, write). Runs on the controller; one-line errors."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import traceback

from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.design import inventory

display = Display()
_INTS = ("gpus", "radix", "planes", "nics_per_host", "speed_gbps", "tiers")
_DEFAULTS = {"radix": 64, "planes": 1, "nics_per_host": 8, "speed_gbps": 400, "tiers": None}


def _int(value):
    """An int from an int or a decimal string (``-e gpus=8192`` arrives as text); anything
    else unchanged, for the core to report."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return value


def _mapping_or_text(value):
    """``-e models=sn5600`` is text; a mapping stays one. Empty means the default."""
    if value in (None, ""):
        return None
    return value


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(_INTS + ("models", "platforms", "name", "dest", "force"))

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        args = self._task.args
        prefix = "roce.fabric.generate_inventory: "
        if args.get("gpus") in (None, ""):
            return dict(result, failed=True, msg=prefix + "gpus is required (the number of "
                        "GPUs, one NIC port each), e.g. gpus: 8192")
        if args.get("dest") in (None, ""):
            return dict(result, failed=True, msg=prefix + "dest is required (the inventory "
                        "directory to write), e.g. dest: inventories/cluster-8k")
        try:
            force = boolean(args.get("force", False), strict=True)
        except TypeError as exc:
            return dict(result, failed=True, msg=prefix + "force: %s" % exc)
        values = dict((k, _int(args.get(k, _DEFAULTS.get(k)))) for k in _INTS)
        for key in _INTS[1:]:
            if values[key] in (None, ""):     # tiers: None, the fewest tiers that fit
                values[key] = _DEFAULTS[key]
        dest = os.path.abspath(os.path.expanduser(str(args["dest"])))
        try:
            content, summary = inventory.files(
                values["gpus"], values["radix"], values["planes"],
                models=_mapping_or_text(args.get("models")),
                platforms=_mapping_or_text(args.get("platforms")),
                nics_per_host=values["nics_per_host"], speed_gbps=values["speed_gbps"],
                name=_mapping_or_text(args.get("name")), tiers=values["tiers"])
            todo = inventory.write(dest, content, force=force, check=self._task.check_mode)
        except errors.RoceInputError as exc:
            return dict(result, failed=True, msg=prefix + str(exc))
        except (IOError, OSError) as exc:
            return dict(result, failed=True, msg=prefix + "dest = %r could not be written: %s"
                        % (dest, exc))
        except Exception as exc:   # pylint: disable=broad-except
            display.vvv(traceback.format_exc())
            return dict(result, failed=True, msg=prefix + "internal error, a bug in roce.fabric "
                        "(%s: %s); please report it with the -vvv output"
                        % (type(exc).__name__, exc))
        result.update(changed=bool(todo["write"] or todo["remove"]), dest=dest,
                      files=sorted(content), changed_files=todo["write"],
                      removed_files=todo["remove"], fabric=summary)
        return result
