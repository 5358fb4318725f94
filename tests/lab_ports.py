"""Port maps of switches no vendor makes: the FRR routers of the labs and the small fabrics of the
property tests. Such a switch has the ports its inventory gives (``roce_port_map``), here the
ones the lab creates: SONiC Ethernet0, Ethernet8 ... (aliases etp1, etp2 ...), EOS Ethernet1/1,
Ethernet2/1 ..., each on 4 of its cage's 8 lanes. No real switch is described by them."""


def lab_port_map(platform, count, lanes=4):
    """``count`` ports of a lab switch on ``platform`` as roce_port_map entries."""
    out = []
    for i in range(count):
        entry = {"lanes": ",".join(str(i * 8 + k) for k in range(lanes)), "index": i + 1}
        if platform == "eos":      # EOS names a port by its cage; it has no alias
            entry["name"] = "Ethernet%d/1" % (i + 1)
        else:
            entry.update(name="Ethernet%d" % (i * 8), alias="etp%d" % (i + 1))
        out.append(entry)
    return out
