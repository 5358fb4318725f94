# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What each platform's rendered config really carries, for the settings a check credits.

The plan asks for a hash seed per tier, hash fields and adaptive routing; a platform may express
all, some or none of them. ``sonic_ecmp()`` and ``eos_ecmp()`` (each platform's ``ecmp`` in
platforms.py) return what the renderer will write (the renderers read these values, so the two
cannot drift) and a note for every requested setting it cannot express; the checks judge the
fabric on the rendered values only.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, Optional

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
# EOS Strata: `ip load-sharing trident fields ip <fields>` (the keywords of EOS's implicit
# default line, annetutil/annet implicit.py) and `ip load-sharing trident <seed>`, seed 0-5,
# default 0 on every switch (EOS User Manual, IPv4 chapter, "ip load-sharing"). No keyword for
# the IP protocol is verified, so it is not rendered.
EOS_HASH_FIELDS = {"src_ip": "source-ip", "dst_ip": "destination-ip",
                   "l4_src_port": "source-port", "l4_dst_port": "destination-port",
                   "in_port": "ingress-interface"}
EOS_SEED_RANGE = (0, 5)
# EOS on these Broadcom XGS chips takes `platform trident` commands: the MMU queue profile with
# per-PG reservation and alpha, `platform trident mmu headroom-pool limit cells` and
# `ip load-sharing trident` (eos-and-avd.md §2, "platform trident mmu queue profile").
EOS_TRIDENT_ASICS = ("tomahawk3", "tomahawk4", "tomahawk5", "trident4")


def sonic_ecmp(family: Optional[str], role: str, want: Dict[str, Any]) -> Dict[str, Any]:
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
    return {"seed": seed, "seed_source": source, "hash_fields": fields,
            "adaptive_routing": False, "not_rendered": notes}


def eos_ecmp(family: Optional[str], role: str, want: Dict[str, Any]) -> Dict[str, Any]:
    """Rendered ECMP settings of one EOS switch (as sonic_ecmp): the requested seed, the hash
    fields EOS has a verified keyword for, DLB on Strata."""
    requested_seed = want["seeds"][role]
    fields = [f for f in want["hash_fields"] if f in EOS_HASH_FIELDS]
    notes = ["hash field %s: no verified EOS keyword, not rendered" % f
             for f in want["hash_fields"] if f not in EOS_HASH_FIELDS]
    return {"seed": requested_seed, "seed_source": "ip load-sharing trident %d" % requested_seed,
            "hash_fields": fields,
            "adaptive_routing": bool(want["adaptive_routing"]) and family == "strata",
            "not_rendered": notes}
