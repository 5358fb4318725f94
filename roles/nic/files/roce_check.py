"""roce-check: this host's live NIC state against its roce.fabric plan, setting by setting.

Reads the plan the nic role installed (<tools>/etc/host.json) and the same decision code the
roce.fabric.nic module uses; prints one line per setting: ok, DIFFERS (with live and planned
values) or unsupported (with the reason). Exit 0 when nothing differs, 1 otherwise.

``roce-check --apply [IF ...]`` also carries the changes out, in the driver stack's vendor order,
and reads every setting back: the nic role's boot-time units run it, so a reboot, driver reload
or firmware reset gets exactly the settings the module applied, and a setting that did not take
(or a required one the NIC cannot take) makes it exit 1 - a failed unit in systemctl --failed.
``--nic MAC`` (what the boot unit roce-nic@<MAC>.service passes) names one planned NIC by its
MAC address: the plan's interface with that MAC (host.json "macs") is applied to the netdev that
has it now, whatever it is called - a NIC renamed across a reboot is still configured. Every
planned interface is looked up that way when the plan knows its MAC.
With <tools>/etc/nccl.json (the host role) it also rewrites /etc/nccl.conf and the NCCL
environment file from the live RDMA device names.
"""
import argparse
import json
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "lib"))

from ansible_collections.roce.fabric.plugins.module_utils.host import (  # noqa: E402
    live, nccl, stacks)

SETTINGS = ("mtu", "fw_lldp_agent", "dcbx", "global_pause", "trust", "dscp_prio",
            "roce_port_prio", "ets", "pfc", "cnp", "ecn", "roce_tos", "traffic_class",
            "irq_affinity", "channels", "address", "policy_rule", "policy_route")
REQUIRED = ("mtu", "address", "policy_rule", "policy_route")
ROW = "%-10s %-14s %-12s %s"


def run(argv):
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    except OSError as exc:
        return live.MISSING, "", str(exc)
    return proc.returncode, proc.stdout, proc.stderr


def check(want, apply_changes, missing=None):
    """Print one interface's rows; return how many settings differ (after --apply: failed).
    Every change is tried in the stack's order whatever an earlier one did; a tool that is
    missing or prints something unexpected never stops the check."""
    have = live.gather(want["name"], run, live.read_file, live.list_dir)
    if have is None:
        print(ROW % (want["name"], "present", "DIFFERS", "interface missing on this host"))
        return 1
    if missing is not None:
        missing.update(have.get("missing_tools") or ())
    todo = live.plan_interface(want, have, run)
    by_setting = {}
    for item in todo:
        by_setting.setdefault(item["setting"], []).append(item)
    bad = sum(1 for i in todo if i["unsupported"] and i["setting"] in REQUIRED)
    errors, refused = {}, {}
    if apply_changes:
        errors = dict((k[1], v) for k, v in live.apply_all(todo, run).items())
        for item in live.read_back_items([want], run, live.read_file, live.list_dir):
            refused[item["setting"]] = live.describe(item, errors.get(item["setting"]))
    for setting in SETTINGS:
        items = by_setting.get(setting)
        if not items:
            print(ROW % (want["name"], setting, "ok", ""))
        elif items[0]["unsupported"]:
            print(ROW % (want["name"], setting, "unsupported", items[0]["unsupported"]))
        elif apply_changes:
            failed = setting in refused
            bad += failed
            print(ROW % (want["name"], setting, "FAILED" if failed else "applied",
                         refused[setting] if failed else "now %s" % (items[0]["desired"],)))
        else:
            bad += 1
            print(ROW % (want["name"], setting, "DIFFERS", "live %s, plan %s"
                         % (items[0]["current"], items[0]["desired"])))
    if apply_changes and None in refused:
        print(ROW % (want["name"], "present", "FAILED", refused[None]))
        bad += 1
    return bad


