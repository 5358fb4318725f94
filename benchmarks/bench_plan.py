"""Benchmark: plan + every check, then rendering of every switch, for generated Clos fabrics on
one core (the process pins itself to one CPU where the OS allows).

Prints per fabric: GPUs, tiers, planes, switches, links, plan seconds (fabric model, lossless
math, all checks), render seconds for the switch configs alone and for all files (configs,
structured intent, device docs), rendered MB, total seconds and peak RSS. Not a timed test: run
`make benchmark` and compare the figures across changes. Each size runs in a fresh process so
peak RSS belongs to that size alone.

Fabric (plugins/module_utils/generate.py): radix-64 switches (64 x 400G, Tomahawk 5 class),
8 x 400G NICs per host (one per GPU), rail-optimized, 1:1 at every tier, sized by
lossless-math.md §6 per plane. Leaf pairs alternate SONiC and EOS; spines and super-spines are
SONiC. Default series: 1,024 to 131,072 GPUs over 8 planes (2 tiers up to 2,048 GPUs per plane,
3 tiers above).

    python benchmarks/bench_plan.py                  # the default series
    python benchmarks/bench_plan.py 131072:64:8      # GPUs:radix:planes
"""
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), ".collections"))

from ansible_collections.roce.fabric.plugins.module_utils import render
from ansible_collections.roce.fabric.plugins.module_utils.design import generate
from ansible_collections.roce.fabric.plugins.module_utils.plan import build as plan  # noqa: E402

SERIES = ["1024:64:8", "8192:64:8", "32768:64:8", "131072:64:8"]


def run_one(spec):
    gpus, radix, planes = (int(x) for x in spec.split(":"))
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    groups, hostvars = generate.clos(gpus, radix, planes, platforms="alternate")[:2]
    start = time.perf_counter()
    result = plan.build_plan(groups, hostvars)
    plan_s = time.perf_counter() - start
    switches = [d for d in result["devices"].values() if d["kind"] == "switch"]
    size = 0
    with plan.gc_paused():          # as the render action does
        start = time.perf_counter()
        for dev in switches:
            size += sum(len(text) for text in render.render_switch(dev, ("configs",)).values())
        configs_s = time.perf_counter() - start
        start = time.perf_counter()
        for dev in switches:
            size += sum(len(text) for text in
                        render.render_switch(dev, ("structured", "docs")).values())
        rest_s = time.perf_counter() - start
    s = result["summary"]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({"gpus": gpus, "radix": radix, "planes": planes, "tiers": s["tiers"],
                      "switches": len(switches), "hosts": s["hosts"], "links": s["links"],
                      "errors": s["errors"], "plan_s": plan_s, "configs_s": configs_s,
                      "all_s": configs_s + rest_s, "rendered_mb": size / 1e6, "rss_mb": rss}))


def main(specs):
    head = ("%8s %5s %6s %8s %7s %8s %7s %10s %10s %10s %8s %9s %7s" % (
        "GPUs", "tiers", "planes", "switches", "hosts", "links", "plan s", "configs s",
        "plan+cfg s", "all files s", "MB", "peak MB", "errors"))
    print(head)
    for spec in specs:
        out = subprocess.run([sys.executable, __file__, "--one", spec], check=True,
                             capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print("%8d %5d %6d %8d %7d %8d %7.2f %10.2f %10.2f %10.2f %8.0f %9.0f %7d" % (
            r["gpus"], r["tiers"], r["planes"], r["switches"], r["hosts"], r["links"],
            r["plan_s"], r["configs_s"], r["plan_s"] + r["configs_s"],
            r["plan_s"] + r["all_s"], r["rendered_mb"], r["rss_mb"], r["errors"]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        run_one(sys.argv[2])
    else:
        main(sys.argv[1:] or SERIES)
