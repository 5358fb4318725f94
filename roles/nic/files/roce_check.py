"""roce-check: this host's live NIC state against its roce.fabric plan, setting by setting.

Reads the plan the nic role installed (<tools>/etc/host.json) and the same decision code the
roce.fabric.nic module uses; prints one line per setting: ok, DIFFERS (with live and planned
values) or unsupported (with the reason). Exit 0 when nothing differs, 1 otherwise.

``roce-check --apply [IF ...]`` also carries the changes out: the nic role's boot-time units run
it, so a reboot, driver reload or firmware reset gets exactly the settings the module applied.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "lib"))

from ansible_collections.roce.fabric.plugins.module_utils import nic_host  # noqa: E402

SETTINGS = ("mtu", "dscp_prio", "pfc", "global_pause", "trust", "cnp", "ecn", "roce_tos",
            "traffic_class", "irq_affinity", "channels", "address", "policy_rule",
            "policy_route")
ROW = "%-10s %-14s %-12s %s"


def run(argv):
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    except OSError as exc:
        return 127, "", str(exc)
    return proc.returncode, proc.stdout, proc.stderr


def check(want, apply_changes):
    """Print one interface's rows; return how many settings differ (after --apply: failed)."""
    have = nic_host.gather(want["name"], run, nic_host.read_file, nic_host.list_dir)
    if have is None:
        print(ROW % (want["name"], "present", "DIFFERS", "interface missing on this host"))
        return 1
    todo = {}
    for item in nic_host.plan_interface(want, have, run):
        todo.setdefault(item["setting"], []).append(item)
    bad = 0
    for setting in SETTINGS:
        items = todo.get(setting)
        if not items:
            print(ROW % (want["name"], setting, "ok", ""))
        elif items[0]["unsupported"]:
            print(ROW % (want["name"], setting, "unsupported", items[0]["unsupported"]))
        elif apply_changes:
            errors = [e for e in (nic_host.apply(i, run) for i in items) if e]
            bad += bool(errors)
            print(ROW % (want["name"], setting, "FAILED" if errors else "applied",
                         "; ".join(errors) or "now %s" % (items[0]["desired"],)))
        else:
            bad += 1
            print(ROW % (want["name"], setting, "DIFFERS", "live %s, plan %s"
                         % (items[0]["current"], items[0]["desired"])))
    return bad


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    parser.add_argument("--apply", action="store_true", help="apply what differs")
    parser.add_argument("interfaces", nargs="*", help="only these interfaces")
    args = parser.parse_args(argv)
    with open(os.path.join(HERE, "etc", "host.json")) as handle:
        plan = json.load(handle)
    wanted = [w for w in plan["interfaces"]
              if not args.interfaces or w["name"] in args.interfaces]
    unknown = set(args.interfaces) - set(w["name"] for w in wanted)
    if unknown:
        print("not in this host's plan: %s" % ", ".join(sorted(unknown)), file=sys.stderr)
        return 2
    print(ROW % ("interface", "setting", "status", "detail"))
    bad = sum(check(want, args.apply) for want in wanted)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
