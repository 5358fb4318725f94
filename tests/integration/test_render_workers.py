"""roce.fabric.render in several processes writes exactly what one process writes: every file
of every output, the fabric report rendered after the switches or beside the hosts, the change
records and the changed paths."""
import filecmp
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
PLAYBOOK = """
- hosts: roce_switches:gpu_hosts
  gather_facts: false
  tasks:
    - roce.fabric.plan: {}
      run_once: true
      register: plan_result
    - roce.fabric.render:
        plan_file: "{{ plan_result.plan_file }}"
        devices: "{{ ansible_play_hosts }}"
        output_dir: "{{ out }}/all-{{ item }}"
        outputs: [configs, structured, docs, anta, hosts, fabric]
        workers: "{{ item }}"
      loop: [1, 3]
      run_once: true
      register: everything
    - roce.fabric.render:
        plan_file: "{{ plan_result.plan_file }}"
        devices: "{{ ansible_play_hosts }}"
        output_dir: "{{ out }}/report-{{ item }}"
        outputs: [hosts, fabric]
        workers: "{{ item }}"
      loop: [1, 3]
      run_once: true
      register: report
    - ansible.builtin.copy:
        dest: "{{ out }}/results.json"
        content: "{{ {'everything': everything.results, 'report': report.results} | to_json }}"
      run_once: true
      delegate_to: localhost
"""


def _tree(root):
    return sorted(os.path.relpath(os.path.join(path, name), root)
                  for path, _dirs, files in os.walk(root) for name in files)


def _same(left, right):
    files = _tree(left)
    assert files == _tree(right)
    _match, mismatch, errors = filecmp.cmpfiles(left, right, files, shallow=False)
    return mismatch + errors


def test_processes_write_what_one_process_writes(tmp_path):
    book = tmp_path / "render.yml"
    book.write_text(PLAYBOOK)
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1")
    done = subprocess.run([os.path.join(BIN, "ansible-playbook"), str(book), "-e",
                           "out=%s" % tmp_path], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text())
    for kind in ("everything", "report"):
        one, three = results[kind]
        folder = "all-1" if kind == "everything" else "report-1"
        assert len(_tree(str(tmp_path / folder))) > 20
        for key in ("changed_files", "changed_count", "rendered", "rendered_hosts", "changes",
                    "recorded"):
            assert one.get(key) == three.get(key), (kind, key)
    assert results["everything"][0]["rendered"] == 6 and results["report"][0]["rendered_hosts"] == 8
    # the files, byte for byte (changes.md names the run's output directory: none is given a
    # deployed-state record here, so it is the same text)
    assert _same(str(tmp_path / "all-1"), str(tmp_path / "all-3")) == []
    assert _same(str(tmp_path / "report-1"), str(tmp_path / "report-3")) == []


def test_a_bad_worker_count_is_refused_in_one_line_before_anything_is_written(tmp_path):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".collections"),
               ANSIBLE_NOCOLOR="1")
    for bad in ("-1", "two", "1\\n../x"):
        book = tmp_path / "bad.yml"
        book.write_text(PLAYBOOK.split("    - roce.fabric.render:", 1)[0] + (
            "    - roce.fabric.render:\n"
            "        plan_file: \"{{ plan_result.plan_file }}\"\n"
            "        devices: \"{{ ansible_play_hosts }}\"\n"
            "        output_dir: \"{{ out }}/bad\"\n"
            "        workers: \"%s\"\n"
            "      run_once: true\n" % bad))
        done = subprocess.run([os.path.join(BIN, "ansible-playbook"), str(book), "-e",
                               "out=%s" % tmp_path], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        assert done.returncode != 0
        assert "workers = " in done.stdout and "is not valid" in done.stdout
        assert "Traceback" not in done.stdout + done.stderr
        assert not (tmp_path / "bad").exists()
