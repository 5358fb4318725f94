"""Benchmark: `ansible-playbook site.yml` offline on a bundled inventory against a plain baseline
playbook that templates three files per switch (a config, a structured file, a document) over the
same switches. The ratio is what issue 14 holds us to (at most 1.5): the plan, every check and the
render of the whole fabric must cost about what templating three files per switch costs.

Prints, per playbook: median wall seconds over the runs (each into a fresh output directory, the
first-render case), the output lines of the last run, and the ratio. Not a timed test.

    python benchmarks/bench_site.py                                # cluster-1024, 3 runs
    python benchmarks/bench_site.py inventories/example/hosts.yml 5
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)

# The baseline: what a hand-written playbook does for the same switches, one template task per
# file; each template loops over the switch's 64 ports like a real config would.
BASELINE = """---
- name: Baseline - three templated files per switch
  hosts: roce_switches
  gather_facts: false
  connection: local
  vars:
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
  tasks:
    - name: Config
      ansible.builtin.template: {src: config.j2, dest: "{{ out }}/{{ inventory_hostname }}.cfg", mode: "0644"}
    - name: Structured
      ansible.builtin.template: {src: structured.j2, dest: "{{ out }}/{{ inventory_hostname }}.yml", mode: "0644"}
    - name: Document
      ansible.builtin.template: {src: doc.j2, dest: "{{ out }}/{{ inventory_hostname }}.md", mode: "0644"}
"""
TEMPLATES = {
    "config.j2": "hostname {{ inventory_hostname }}\n{% for i in range(64) %}interface "
                 "Ethernet{{ i + 1 }}/1\n   mtu 9216\n   ip address 198.18.{{ i }}.1/31\n!\n"
                 "{% endfor %}",
    "structured.j2": "name: {{ inventory_hostname }}\nports:\n{% for i in range(64) %}"
                     "  - {name: Ethernet{{ i + 1 }}/1, mtu: 9216}\n{% endfor %}",
    "doc.j2": "# {{ inventory_hostname }}\n\n| port | mtu |\n|---|---|\n{% for i in range(64) %}"
              "| Ethernet{{ i + 1 }}/1 | 9216 |\n{% endfor %}",
}


def _run(argv, env):
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode:
        sys.exit("%s failed:\n%s%s" % (" ".join(argv), done.stdout[-3000:], done.stderr))
    return elapsed, len(done.stdout.splitlines())


def main():
    inventory = sys.argv[1] if len(sys.argv) > 1 else "inventories/cluster-1024/hosts.yml"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    env = dict(os.environ, ANSIBLE_NOCOLOR="1",
               ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"))
    work = tempfile.mkdtemp(prefix="roce-bench-site-")
    try:
        with open(os.path.join(work, "baseline.yml"), "w") as handle:
            handle.write(BASELINE)
        for name, text in TEMPLATES.items():
            os.makedirs(os.path.join(work, "templates"), exist_ok=True)
            with open(os.path.join(work, "templates", name), "w") as handle:
                handle.write(text)
        playbook = os.path.join(BIN, "ansible-playbook")
        rows = {}
        for label, argv in (
                ("site.yml", lambda out: [playbook, "site.yml", "-i", inventory, "-e",
                                          "switch_output_dir=%s" % out]),
                ("baseline (3 templates per switch)",
                 lambda out: [playbook, os.path.join(work, "baseline.yml"), "-i", inventory,
                              "-e", "out=%s" % out])):
            times = []
            for i in range(runs):
                out = os.path.join(work, "out-%d" % i)
                shutil.rmtree(out, ignore_errors=True)
                os.makedirs(out)
                elapsed, lines = _run(argv(out), env)
                times.append(elapsed)
            rows[label] = (statistics.median(times), lines)
        print("inventory: %s, %d runs each, median wall time" % (inventory, runs))
        for label, (seconds, lines) in rows.items():
            print("  %-36s %6.2f s  %5d output lines" % (label, seconds, lines))
        site, base = rows["site.yml"][0], rows["baseline (3 templates per switch)"][0]
        print("  ratio site.yml / baseline: %.2f (target <= 1.5)" % (site / base))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