def check_safely(want, apply_changes, missing):
    """check(), with any error turned into a FAILED row: one NIC's surprise never hides the
    others' state, and roce-check never dies with a traceback on a tool's output."""
    try:
        return check(want, apply_changes, missing)
    except Exception as exc:  # noqa: BLE001 - report, count, carry on with the next NIC
        print(ROW % (want["name"], "check", "FAILED", "%s: %s" % (type(exc).__name__, exc)))
        return 1


def rewrite_nccl(path):
    """/etc/nccl.conf and the environment file from the live RDMA devices (names the kernel
    numbers can change across boots)."""
    with open(path) as handle:
        spec = json.load(handle)
    facts = dict((n["name"], live.gather(n["name"], run, live.read_file, live.list_dir) or {})
                 for n in spec["plan"]["nics"])
    host = {"default_route_interface": live.default_route_interface(run),
            "interfaces": live.list_dir("/sys/class/net") or []}
    for key, render in (("conf", nccl.conf_text), ("env", nccl.env_text)):
        text = render(spec["plan"], facts, host)
        target = spec[key]
        old = live.read_file(target)
        if old != text:
            with open(target + ".tmp", "w") as handle:
                handle.write(text)
            os.replace(target + ".tmp", target)
            print(ROW % ("nccl", key, "applied", target))


HEX = "0123456789abcdef"


def is_mac(text):
    """'0c:42:a1:00:00:01' (six hex pairs): a MAC address, not an interface name."""
    parts = text.split(":")
    return len(parts) == 6 and all(len(p) == 2 and all(c in HEX for c in p.lower())
                                   for p in parts)


def select(plan, names, nics):
    """The plan's interfaces to check: those named in ``names`` (planned names) or, for each MAC
    in ``nics``, the one the plan records with that MAC (all if neither is given), each under
    the name the netdev with its MAC has now. Returns (interfaces, errors)."""
    macs = dict((k, v.lower()) for k, v in (plan.get("macs") or {}).items() if v)
    by_mac = dict((mac, name) for name, mac in macs.items())
    chosen, errors = set(names), []
    for nic in nics:
        if is_mac(nic) and nic.lower() in by_mac:
            chosen.add(by_mac[nic.lower()])
        elif is_mac(nic):
            errors.append("no planned interface has MAC %s (plan MACs: %s)"
                          % (nic, ", ".join(sorted(by_mac)) or "none recorded"))
        else:
            chosen.add(nic)
    known = set(w["name"] for w in plan["interfaces"])
    if chosen - known:
        errors.append("not in this host's plan: %s" % ", ".join(sorted(chosen - known)))
    wanted = []
    for want in plan["interfaces"]:
        if chosen and want["name"] not in chosen:
            continue
        live_name = None
        if want["name"] in macs:
            live_name = live.interface_by_mac(macs[want["name"]], live.read_file, live.list_dir)
        wanted.append(dict(want, name=live_name or want["name"]))
    return wanted, errors


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    parser.add_argument("--apply", action="store_true", help="apply what differs")
    parser.add_argument("--plan", default=os.path.join(HERE, "etc", "host.json"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--nic", action="append", default=[],
                        help="a planned NIC by MAC address (or planned name)")
    parser.add_argument("interfaces", nargs="*", help="only these interfaces")
    args = parser.parse_args(argv)
    with open(args.plan) as handle:
        plan = json.load(handle)
    wanted, errors = select(plan, args.interfaces, args.nic)
    if errors:
        print("; ".join(errors), file=sys.stderr)
        return 2
    print(ROW % ("interface", "setting", "status", "detail"))
    missing = set()
    bad = sum(check_safely(want, args.apply, missing) for want in wanted)
    for tool in sorted(missing):
        print(stacks.missing_tool_line(platform.node(), tool), file=sys.stderr)
    nccl_spec = os.path.join(os.path.dirname(args.plan), "nccl.json")
    if args.apply and os.path.exists(nccl_spec):
        try:
            rewrite_nccl(nccl_spec)
        except (IOError, OSError, ValueError, KeyError) as exc:
            print(ROW % ("nccl", "files", "FAILED", exc))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
