"""plugin_utils/fork_map: parts in forked processes give what one process gives, in order;
errors and lost children come back as errors, never as a partial result."""
import os
import signal

import pytest

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.plugin_utils import fork_map


def _square_with_pid(part):
    return [(item * item, os.getpid()) for item in part]


def test_split_keeps_order_and_balances():
    items = list(range(10))
    parts = fork_map.split(items, 3)
    assert [len(p) for p in parts] == [4, 3, 3]
    assert [i for p in parts for i in p] == items
    assert fork_map.split([], 2) == [[], []]


def test_parts_run_in_other_processes_and_come_back_in_order():
    results = fork_map.fork_map(_square_with_pid, range(9), 3)
    assert [v for part in results for v, _pid in part] == [i * i for i in range(9)]
    pids = [set(pid for _v, pid in part) for part in results]
    assert pids[0] == {os.getpid()}                   # the first part here
    assert len(set.union(*pids)) == 3                 # each other part in a child of its own


def test_an_error_in_a_child_is_raised_here_as_itself():
    def job(part):
        if 5 in part:
            raise errors.RoceInputError("output path", "../x", "a path inside /out")
        return part
    with pytest.raises(errors.RoceInputError) as caught:
        fork_map.fork_map(job, range(6), 2)
    assert "../x" in str(caught.value)


def test_an_unpicklable_error_comes_back_as_text():
    class Odd(Exception):
        def __init__(self, a, b):
            Exception.__init__(self, "%s/%s" % (a, b))

    def job():
        raise Odd(1, 2)
    with pytest.raises(fork_map.WorkerError, match="Odd: 1/2"):
        fork_map.fork_run([lambda: None, job])


def test_a_child_killed_without_a_result_is_named():
    def job():
        os.kill(os.getpid(), signal.SIGKILL)
    with pytest.raises(fork_map.WorkerError, match="ended with no result"):
        fork_map.fork_run([lambda: "here", job])


def test_workers_follow_the_cpus_and_the_items():
    assert fork_map.workers(4, items=10, min_items=5) == 4      # asked for: as asked
    assert fork_map.workers(4, items=3) == 3                    # at most one per item
    assert fork_map.workers(0, items=10, min_items=5) <= 2      # automatic: per min_items
    assert fork_map.workers(0, items=3, min_items=5) == 1
    assert 1 <= fork_map.workers(0, items=10 ** 6) <= fork_map.MAX_WORKERS


def test_an_error_here_waits_for_the_children_first():
    def here():
        raise ValueError("first part")
    with pytest.raises(ValueError, match="first part"):
        fork_map.fork_run([here, lambda: 1, lambda: 2])
    with pytest.raises(ChildProcessError):      # every child reaped: none left to wait for
        os.wait()
