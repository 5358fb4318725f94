"""What the buffer manager of a dynamic-model Spectrum switch runs for a lossless PG: SONiC's
buffer_headroom_mellanox.lua (lossless/headroom.sonic_nvidia_headroom) at the switch's ASIC
table and traffic pattern, as the callable render/sonic/buffermgrd.dynamic_profiles takes. Shared
by the buffermgrd and the pool-lua replays."""
from ansible_collections.roce.fabric.plugins.module_utils.hardware import catalog
from ansible_collections.roce.fabric.plugins.module_utils.lossless import headroom


def headroom_lua(dev):
    asic = catalog.asic_profile(dev["asic"])
    sonic = dev["buffer"]["sonic"]
    pattern = sonic["traffic_pattern"]

    def run(speed_mbps, cable_m, mtu, lanes):
        return headroom.sonic_nvidia_headroom(
            speed_mbps // 1000, cable_m, asic.value("sonic_asic_table"), port_mtu_bytes=mtu,
            lossless_mtu_bytes=pattern["lossless_mtu_bytes"],
            small_packet_pct=pattern["small_packet_pct"], lanes=lanes,
            revision=sonic["revision"])
    return run
