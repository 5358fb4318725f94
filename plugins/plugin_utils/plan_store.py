# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Hand the plan from the plan action to the render actions of the same run through a file, and
the switch render actions' change records to the report's.

A registered task result is deep-copied twice by Ansible (for the callbacks and for the
register), pickled between processes, and templated into every task that names it: for a
32,768-GPU plan that cost minutes per task. The plan is written once into Ansible's own
per-run temporary directory (C.DEFAULT_LOCAL_TMP: made by the controller process, private to
its user, removed when the run ends) and the task result carries its path. Pickle keeps the
plan exactly as built (integer keys, the objects identical switches share) and loads fast.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import pickle
import tempfile

from ansible import constants as C

PREFIX = "roce-plan-"
CHANGES_PREFIX = "roce-changes-"


def save(plan):
    """Write ``plan`` into this run's temporary directory; return the file's path."""
    handle, path = tempfile.mkstemp(prefix=PREFIX, suffix=".pickle", dir=C.DEFAULT_LOCAL_TMP)
    with os.fdopen(handle, "wb") as out:
        pickle.dump(plan, out, protocol=pickle.HIGHEST_PROTOCOL)
    return path


def load(path):
    """The plan written by save() in this run; ValueError for any other file."""
    real = os.path.realpath(path)
    tmp = os.path.realpath(C.DEFAULT_LOCAL_TMP)
    if os.path.dirname(real) != tmp or not os.path.basename(real).startswith(PREFIX):
        raise ValueError("plan_file %s is not a plan of this run (roce.fabric.plan writes it "
                         "into %s)" % (path, tmp))
    with open(real, "rb") as handle:
        return pickle.load(handle)


def save_changes(record):
    """Keep one switch render's {rendered_switches, changes} for the report render of this run
    (the report reads them here instead of templating every host's registered result)."""
    handle, path = tempfile.mkstemp(prefix=CHANGES_PREFIX, suffix=".pickle",
                                    dir=C.DEFAULT_LOCAL_TMP)
    with os.fdopen(handle, "wb") as out:
        pickle.dump(record, out, protocol=pickle.HIGHEST_PROTOCOL)
    return path


def load_changes():
    """Every record save_changes() kept in this run, oldest first."""
    tmp = C.DEFAULT_LOCAL_TMP
    names = sorted((os.path.getmtime(os.path.join(tmp, n)), n) for n in os.listdir(tmp)
                   if n.startswith(CHANGES_PREFIX) and n.endswith(".pickle"))
    out = []
    for _mtime, name in names:
        with open(os.path.join(tmp, name), "rb") as handle:
            out.append(pickle.load(handle))
    return out
