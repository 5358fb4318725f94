"""Benchmark: time per switch with every output, ours against pyavd's full pipeline, in one run
on one core (the process pins itself to one CPU where the OS allows).

pyavd (Arista AVD as a Python library, `pip install pyavd`; not a dependency of this collection)
runs its whole pipeline for 2 spines + 32 leaves (16 MLAG pairs, eBGP underlay, no services):
validate_inputs per device, get_avd_facts for the fabric, then per device
get_device_structured_config (eos_designs; a schema-typed EOSConfig), get_device_config and
get_device_doc (eos_cli_config_gen). Ours on a comparable generated fabric (1,024 GPUs at radix
64, one plane: 16 spines + 32 leaves in 16 pairs, SONiC and EOS alternating): plan and every
check, then per switch every output (configs, structured intent, device doc, ANTA catalog for
EOS). Both figures are the whole pipeline's CPU time divided by the number of switches (ours
also without plan and checks: the outputs alone); the best of `ROUNDS` runs each. Printed, not
asserted. Without pyavd the comparison is skipped.

    python benchmarks/bench_pyavd.py
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), ".collections"))

from ansible_collections.roce.fabric.plugins.module_utils import pipeline  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs as render  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.design import generate  # noqa: E402
from ansible_collections.roce.fabric.plugins.module_utils.plan import build, targets  # noqa: E402

ROUNDS = 3
LEAF_PAIRS = 16


def same_shape():
    """pyavd's fabric shape in our inventory: 2 spines over 16 pairs of EOS leaves (7060X6),
    each leaf with one uplink per spine and two host ports (1:1), 32 hosts x 2 NICs dual-homed
    on their pair (classic design)."""
    spines = ["spine%d" % (i + 1) for i in range(2)]
    leaves = ["leaf%02d%s" % (p + 1, s) for p in range(LEAF_PAIRS) for s in "ab"]
    hosts = ["gpu%02d" % (i + 1) for i in range(2 * LEAF_PAIRS)]
    fabric = {"design": "classic", "nics_per_host": 2, "ecmp": {"adaptive_routing": True}}
    hostvars = dict((n, {"roce_model": "7060x6-64pe", "roce_platform": "eos",
                         "roce_fabric": fabric}) for n in spines + leaves)
    hostvars.update((n, {"roce_fabric": fabric}) for n in hosts)
    children = dict(("pair%02d" % (p + 1), leaves[2 * p:2 * p + 2]) for p in range(LEAF_PAIRS))
    groups = dict(children, spines=spines, leaves=leaves, gpu_hosts=hosts,
                  roce_switches=spines + leaves, _children={"leaves": sorted(children)})
    return groups, hostvars


def ours_ms(spec="1024:64:1"):
    """(switches, then ms per switch: the whole pipeline - plan, checks and every switch output
    (configs, structured, docs, ANTA) -, every output alone, configs + structured + docs alone
    (render_switch: what the default run writes)), from the best of ROUNDS runs. ``spec``
    GPUs:radix:planes of a generated fabric, or "avd" for same_shape()."""
    if spec == "avd":
        groups, hostvars = same_shape()
    else:
        gpus, radix, planes = (int(x) for x in spec.split(":"))
        groups, hostvars = generate.clos(gpus, radix, planes, platforms="alternate")[:2]
    best = None
    for _round in range(ROUNDS):
        start = time.process_time()
        plan = pipeline.build_plan(groups, hostvars)
        devices = [d for d in plan["devices"].values() if d["kind"] == "switch"]
        with build.gc_paused():
            files = time.process_time()
            for dev in devices:
                render.render_switch(dev, render.OUTPUTS)
            anta = time.process_time()
            leaves = targets.leaf_prefixes(plan)
            for dev in devices:
                render.render_anta(dev, plan, leaves)
        end = time.process_time()
        run = (end - start, end - files, anta - files)
        best = min(best or run, run)
    return (len(devices),) + tuple(1000.0 * t / len(devices) for t in best)


def avd_inputs():
    """{hostname: inputs} of an eBGP L3LS: 2 spines, LEAF_PAIRS MLAG pairs of leaves."""
    leaves = 2 * LEAF_PAIRS
    groups = [{"group": "pair%02d" % g, "bgp_as": str(65101 + g), "nodes": [
        {"name": "leaf%02d" % (2 * g + n + 1), "id": 2 * g + n + 1,
         "mgmt_ip": "192.168.0.%d/24" % (10 + 2 * g + n),
         "uplink_switch_interfaces": ["Ethernet%d" % (2 * g + n + 1)] * 2}
        for n in range(2)]} for g in range(LEAF_PAIRS)]
    fabric = {
        "fabric_name": "FABRIC",
        "underlay_routing_protocol": "ebgp",
        "overlay_routing_protocol": "ebgp",
        "spine": {
            "defaults": {"platform": "7800R3", "loopback_ipv4_pool": "10.255.0.0/27",
                         "bgp_as": "65100"},
            "nodes": [{"name": "spine%d" % (i + 1), "id": i + 1,
                       "mgmt_ip": "192.168.0.%d/24" % (i + 1)} for i in range(2)],
        },
        "l3leaf": {
            "defaults": {
                "platform": "7280R3", "loopback_ipv4_pool": "10.255.1.0/26",
                "vtep_loopback_ipv4_pool": "10.255.2.0/26",
                "uplink_interfaces": ["Ethernet51/1", "Ethernet52/1"],
                "uplink_switches": ["spine1", "spine2"],
                "uplink_ipv4_pool": "10.255.128.0/20",
                "mlag_interfaces": ["Ethernet53/1", "Ethernet54/1"],
                "mlag_peer_ipv4_pool": "10.255.252.0/24",
                "mlag_peer_l3_ipv4_pool": "10.255.251.0/24",
                "virtual_router_mac_address": "00:1c:73:00:00:99",
                "spanning_tree_mode": "mstp", "spanning_tree_priority": 4096,
            },
            "node_groups": groups,
        },
    }
    hosts = {"spine%d" % (i + 1): "spine" for i in range(2)}
    hosts.update(("leaf%02d" % (i + 1), "l3leaf") for i in range(leaves))
    return {name: dict(fabric, type=kind) for name, kind in hosts.items()}


def pyavd_ms(pyavd):
    """(switches, ms per switch): pyavd's whole pipeline for every device, best of ROUNDS."""
    inputs = avd_inputs()
    best = None
    for _round in range(ROUNDS):
        start = time.process_time()
        validated = {}
        for name, data in inputs.items():
            result = pyavd.validate_inputs(data)
            if result.validated_data is None:
                raise SystemExit("pyavd inputs of %s: %s"
                                 % (name, result.validation_result.violations))
            validated[name] = result.validated_data
        facts = pyavd.get_avd_facts(validated)
        for name, data in validated.items():
            # an EOSConfig, typed by the schema: rendered without a second validation
            structured = pyavd.get_device_structured_config(name, data, avd_facts=facts)
            pyavd.get_device_config(structured)
            pyavd.get_device_doc(structured)
        elapsed = time.process_time() - start
        best = min(best or elapsed, elapsed)
    return len(inputs), 1000.0 * best / len(inputs)


def main():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    rows = []
    for spec, label in (("avd", "pyavd's shape: 2 spines + 32 leaves"),
                        ("1024:64:1", "1,024 GPUs at radix 64: 16 spines + 32 leaves")):
        switches, ours, outputs, files = ours_ms(spec)
        rows.append((label, ours, outputs, files))
        print("roce.fabric, %s: %d switches, ms per switch: %.3f (plan, checks, every output), "
              "%.3f (every output), %.3f (configs, structured, docs)"
              % (label, switches, ours, outputs, files))
    try:
        import pyavd
    except ImportError:
        print("pyavd not installed: comparison skipped (pip install pyavd)")
        return
    devices, theirs = pyavd_ms(pyavd)
    print("pyavd %s: %d switches, %.1f ms per switch (eos_designs + eos_cli_config_gen, "
          "config and doc)" % (getattr(pyavd, "__version__", "?"), devices, theirs))
    for label, ours, outputs, files in rows:
        print("ratio per switch, pyavd / roce.fabric (%s): %.0fx (whole pipelines), %.0fx (to "
              "every output of ours), %.0fx (to configs, structured, docs)"
              % (label, theirs / ours, theirs / outputs, theirs / files))


if __name__ == "__main__":
    main()
