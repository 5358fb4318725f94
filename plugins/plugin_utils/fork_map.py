# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run one function over contiguous parts of a list in forked processes of this one.

Why: rendering 10,000 switches and 16,000 hosts is pure CPU work over a plan already in
memory, and an Ansible action runs it in one worker process while the controller's other cores
wait. A forked child shares the loaded plan (copy-on-write: nothing is pickled or loaded
again), works on its part and sends back only its small result (what it wrote, change
records). POSIX fork only; anywhere else, or for a small list, everything runs here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools
import os
import pickle
import struct
import traceback

MAX_WORKERS = 8         # beyond this the children's copied pages cost more than they save
_LENGTH = struct.Struct("!Q")


class WorkerError(RuntimeError):
    """A child ended without a result (killed, out of memory) or with an unpicklable error."""


def workers(wanted=0, items=0, min_items=1):
    """How many processes to use: ``wanted`` if > 0 (at most one per item), else one per CPU
    this process may run on (at most MAX_WORKERS) and one per ``min_items`` items; 1 without
    fork."""
    if not hasattr(os, "fork"):
        return 1
    if wanted > 0:
        return max(1, min(wanted, items))
    try:
        wanted = len(os.sched_getaffinity(0))
    except AttributeError:      # not Linux
        wanted = os.cpu_count() or 1
    wanted = min(wanted, MAX_WORKERS)
    return max(1, min(wanted, items // max(1, min_items)))


def split(items, parts):
    """``items`` in ``parts`` contiguous slices of nearly equal length (order kept)."""
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for index in range(parts):
        end = start + size + (index < extra)
        out.append(items[start:end])
        start = end
    return out


def fork_map(func, items, processes):
    """[func(part) for part in split(items, processes)]: part 0 here, the others in forked
    children (see fork_run)."""
    parts = split(list(items), max(1, processes))
    return fork_run([functools.partial(func, part) for part in parts])


def fork_run(jobs):
    """[job() for job in jobs]: the first job here, each other in a forked child, all at once.
    An exception in a job is raised here (the first job's first); a child that dies without a
    result raises WorkerError naming its exit status."""
    if len(jobs) == 1:
        return [jobs[0]()]
    children = []
    for job in jobs[1:]:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:                            # the child: never returns
            os.close(read_fd)
            _child(job, write_fd)
        os.close(write_fd)
        children.append((pid, read_fd))
    results = []
    try:
        results.append(("ok", jobs[0]()))
    except Exception as exc:    # pylint: disable=broad-except  # raised below, children reaped
        results.append(("error", exc))
    finally:
        results += [_collect(pid, read_fd) for pid, read_fd in children]
    out = []
    for status, value in results:
        if status != "ok":
            raise value
        out.append(value)
    return out


def _child(job, write_fd):
    code = 0
    try:
        try:
            payload = pickle.dumps(("ok", job()), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:    # pylint: disable=broad-except
            code = 1
            try:        # an exception whose class cannot be rebuilt from its args is sent as text
                payload = pickle.dumps(("error", exc), protocol=pickle.HIGHEST_PROTOCOL)
                pickle.loads(payload)
            except Exception:       # pylint: disable=broad-except
                payload = pickle.dumps(("error", WorkerError(
                    "%s: %s\n%s" % (type(exc).__name__, exc, traceback.format_exc()))))
        with os.fdopen(write_fd, "wb") as out:
            out.write(_LENGTH.pack(len(payload)))
            out.write(payload)
    finally:
        os._exit(code)      # pylint: disable=protected-access  # no atexit, no Ansible cleanup


def _collect(pid, read_fd):
    with os.fdopen(read_fd, "rb") as handle:
        head = handle.read(_LENGTH.size)
        body = handle.read(_LENGTH.unpack(head)[0]) if len(head) == _LENGTH.size else b""
    _pid, status = os.waitpid(pid, 0)
    if not body:
        return ("error", WorkerError("a render process (pid %d) ended with no result, wait "
                                     "status %d (killed or out of memory?)" % (pid, status)))
    return pickle.loads(body)
