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
    assert conf.contains("^NCCL_IB_TC=106$")
    assert conf.contains("^NCCL_IB_QPS_PER_CONNECTION=4$")
    # veth NICs have no RDMA device: NCCL_IB_HCA and the GID index stay unset, with the reason.
    assert not conf.contains("^NCCL_IB_HCA=") and not conf.contains("^NCCL_IB_GID_INDEX=")
    assert conf.contains("# NCCL_IB_HCA not set: no RDMA device behind rdma0")


def _mac(host, name):
    return host.file("/sys/class/net/%s/address" % name).content_string.strip().lower()


def _unit_command(host, name):
    """What udev starts for the NIC: roce-nic@<its MAC>.service, whose ExecStart names %I."""
    unit = host.file("/etc/systemd/system/roce-nic@.service").content_string
    command = [ln.split("=", 1)[1] for ln in unit.splitlines() if ln.startswith("ExecStart=")][0]
    return command.replace("%I", _mac(host, name))


def test_reapply_unit_and_udev_rule_follow_the_mac(host):
    unit = host.file("/etc/systemd/system/roce-nic@.service")
    assert unit.contains("^ExecStart=/etc/roce-fabric/tools/bin/roce-check --apply --nic %I$")
    assert not unit.contains("BindsTo=")           # a unit bound to a name misses a renamed NIC
    assert unit.contains("^After=.*rdma-hw.target")
    # the per-name units of earlier versions are gone
    assert not host.file("/etc/systemd/system/roce-nic-rdma3.service").exists
    assert not host.file("/etc/systemd/system/multi-user.target.wants/"
                         "roce-nic-rdma3.service").exists
    # The lab keeps the rule in a per-namespace directory (nic_udev_rules_dir): the NIC by MAC.
    rules = host.file("/etc/roce-fabric/rules.d/90-roce-nic.rules")
    mac = _mac(host, "rdma7")
    assert rules.contains('ATTR{address}=="%s".*roce-nic@%s.service' % (mac, mac))
    assert not rules.contains('SUBSYSTEM=="net", KERNEL=="rdma7"')
    assert rules.contains('SUBSYSTEM=="infiniband"')


def test_a_renamed_nic_is_configured_by_its_mac(host):
    """A NIC renamed across a reboot: the unit's command finds it by its MAC."""
    command = _unit_command(host, "rdma5")
    host.run_expect([0], "ip link set rdma5 down && ip link set rdma5 name rfren5 && "
                    "ip link set dev rfren5 mtu 1500 && ip link set rfren5 up")
    try:
        result = host.run(command)
        assert result.rc == 0, result.stdout + result.stderr
        assert host.file("/sys/class/net/rfren5/mtu").content_string.strip() == "9000"
    finally:
        # renamed back; a link taken down loses its routes, which the command puts back
        host.run("ip link set rfren5 down && ip link set rfren5 name rdma5 && "
                 "ip link set rdma5 up")
        host.run(command)
    assert host.run("/etc/roce-fabric/tools/bin/roce-check rdma5").rc == 0


def test_an_interface_created_again_gets_everything_back(host):
    """What a driver reload or firmware reset does to a NIC: the interface goes and comes back
    with nothing set. The unit's command (what the udev rule starts) re-applies all of it."""
    mac = _mac(host, "rdma4")
    command = _unit_command(host, "rdma4")
    before = (host.check_output("ip -4 -br addr show dev rdma4"),
              host.check_output("ip rule show | grep 'lookup 104'"),
              host.check_output("ip route show table 104"))
    host.run_expect([0], "ip link del rdma4")
    # the same NIC again: a driver reload keeps the hardware MAC
    host.run_expect([0], "ip link add rdma4 address %s numtxqueues 4 numrxqueues 4 type veth "
                    "peer name rdma4p numtxqueues 4 numrxqueues 4" % mac)
    host.run_expect([0], "ip link set rdma4 up && ip link set rdma4p up")
    assert host.file("/sys/class/net/rdma4/mtu").content_string.strip() == "1500"
    result = host.run(command)
    assert result.rc == 0, result.stdout + result.stderr
    assert host.file("/sys/class/net/rdma4/mtu").content_string.strip() == "9000"
    after = (host.check_output("ip -4 -br addr show dev rdma4"),
             host.check_output("ip rule show | grep 'lookup 104'"),
             host.check_output("ip route show table 104"))
    assert after == before
    assert host.run("/etc/roce-fabric/tools/bin/roce-check rdma4").rc == 0


def test_nccl_env_file_for_containers(host):
    env = host.file("/etc/roce-fabric/nccl.env")
    assert env.contains("^NCCL_IB_TC=106$") and env.contains("--env-file")
    conf = host.file("/etc/roce-fabric/nccl.conf")
    keys = [ln for ln in env.content_string.splitlines() if ln and not ln.startswith("#")]
    assert keys == [ln for ln in conf.content_string.splitlines()
                    if ln and not ln.startswith("#")]


def test_the_units_command_restores_drifted_settings(host):
    command = _unit_command(host, "rdma2")
    host.run("ip link set dev rdma2 mtu 1500")
    host.run("ip route flush table 102")
    result = host.run(command)
    assert result.rc == 0, result.stdout + result.stderr
    assert host.file("/sys/class/net/rdma2/mtu").content_string.strip() == "9000"
    assert host.check_output("ip route show table 102").startswith("default via ")
    assert any(ln.split()[:3] == ["rdma2", "mtu", "applied"] for ln in result.stdout.splitlines())


def test_irqbalance_is_kept_off_the_nic_irqs(host):
    dropin = host.file("/etc/systemd/system/irqbalance.service.d/roce-fabric.conf")
    assert dropin.contains("--policyscript=/etc/roce-fabric/tools/bin/irqbalance-policy")
    script = "/etc/roce-fabric/tools/bin/irqbalance-policy"
    listing = "/tmp/rf-banned-pci-%s" % host.backend.get_hostname()   # /tmp is shared by the lab
    host.run("echo 0000:17:00.0 > %s" % listing)
    try:
        banned = host.run("ROCE_FABRIC_BANNED_PCI=%s %s "
                          "/sys/devices/pci0000:16/0000:16:02.0/0000:17:00.0 123" % (listing, script))
        other = host.run("ROCE_FABRIC_BANNED_PCI=%s %s "
                         "/sys/devices/pci0000:00/0000:00:1f.6 40" % (listing, script))
    finally:
        host.run("rm -f %s" % listing)
    assert (banned.rc, banned.stdout.strip()) == (0, "ban=true")
    assert (other.rc, other.stdout.strip()) == (0, "")


def test_roce_check_reports_live_state_against_the_plan(host):
    result = host.run("/etc/roce-fabric/tools/bin/roce-check")
    assert result.rc == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(ln.split()[:3] == ["rdma5", "mtu", "ok"] for ln in lines)
    assert any(ln.split()[:3] == ["rdma5", "policy_route", "ok"] for ln in lines)
    for setting in ("dscp_prio", "pfc", "global_pause", "cnp", "ecn", "roce_tos", "irq_affinity"):
        assert any(ln.split()[:3] == ["rdma5", setting, "unsupported"] for ln in lines), setting


def test_roce_check_sees_a_drifted_setting(host):
    host.run("ip link set dev rdma6 mtu 1500")
    try:
        result = host.run("/etc/roce-fabric/tools/bin/roce-check")
        assert result.rc == 1
        assert any(ln.split()[:3] == ["rdma6", "mtu", "DIFFERS"] for ln in result.stdout.splitlines())
    finally:
        host.run("ip link set dev rdma6 mtu 9000")
