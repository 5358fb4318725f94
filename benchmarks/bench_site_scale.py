"""Benchmark: `ansible-playbook site.yml` offline on generated fabrics of 1,024, 32,768 and
131,072 GPUs - every default output (switch configs, structured intent, device documents, ANTA
catalogs, the GPU hosts' intent, the fabric report with the change plan and the rollout waves),
each run into a fresh output directory (the first-render case).

Prints per fabric: switches and hosts, wall seconds and peak RSS of the whole run (GNU time
``%e %M``: the largest resident set of the process tree's biggest process), bytes written (the
output directory), the largest ANTA catalog, and the lines the run printed. Issue 29 holds the
131,072-GPU run to 120 s, 2 GB peak RSS, 2.5 GB written and no ANTA catalog over 100 KB on a
2-core machine; the figures are printed, not asserted.

    python benchmarks/bench_site_scale.py                  # 1024 32768 131072
    python benchmarks/bench_site_scale.py 1024 8192
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
TIME = "/usr/bin/time"           # GNU time: wall seconds and peak RSS (KiB) of the run
# GPU count -> planes: the generator's fabric per count (docs/scale.md); 131,072 GPUs at radix
# 64 need 8 planes (k^3/4 = 65,536 GPU ports per plane at most)
SERIES = {1024: 1, 8192: 4, 32768: 8, 131072: 8}


def _size(folder):
    total, anta = 0, 0
    for path, _dirs, files in os.walk(folder):
        for name in files:
            size = os.path.getsize(os.path.join(path, name))
            total += size
            if os.path.basename(path) == "anta":
                anta = max(anta, size)
    return total, anta


def _run(argv, env):
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit("%s failed:\n%s%s" % (" ".join(argv), done.stdout[-3000:], done.stderr[-3000:]))
    return done


def one(gpus, work, env):
    inventory = os.path.join(work, "inv-%d" % gpus)
    _run([os.path.join(BIN, "ansible-playbook"), "playbooks/generate_inventory.yml",
          "-e", "gpus=%d" % gpus, "-e", "planes=%d" % SERIES.get(gpus, 1),
          "-e", "dest=%s" % inventory], env)
    out = os.path.join(work, "out-%d" % gpus)
    timing = os.path.join(work, "time-%d" % gpus)
    done = _run([TIME, "-f", "%e %M", "-o", timing, os.path.join(BIN, "ansible-playbook"),
                 "site.yml", "-i", inventory, "-e", "switch_output_dir=%s" % out], env)
    with open(timing) as handle:
        seconds, rss_kib = handle.read().split()[-2:]
    written, anta = _size(out)
    switches = sum(1 for entry in os.scandir(os.path.join(out, "configs"))
                   if entry.name.endswith((".cfg", ".json")))
    hosts = sum(1 for entry in os.scandir(os.path.join(out, "hosts"))
                if entry.name.endswith(".yml"))
    shutil.rmtree(out, ignore_errors=True)
    return (gpus, switches, hosts, float(seconds), int(rss_kib) / 1024.0 ** 2,
            written / 1e9, anta / 1e3, len(done.stdout.splitlines()))


def main():
    if not os.path.exists(TIME):
        print("skipped: %s (GNU time) is not installed" % TIME)
        return
    series = [int(a) for a in sys.argv[1:]] or [1024, 32768, 131072]
    env = dict(os.environ, ANSIBLE_NOCOLOR="1",
               ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"))
    work = tempfile.mkdtemp(prefix="roce-bench-scale-")
    try:
        print("site.yml offline, every default output, fresh output directory (%d CPUs)"
              % (os.cpu_count() or 1))
        print("%8s %8s %7s %8s %9s %9s %10s %6s" % ("GPUs", "switches", "hosts", "wall s",
                                                    "peak GB", "written", "ANTA max", "lines"))
        for gpus in series:
            row = one(gpus, work, env)
            print("%8d %8d %7d %8.1f %9.2f %7.2f GB %7.1f KB %6d" % row)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
