"""Benchmark: plan + every check, then every switch output, for generated Clos fabrics on one
core (the process pins itself to one CPU where the OS allows).

Prints per fabric: GPUs, tiers, planes, switches, links; CPU seconds (on one core, what the
wall clock shows on an idle machine; other processes do not count) for plan + checks (fabric
model, lossless math, every rule, the failure what-if; the sweep's own share in brackets), then
for each switch output alone over every switch: configs (SONiC config_db + FRR, EOS CLI),
structured (intent YAML), docs (device documents), anta (the EOS switches' ANTA catalogs, the
plan's leaf prefixes indexed once as the render action does); total (plan + every output); the
whole process (interpreter start to exit, inventory generation included: its CPU seconds, and
wall clock); rendered MB and peak RSS. The default run writes these four outputs (ANTA where
the platform has one). Not a timed test: run `make benchmark` and compare the figures across
changes. Each size runs in a fresh process so peak RSS belongs to that size alone.
benchmarks/bench_pyavd.py compares the time per switch with pyavd's pipeline.

Fabric (plugins/module_utils/design/generate.py): radix-64 switches (64 x 400G, Tomahawk 5
class), 8 x 400G NICs per host (one per GPU), rail-optimized, 1:1 at every tier, sized by
lossless-math.md §6 per plane. Leaf pairs alternate SONiC and EOS; spines and super-spines are
SONiC. Default series: 1,024 to 131,072 GPUs over 8 planes (2 tiers up to 2,048 GPUs per plane,
3 tiers above).

    python benchmarks/bench_plan.py                  # the default series
    python benchmarks/bench_plan.py 131072:64:8      # GPUs:radix:planes
    python benchmarks/bench_plan.py --platforms cumulus 32768:64:8   # one platform everywhere
                                                     # (generate.py PLATFORM_MIXES)
"""
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), ".collections"))

from ansible_collections.roce.fabric.plugins.module_utils import pipeline  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.design import generate  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.plan import build, targets  # noqa: E402

SERIES = ["1024:64:8", "8192:64:8", "32768:64:8", "131072:64:8"]


OUTPUTS = ("configs", "structured", "docs")     # what the default run writes per switch


def run_one(spec, mix="alternate"):
    gpus, radix, planes = (int(x) for x in spec.split(":"))
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    groups, hostvars = generate.clos(gpus, radix, planes, platforms=mix)[:2]
    clock = time.process_time        # CPU time: what other processes do does not count
    start = clock()
    stages = {}
    result = pipeline.build_plan(groups, hostvars, stages)
    seconds = {"plan": clock() - start}
    switches = [d for d in result["devices"].values() if d["kind"] == "switch"]
    size = 0
    with build.gc_paused():          # as the render action does
        for output in OUTPUTS:       # each output alone, over every switch
            start = clock()
            for dev in switches:
                size += sum(len(text) for text in render.render_switch(dev, (output,)).values())
            seconds[output] = clock() - start
        start = clock()
        leaves = targets.leaf_prefixes(result)
        for dev in switches:
            size += sum(len(text) for text in render.render_anta(dev, result, leaves).values())
        seconds["anta"] = clock() - start
    s = result["summary"]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({"gpus": gpus, "radix": radix, "planes": planes, "tiers": s["tiers"],
                      "switches": len(switches), "hosts": s["hosts"], "links": s["links"],
                      "errors": s["errors"], "seconds": seconds, "stages": stages, "rendered_mb": size / 1e6,
                      "rss_mb": rss}))


def main(specs, mix="alternate"):
    print("%8s %5s %6s %8s %8s %7s %9s %8s %10s %6s %6s %7s %9s %8s %6s %8s" % (
        "GPUs", "tiers", "planes", "switches", "links", "plan s", "(sweep s)", "configs s",
        "structured s", "docs s", "anta s", "total s", "process s", "(wall s)", "MB",
        "peak MB"))
    for spec in specs:
        start = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, __file__, "--one", spec, mix], check=True,
                             capture_output=True, text=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        process = time.perf_counter() - start
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        r = json.loads(out.strip().splitlines()[-1])
        t = r["seconds"]
        print("%8d %5d %6d %8d %8d %7.2f %9.2f %9.2f %12.2f %6.2f %6.2f %7.2f %9.2f %8.2f "
              "%6.0f %8.0f" % (
                  r["gpus"], r["tiers"], r["planes"], r["switches"], r["links"], t["plan"],
                  r["stages"]["failures"], t["configs"], t["structured"], t["docs"], t["anta"],
                  sum(t.values()), cpu, process, r["rendered_mb"], r["rss_mb"]))
        if r["errors"]:
            print("%8s %d plan errors" % ("", r["errors"]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        run_one(*sys.argv[2:4])
    elif sys.argv[1:2] == ["--platforms"]:
        main(sys.argv[3:] or SERIES, sys.argv[2])
    else:
        main(sys.argv[1:] or SERIES)
