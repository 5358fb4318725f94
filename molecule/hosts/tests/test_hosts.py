"""Verify over SSH (testinfra, ansible backend) what the nic and host roles applied."""
testinfra_hosts = ["ansible://gpu1", "ansible://gpu2", "ansible://gpu3"]

NICS = ["rdma%d" % i for i in range(8)]


def test_mtu_and_channels(host):
    for nic in NICS:
        assert host.file("/sys/class/net/%s/mtu" % nic).content_string.strip() == "9000"
        channels = host.check_output("ethtool -l %s" % nic).split("Current hardware settings:")[1]
        assert "RX:\t\t2" in channels and "TX:\t\t2" in channels   # min(4 queues, 2 CPUs)


def test_addresses_rules_and_routes(host):
    rules = host.check_output("ip rule")
    for rail, nic in enumerate(NICS):
        addr = host.check_output("ip -4 -o addr show dev %s" % nic)
        assert "/31" in addr
        src = addr.split()[3].split("/")[0]
        assert "from %s lookup %d" % (src, 100 + rail) in rules
        route = host.check_output("ip route show table %d" % (100 + rail))
        assert route.startswith("default via ") and "dev %s" % nic in route


def test_sysctls(host):
    assert host.sysctl("net.ipv4.conf.all.rp_filter") == 2
    assert host.sysctl("net.ipv4.conf.all.arp_ignore") == 2
    assert host.sysctl("net.ipv4.conf.all.arp_announce") == 2
    assert host.file("/etc/sysctl.d/90-roce-fabric.conf").contains("rp_filter")


def test_nccl_conf(host):
    conf = host.file("/etc/roce-fabric/nccl.conf")
    assert conf.contains("NCCL_IB_TC=106")
    assert conf.contains("NCCL_IB_HCA=rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7")


def test_reapply_units_and_udev_rule(host):
    unit = host.file("/etc/systemd/system/roce-nic-rdma3.service")
    assert unit.contains("ExecStart=/sbin/ip link set dev rdma3 mtu 9000")
    assert unit.contains("dscp-prio 26:3 48:6")
    assert unit.contains("prio-pfc all:off 3:on")
    # The lab keeps the rule in a per-namespace directory (nic_udev_rules_dir).
    assert host.file("/etc/roce-fabric/rules.d/90-roce-nic.rules").contains('KERNEL=="rdma7"')


def test_roce_check_reports_live_state_against_the_plan(host):
    result = host.run("/etc/roce-fabric/tools/bin/roce-check")
    assert result.rc == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(ln.split()[:3] == ["rdma5", "mtu", "ok"] for ln in lines)
    assert any(ln.split()[:3] == ["rdma5", "policy_route", "ok"] for ln in lines)
    assert any(ln.split()[:3] == ["rdma5", "dscp_prio", "unsupported"] for ln in lines)


def test_roce_check_sees_a_drifted_setting(host):
    host.run("ip link set dev rdma6 mtu 1500")
    try:
        result = host.run("/etc/roce-fabric/tools/bin/roce-check")
        assert result.rc == 1
        assert any(ln.split()[:3] == ["rdma6", "mtu", "DIFFERS"] for ln in result.stdout.splitlines())
    finally:
        host.run("ip link set dev rdma6 mtu 9000")
