"""What the FRR namespace labs of the integration tests share (molecule/fabric/lab.py runs
them): a command in a lab namespace, the lab module under the test's own names for the
duration, a switch's rendered netdevs applied as switch_deploy does, a host's NICs addressed."""
import contextlib
import importlib.util
import json
import os
import subprocess
import time

from ansible_collections.roce.fabric.plugins.module_utils.deploy import netdev
from ansible_collections.roce.fabric.plugins.module_utils.render import outputs
from ansible_collections.roce.fabric.plugins.module_utils.render.sonic import config_db

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST_ROUTE = "198.18.64.0/18"      # the labs' host subnets, reached over a host's first NIC


def ns_run(prefix, name, *argv, check=True):
    """``argv`` inside namespace ``prefix + name``; its CompletedProcess (text)."""
    return subprocess.run(["ip", "netns", "exec", prefix + name] + list(argv), check=check,
                          capture_output=True, text=True)


@contextlib.contextmanager
def lab(env, module_name):
    """molecule/fabric/lab.py loaded with ``env`` (the test's namespace prefix, bridge,
    subnet and directory) set; on exit the lab is torn down and the environment restored."""
    old = dict((k, os.environ.get(k)) for k in env)
    os.environ.update(env)
    try:
        spec = importlib.util.spec_from_file_location(module_name, os.path.join(
            ROOT, "molecule", "fabric", "lab.py"))
        labmod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(labmod)
        try:
            yield labmod
        finally:
            labmod.down()
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def apply_netdevs(prefix, name, config_db):
    """The netdevs of ``config_db`` on switch ``name``, as deploy/netdev.py decides them."""
    want = netdev.intended(config_db, loopback_device="lo")
    have = netdev.live(ns_run(prefix, name, "ip", "-j", "link").stdout,
                       ns_run(prefix, name, "ip", "-j", "addr").stdout)
    changes, missing = netdev.decide(want, have)
    assert not missing, (name, missing)
    for change in changes:
        ns_run(prefix, name, *change["argv"])


def address_nics(prefix, name, dev):
    """Host intent ``dev``'s NICs up with their MTU and /31, the host subnets via the first."""
    for nic in dev["nics"]:
        ns_run(prefix, name, "ip", "link", "set", nic["name"], "mtu", str(nic["mtu_bytes"]),
               "up")
        ns_run(prefix, name, "ip", "addr", "add", nic["address"], "dev", nic["name"])
    first = dev["nics"][0]
    ns_run(prefix, name, "ip", "route", "add", HOST_ROUTE, "via", first["gateway"], "dev",
           first["name"])


def lab_env(tag, directory, **extra):
    """(namespace prefix, environment) of a lab whose names, bridge, subnet and directory carry
    ROCE_LAB_ID (`make` derives it from the checkout's path), so two checkouts' labs never
    meet; ``extra``: more ROCE_FABRIC_LAB_* settings."""
    lab_id = os.environ.get("ROCE_LAB_ID") or "200"
    ns = "%s%s-" % (tag, lab_id)
    env = {"ROCE_FABRIC_LAB_NS": ns, "ROCE_FABRIC_LAB_BRIDGE": "%sbr%s" % (tag, lab_id),
           "ROCE_FABRIC_LAB_MGMT": "198.19." + lab_id,
           "ROCE_FABRIC_LAB_LINK": "%sm%s-" % (tag, lab_id),
           "ROCE_FABRIC_LAB_DIR": "/tmp/roce-fabric-%s-lab-%s" % (directory, lab_id)}
    env.update(extra)
    return ns, env


@contextlib.contextmanager
def rendered_lab(prefix, env, module_name, plan, wiring):
    """The lab of ``plan`` up (``wiring``: a path for its devices.json), every switch on its
    rendered netdevs and bgpd.conf (loaded with frr-reload.py, as switch_deploy does), every
    host's NICs addressed; yields the lab module; torn down on exit."""
    with open(wiring, "w") as handle:
        json.dump(plan["devices"], handle)
    with lab(env, module_name) as labmod:
        labmod.up(str(wiring))
        for name, dev in plan["devices"].items():
            if dev["kind"] != "switch":
                address_nics(prefix, name, dev)
                continue
            apply_netdevs(prefix, name, config_db.config_db(dev))
            d = os.path.join(labmod.LAB, prefix + name, "frr")
            conf = os.path.join(d, "bgpd.roce.conf")
            with open(conf, "w") as handle:
                handle.write(outputs.render_switch(dev, ("configs",))["configs/%s.bgpd.conf"
                                                                      % name])
            ns_run(prefix, name, "/usr/lib/frr/frr-reload.py", "--daemon", "bgpd",
                   "--vty_socket", d, "--bindir", "/usr/bin", "--confdir", d, "--rundir", d,
                   "--reload", conf)
        yield labmod


def vty_json(prefix, labmod, name, command):
    """A vtysh ``command`` (one that prints JSON) on switch ``name``'s FRR, parsed."""
    d = os.path.join(labmod.LAB, prefix + name, "frr")
    return json.loads(ns_run(prefix, name, "vtysh", "--vty_socket", d, "-c", command).stdout)


def wait(predicate, timeout_s, step_s=1.0):
    """Whether ``predicate()`` turned true within ``timeout_s``, asked every ``step_s``."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(step_s)
    return False
