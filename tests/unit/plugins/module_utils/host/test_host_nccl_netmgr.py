"""NCCL for real jobs (env file and nccl.conf agree; multi-plane and adaptive-routing fabrics)
and routing in the host's own network manager."""
import configparser
import os

from ansible_collections.roce.fabric.plugins.module_utils import pipeline as plan
from ansible_collections.roce.fabric.plugins.module_utils.host import netmgr, nccl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))


def _values(text):
    return dict(line.split("=", 1) for line in text.splitlines()
                if line and not line.startswith("#"))


def _host(inventory_data, inventory):
    result = plan.build_plan(*inventory_data(os.path.join(ROOT, "inventories", inventory,
                                                          "hosts.yml")))
    return result, next(d for d in result["devices"].values() if d["kind"] == "host")


def test_multi_plane_and_adaptive_routing_fabric(inventory_data):
    result, host = _host(inventory_data, "multi-pod")
    assert result["summary"]["planes"] == 2
    # every leaf and spine of multi-pod is EOS with DLB rendered
    assert all(d["ecmp"]["rendered"]["adaptive_routing"] for d in result["devices"].values()
               if d.get("role") in ("leaf", "spine"))
    conf, env = nccl.conf_text(host), nccl.env_text(host)
    assert _values(conf)["NCCL_CROSS_NIC"] == "0"
    assert _values(conf)["NCCL_IB_ADAPTIVE_ROUTING"] == "1"
    assert _values(conf) == _values(env)          # the file and the env file agree


def test_single_plane_fabric_without_adaptive_routing_everywhere(example):
    result = plan.build_plan(*example)
    host = result["devices"]["gpu1"]
    # the example's SONiC leaves render no adaptive routing (no ARS in upstream SONiC)
    values = _values(nccl.conf_text(host))
    assert "NCCL_CROSS_NIC" not in values and "NCCL_IB_ADAPTIVE_ROUTING" not in values
    assert values["NCCL_IB_TC"] == "106"
    assert "--env-file" in nccl.env_text(host)


NIC = {"name": "rdma0", "address": "198.18.64.1/31", "gateway": "198.18.64.0",
       "route_table": 100, "mtu_bytes": 9000}


def test_networkd_keeps_the_rule_and_the_route():
    files = netmgr.files("networkd", NIC)
    unit = configparser.ConfigParser(strict=False)
    # 09-: systemd.network(5) uses the first matching file of all directories by name, and
    # netplan's /run/systemd/network/10-netplan-*.network would shadow a 60-... file
    unit.read_string(files["/etc/systemd/network/09-roce-rdma0.network"])
    assert unit["Match"]["Name"] == "rdma0" and unit["Link"]["MTUBytes"] == "9000"
    assert unit["Network"]["Address"] == "198.18.64.1/31"
    assert dict(unit["RoutingPolicyRule"]) == {"from": "198.18.64.1/32", "table": "100",
                                               "priority": "1100"}
    assert dict(unit["Route"]) == {"gateway": "198.18.64.0", "table": "100"}
    # systemd PR #19287: networkd drops foreign rules unless told not to
    assert "ManageForeignRoutingPolicyRules=no" in \
        files["/etc/systemd/networkd.conf.d/60-roce-fabric.conf"]
    assert netmgr.reload_commands("networkd", ["rdma0"]) == [
        ["networkctl", "reload"], ["networkctl", "reconfigure", "rdma0"]]


NETPLAN = {"/run/systemd/network": ["10-netplan-eno1.network", "10-netplan-rail0.network"],
           "/run/systemd/network/10-netplan-eno1.network": "[Match]\nName=eno1\n",
           "/run/systemd/network/10-netplan-rail0.network":
               "[Match]\nMACAddress=0C:42:A1:00:00:01\n\n[Network]\nDHCP=no\n"}


def test_networkd_drop_in_where_netplan_already_matches_the_nic():
    def read(path):
        value = NETPLAN.get(path)
        return value if isinstance(value, str) else None

    def listdir(path):
        value = NETPLAN.get(path)
        return value if isinstance(value, list) else None
    # netplan matched rdma0 by MAC (match: macaddress): its file wins over any later one, so
    # ours becomes a drop-in to it, without a [Match] of its own
    found = netmgr.netplan_file("rdma0", "0c:42:a1:00:00:01", read, listdir)
    assert found == "10-netplan-rail0.network"
    files = netmgr.files("networkd", NIC, found)
    text = files["/etc/systemd/network/10-netplan-rail0.network.d/60-roce-rdma0.conf"]
    assert "[Match]" not in text and "Table=100" in text
    assert netmgr.netplan_file("rdma1", "0c:42:a1:00:00:02", read, listdir) is None


def test_networkmanager_keyfile():
    text = netmgr.files("networkmanager", NIC)[
        "/etc/NetworkManager/system-connections/roce-rdma0.nmconnection"]
    key = configparser.ConfigParser(strict=False, interpolation=None)
    key.read_string(text)
    assert key["connection"]["interface-name"] == "rdma0"
    assert key["ipv4"]["address1"] == "198.18.64.1/31"
    assert key["ipv4"]["routing-rule1"] == "priority 1100 from 198.18.64.1/32 table 100"
    assert key["ipv4"]["route1_options"] == "table=100"
    assert key["ipv4"]["never-default"] == "true"


def test_ifupdown_and_none():
    text = netmgr.files("ifupdown", NIC)["/etc/network/interfaces.d/roce-rdma0"]
    assert "iface rdma0 inet static" in text and "post-up ip rule add from 198.18.64.1 table " \
        "100 priority 1100" in text
    assert netmgr.files("none", NIC) == {}


def test_detection_by_running_daemon_not_by_leftover_directories():
    def exists(path):
        return path in ("/run/systemd/netif/links", "/run/NetworkManager")
    assert netmgr.detect(exists, lambda name: False) == "none"
    assert netmgr.detect(exists, lambda name: name == "NetworkManager") == "networkmanager"
    assert netmgr.detect(exists, lambda name: name == "systemd-networkd") == "networkd"
    assert netmgr.detect(lambda p: p in ("/etc/network/interfaces", "/sbin/ifup"),
                         lambda name: False) == "ifupdown"
