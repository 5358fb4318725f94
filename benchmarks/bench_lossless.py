"""Benchmark of the lossless core: plan synthetic fabrics of growing size on one core.

Prints, per fabric: switches, ports, seconds, switches per second and peak RSS. Not a timed test;
run it with `make benchmark` and compare the figures across changes.

A fabric of G GPUs at radix 64 (400G) has G/32 leaves (32 host ports + 32 uplinks each) and
G/64 spines of 64 ports (lossless-math.md §6); leaves alternate Spectrum-4/sonic-nvidia and
Tomahawk 5/ieee so both headroom models are exercised.
"""
import os
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), ".collections"))

from ansible_collections.roce.fabric.plugins.module_utils import inventory  # noqa: E402

LEAF_PORTS = [
    {"prefix": "Ethernet", "first": 0, "count": 32, "step": 8, "speed_gbps": 400, "cable_m": 3},
    {"prefix": "Ethernet", "first": 256, "count": 32, "step": 8, "speed_gbps": 400, "cable_m": 30},
]
SPINE_PORTS = [{"prefix": "Ethernet", "first": 0, "count": 64, "step": 8, "speed_gbps": 400,
                "cable_m": 30}]


def fabric(gpus):
    hostvars = {}
    for i in range(gpus // 32):
        if i % 2:
            hostvars["leaf%d" % i] = {"roce_asic": "tomahawk5", "roce_ports": LEAF_PORTS}
        else:
            hostvars["leaf%d" % i] = {"roce_asic": "spectrum4", "roce_ports": LEAF_PORTS,
                                      "roce_lossless": {"model": "sonic-nvidia"}}
    for i in range(gpus // 64):
        hostvars["spine%d" % i] = {"roce_asic": "tomahawk5", "roce_ports": SPINE_PORTS}
    return hostvars


def main(sizes):
    header = ("GPUs", "switches", "ports", "seconds", "switches/s", "peak RSS MB")
    print("%8s %9s %9s %9s %12s %12s" % header)
    for gpus in sizes:
        hostvars = fabric(gpus)
        start = time.perf_counter()
        plan = inventory.fabric_lossless(sorted(hostvars), hostvars)
        elapsed = time.perf_counter() - start
        ports = sum(len(sw["ports"]) for sw in plan.values())
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        print("%8d %9d %9d %9.3f %12.0f %12.1f" % (gpus, len(plan), ports, elapsed,
                                                   len(plan) / elapsed, rss))


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1024, 8192, 32768])
