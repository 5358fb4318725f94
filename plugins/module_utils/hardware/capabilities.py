# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What each platform's rendered config really carries, for the settings a check credits.

The plan asks for a hash seed per tier, hash fields and adaptive routing; a platform may express
all, some or none of them. ``sonic_ecmp()`` and ``eos_ecmp()`` (each platform's ``ecmp`` in
platforms.py) return what the renderer will write (the renderers read these values, so the two
cannot drift) and a note for every requested setting it cannot express; the checks judge the
fabric on the rendered values only. ``seed`` is None and ``default_hash`` True where the platform
renders neither and its own defaults have no source (EOS).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, FrozenSet, Optional

from ansible_collections.roce.fabric.plugins.module_utils.hardware import cumulus

# SONiC DEVICE_METADATA.type by tier: GPU top-of-rack leaves are T0 (ToRRouter), the spines
# above them T1 (LeafRouter), super-spines T2 (SpineRouter); the type picks buffers_config.j2's
# t0/t1 templates (sonic.md §1.2).
SONIC_ROUTER_TYPE = {"leaf": "ToRRouter", "spine": "LeafRouter", "superspine": "SpineRouter"}
# SONiC has no CONFIG_DB hash seed: dockers/docker-orchagent/switch.json.j2 derives APP_DB
# ecmp_hash_seed from DEVICE_METADATA.type (ToRRouter 0, LeafRouter 10, SpineRouter 25;
# upper spine types fall into the SpineRouter branch) plus the namespace id, 0 on one ASIC
# (sonic.md §2; sonic-buildimage switch.json.j2).
SONIC_SEED_BY_TYPE = {"ToRRouter": 0, "LeafRouter": 10, "SpineRouter": 25}
SONIC_HASH_FIELDS = {"src_ip": "SRC_IP", "dst_ip": "DST_IP", "ip_protocol": "IP_PROTOCOL",
                     "l4_src_port": "L4_SRC_PORT", "l4_dst_port": "L4_DST_PORT",
                     "in_port": "IN_PORT"}
# EOS: no `ip load-sharing` line is rendered. The `ip load-sharing trident fields ip ...` keywords
# and the `ip load-sharing trident <seed>` range (0-5) had no primary source: neither Arista's
# EOS User Manual nor a TOI was readable for them (the keywords appear only as a third party's
# reading of EOS's hidden default line, in the annet tool's implicit config), and Arista's AVD
# renders neither (aristanetworks/avd @3cac535c has no `load-sharing`). An EOS switch hashes with its
# own default fields and seed, which no source here shows: the plan says the requested ones are
# not rendered, and the checks credit neither (hash-entropy, hash-polarization).
EOS_DEFAULT_SEED = "EOS default seed (no `ip load-sharing` line rendered)"
# EOS on these Broadcom XGS chips takes `platform trident` commands: the MMU queue profile with
# per-PG reservation and alpha and `platform trident mmu headroom-pool limit cells`
# (eos-and-avd.md §2, "platform trident mmu queue profile").
EOS_TRIDENT_ASICS = ("tomahawk3", "tomahawk4", "tomahawk5", "trident4")


def sonic_ecmp(family: Optional[str], role: str, want: Dict[str, Any],
               fabric_speeds: FrozenSet[int]) -> Dict[str, Any]:
    """Rendered ECMP settings of one SONiC switch: seed (and where it comes from), hash fields,
    adaptive routing, and ``not_rendered`` notes for requested settings SONiC lacks."""
    notes = []
    requested_seed = want["seeds"][role]
    router_type = SONIC_ROUTER_TYPE[role]
    seed = SONIC_SEED_BY_TYPE[router_type]
    source = "SONiC switch.json.j2 seed of DEVICE_METADATA type %s" % router_type
    if requested_seed != seed:
        notes.append("hash seed %d: SONiC sets no seed from CONFIG_DB; it uses %d (type %s)"
                     % (requested_seed, seed, router_type))
    fields = [f for f in want["hash_fields"] if f in SONIC_HASH_FIELDS]
    if want["adaptive_routing"]:
        notes.append("adaptive routing: upstream SONiC has no ARS orchestration (HLD "
                     "sonic-net/SONiC#1958, code PRs open); ECMP hashing only")
    return {"seed": seed, "seed_source": source, "hash_fields": fields, "default_hash": False,
            "adaptive_routing": False, "not_rendered": notes}


def eos_ecmp(family: Optional[str], role: str, want: Dict[str, Any],
             fabric_speeds: FrozenSet[int]) -> Dict[str, Any]:
    """Rendered ECMP settings of one EOS switch (as sonic_ecmp): no hash seed and no hash fields
    (the switch keeps its own defaults, unknown here: ``seed`` None, ``default_hash`` True), DLB
    on Strata."""
    notes = ["hash seed %d: not rendered (no primary source for `ip load-sharing trident "
             "<seed>`); the switch keeps its default seed" % want["seeds"][role]]
    if want["hash_fields"]:
        notes.append("hash fields %s: not rendered (no primary source for `ip load-sharing "
                     "trident fields`); the switch hashes on its default fields"
                     % ", ".join(want["hash_fields"]))
    return {"seed": None, "seed_source": EOS_DEFAULT_SEED, "hash_fields": [],
            "default_hash": True,
            "adaptive_routing": bool(want["adaptive_routing"]) and family == "strata",
            "not_rendered": notes}


# Cumulus Linux: `nv set system forwarding ecmp-hash <field> on|off` and `hash-seed`; adaptive
# routing on Spectrum-4 at 200G and 400G only (hardware/cumulus.py, with their sources).
def cumulus_ecmp(family: Optional[str], role: str, want: Dict[str, Any],
                 fabric_speeds: FrozenSet[int]) -> Dict[str, Any]:
    """Rendered ECMP settings of one Cumulus switch (as sonic_ecmp): the seed and the hash
    fields as asked; adaptive routing on Spectrum where every fabric port runs at a speed it is
    supported at (``fabric_speeds``: the switch's fabric ports, Gb/s)."""
    fields = [f for f in want["hash_fields"] if f in cumulus.ECMP_HASH_FIELDS]
    notes = ["hash field %s: NVUE has no ecmp-hash key for it" % f
             for f in want["hash_fields"] if f not in cumulus.ECMP_HASH_FIELDS]
    unsupported = sorted(fabric_speeds - frozenset(cumulus.AR_SPEEDS_GBPS))
    ar = bool(want["adaptive_routing"]) and family == "spectrum"
    if ar and unsupported:
        ar = False
        notes.append("adaptive routing: Cumulus Linux runs it at %s only, not on this switch's "
                     "%s fabric ports (%s); ECMP hashing only"
                     % ("G and ".join(str(s) for s in cumulus.AR_SPEEDS_GBPS) + "G",
                        "G, ".join(str(s) for s in unsupported) + "G", cumulus.AR_SOURCE))
    return {"seed": want["seeds"][role], "seed_source": "nv set system forwarding hash-seed",
            "hash_fields": fields, "default_hash": False, "adaptive_routing": ar,
            "not_rendered": notes}
