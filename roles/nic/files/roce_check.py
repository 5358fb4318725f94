"""roce-check: this host's live NIC state against its roce.fabric plan, setting by setting.

Reads the plan the host role installed (<tools>/etc/host.json) and the same decision code the
roce.fabric.nic module uses; prints one line per setting: ok, DIFFERS (with live and planned
values) or unsupported (with the reason). Exit 0 when nothing differs, 1 otherwise.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "lib"))

from ansible_collections.roce.fabric.plugins.module_utils import nic_host  # noqa: E402

SETTINGS = ("mtu", "dscp_prio", "global_pause", "channels", "address", "policy_rule",
            "policy_route")


def run(argv):
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    except OSError as exc:
        return 127, "", str(exc)
    return proc.returncode, proc.stdout, proc.stderr


def main():
    with open(os.path.join(HERE, "etc", "host.json")) as handle:
        plan = json.load(handle)
    differs = 0
    print("%-10s %-14s %-12s %s" % ("interface", "setting", "status", "detail"))
    for want in plan["interfaces"]:
        have = nic_host.gather(want["name"], run, nic_host.read_file, nic_host.list_dir)
        if have is None:
            print("%-10s %-14s %-12s %s" % (want["name"], "present", "DIFFERS",
                                            "interface missing on this host"))
            differs += 1
            continue
        todo = dict((item["setting"], item) for item in nic_host.plan_interface(want, have, run))
        for setting in SETTINGS:
            item = todo.get(setting)
            if item is None:
                print("%-10s %-14s %-12s" % (want["name"], setting, "ok"))
            elif item["unsupported"]:
                print("%-10s %-14s %-12s %s" % (want["name"], setting, "unsupported",
                                                item["unsupported"]))
            else:
                differs += 1
                print("%-10s %-14s %-12s live %s, plan %s" % (want["name"], setting, "DIFFERS",
                                                              item["current"], item["desired"]))
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
