"""The rendered udev rule under the real rule engine: `udevadm test --action=add` on veths
(it runs the rules without a udev daemon; it does not run RUN programs, and systemd 252's
carries a rename out). The re-apply unit (roce-nic@<MAC or name>.service) must be wanted for a
planned NIC by its MAC whatever it is called, and by its final name where its MAC was not
known - one that kept its kernel name, and one an earlier rule renamed, whose kernel name is
still the old one - and for no other."""
import os
import shutil
import subprocess

import jinja2
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULES = "/etc/udev/rules.d"
LAB_ID = os.environ.get("ROCE_LAB_ID") or "200"
MAC = "02:00:5e:10:00:%02x" % (int(LAB_ID) % 256)

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("udevadm"),
    reason="needs root and udevadm (tools/setup-system.sh installs Debian's udev)")


def _sh(*argv):
    return subprocess.run(argv, capture_output=True, text=True, check=False)


def _wants(name):
    out = _sh("udevadm", "test", "--action=add", "/sys/class/net/" + name)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if line.startswith("SYSTEMD_WANTS=")]
    return lines[0].split("=", 1)[1].split() if lines else []


@pytest.fixture
def veths():
    kept, renamed, kernel, other = ("rfu%sk" % LAB_ID, "rfu%sr" % LAB_ID, "rfu%st" % LAB_ID,
                                    "rfu%so" % LAB_ID)
    template = os.path.join(ROOT, "roles", "nic", "templates", "90-roce-nic.rules.j2")
    with open(template) as handle:
        text = jinja2.Template(handle.read(), keep_trailing_newline=True).render(
            ansible_managed="test", nic_device={"nics": [{"name": kept}, {"name": renamed},
                                                         {"name": "rfu%sm" % LAB_ID}]},
            ansible_facts={"roce_nics": {"rfu%sm" % LAB_ID: {"mac_address": MAC.upper()}}})
    ours = os.path.join(RULES, "90-roce-nic-test-%s.rules" % LAB_ID)
    rename = os.path.join(RULES, "70-roce-rename-test-%s.rules" % LAB_ID)
    try:
        os.makedirs(RULES, exist_ok=True)
        with open(ours, "w") as handle:
            handle.write(text)
        with open(rename, "w") as handle:       # a site's own rename, as a .link file would
            handle.write('ACTION=="add", SUBSYSTEM=="net", KERNEL=="%s", NAME="%s"\n'
                         % (kernel, renamed))
        for a, b in ((kept, kept + "p"), (kernel, kernel + "p"), (other, other + "p")):
            assert _sh("ip", "link", "add", a, "type", "veth", "peer", "name", b).returncode == 0
        # the planned NIC rfu...m under another name (systemd 239, net.ifnames=0): its MAC
        assert _sh("ip", "link", "set", other + "p", "address", MAC).returncode == 0
        yield kept, renamed, kernel, other
    finally:
        # udevadm test of systemd 252 carries the rename out: the veth may be called either
        for name in (kept, kernel, renamed, other):
            _sh("ip", "link", "del", name)
        for path in (ours, rename):
            if os.path.exists(path):
                os.remove(path)


def test_the_unit_is_wanted_for_the_final_name_only(veths):
    kept, renamed, kernel, other = veths
    assert "roce-nic@%s.service" % kept in _wants(kept)
    # kernel name rfu...t, renamed by the earlier rule: matched under its final name
    assert "roce-nic@%s.service" % renamed in _wants(kernel)
    assert not [w for w in _wants(other) if w.startswith("roce-nic@")]
    # matched by its MAC address whatever it is called; the instance is the MAC, which
    # roce-check --nic resolves to the netdev's current name
    assert "roce-nic@%s.service" % MAC in _wants(other + "p")
