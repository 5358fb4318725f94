"""Benchmark: plan + every check, then rendering of every switch, for synthetic rail-optimized
fabrics on one core.

Prints GPUs, devices, links, plan seconds, devices per second, peak RSS, and render seconds and
milliseconds per switch (all files of a switch, in memory) per fabric size. Not a
timed test: run `make benchmark` and compare the figures across changes. Each size runs in a
fresh process so peak RSS belongs to that size alone.

Fabric: 8 x 400G NICs per host (one per rail), leaves of radix 128 (64 host ports, 64 uplinks),
one link from every leaf to every spine (spines are 512-port modular chassis), one ASN for
all spines. Leaves alternate Spectrum-4 (SONiC, sonic-nvidia model) and Tomahawk 5 (EOS, ieee).
"""
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), ".collections"))

from ansible_collections.roce.fabric.plugins.module_utils import plan, render  # noqa: E402

LEAF_DOWN = 64


def inventory(gpus):
    hosts = ["gpu%05d" % i for i in range(gpus // 8)]
    leaves = ["leaf%04d" % i for i in range(gpus // LEAF_DOWN)]
    spines = ["spine%03d" % i for i in range(LEAF_DOWN)]
    fabric = {"nics_per_host": 8, "switch_ports": 128,
              "addressing": {"loopbacks": "10.0.0.0/16", "fabric_p2p": "10.64.0.0/12",
                             "host_p2p": "10.128.0.0/10"},
              "ecmp": {"adaptive_routing": True}}
    hostvars = {}
    for i, name in enumerate(leaves):
        if i % 2:
            hostvars[name] = {"roce_asic": "tomahawk5", "roce_platform": "eos"}
        else:
            hostvars[name] = {"roce_asic": "spectrum4", "roce_platform": "sonic",
                              "roce_lossless": {"model": "sonic-nvidia"}}
    for name in spines:
        hostvars[name] = {"roce_asic": "jericho3", "roce_platform": "eos",
                          "roce_port_count": 1024,
                          "roce_asic_overrides": {"total_buffer_bytes": 2 ** 31}}
    hostvars[spines[0]]["roce_fabric"] = fabric
    for name in hosts:
        hostvars[name] = {}
    groups = {"spines": spines, "leaves": leaves, "gpu_hosts": hosts,
              "roce_switches": spines + leaves}
    return groups, hostvars


def run_one(gpus):
    groups, hostvars = inventory(gpus)
    start = time.perf_counter()
    result = plan.build_plan(groups, hostvars)
    elapsed = time.perf_counter() - start
    start = time.perf_counter()
    switches = [d for d in result["devices"].values() if d["kind"] == "switch"]
    size = 0
    for dev in switches:
        size += sum(len(text) for text in render.render_switch(dev).values())
    render_s = time.perf_counter() - start
    s = result["summary"]
    devices = s["spines"] + s["leaves"] + s["hosts"]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({"gpus": gpus, "devices": devices, "links": s["links"],
                      "seconds": elapsed, "errors": s["errors"], "rss_mb": rss,
                      "switches": len(switches), "render_s": render_s, "rendered_mb": size / 1e6}))


def main(sizes):
    print("%8s %8s %8s %9s %11s %12s %7s %9s %9s %12s" % (
        "GPUs", "devices", "links", "plan s", "devices/s", "peak RSS MB", "errors", "switches",
        "render s", "ms/switch"))
    for gpus in sizes:
        out = subprocess.run([sys.executable, __file__, "--one", str(gpus)], check=True,
                             capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print("%8d %8d %8d %9.2f %11.0f %12.1f %7d %9d %9.2f %12.1f" % (
            r["gpus"], r["devices"], r["links"], r["seconds"], r["devices"] / r["seconds"],
            r["rss_mb"], r["errors"], r["switches"], r["render_s"],
            1000 * r["render_s"] / r["switches"]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        run_one(int(sys.argv[2]))
    else:
        main([int(a) for a in sys.argv[1:]] or [1024, 8192, 32768])
