#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Documentation of the roce.fabric.generate_inventory action plugin (controller only)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: generate_inventory
short_description: Write a ready inventory directory for a lossless Clos of N GPUs
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Sizes a 1:1 Clos for O(gpus) GPU ports at O(radix) ports per switch over O(planes)
    independent planes (lossless-math.md §6; the same sizing as the C(roce.fabric.fabric_size)
    filter - two tiers up to radix^2/2 GPUs per plane, three tiers with pods and super-spines up
    to radix^3/4), names every switch and GPU host predictably, and writes an inventory
    directory that C(site.yml) plans all-clear as it is.
  - Writes C(hosts.yml) (groups C(roce_switches) > C(superspines), C(spines), C(leaves) >
    C(leaf_pairs) > one group per leaf pair; C(pods); C(planes); C(gpu_hosts)) with host names
    as Ansible host ranges such as C(p[0:7]-spine[00:03]-[00:31]), C(group_vars/all.yml) with
    C(roce_fabric) (rail-optimized, automatic addresses from 10.0.0.0/8 and ASNs) and
    C(roce_deploy=false), and C(group_vars) files for C(roce_model) and C(roce_platform) per
    switch tier. No host_vars - a handful of files however large the fabric, which Ansible loads
    quickly.
  - Names - hosts C(gpu<NNNNN>); with several planes every switch starts with C(p<plane>-);
    two tiers C(spine<NN>), C(leaf<NNN>); three tiers C(spine<pod>-<NN>), C(leaf<pod>-<NNN>),
    super-spines C(ss<NNN>); groups C(<pod>_pair<NNN>), C(pod<NN>), C(plane<N>).
  - Every input is checked first; a bad one fails with one line naming the field, the value and
    what is allowed (for example a radix larger than the model's ports at O(speed_gbps), or a
    model on a platform it does not run).
  - Leaves always come in whole pairs. A GPU count whose fabric the plan would refuse - an odd
    number of leaves, leaves that do not fill whole rail groups (a host's NICs of one plane span
    O(nics_per_host)/O(planes) leaves), or three tiers with an odd number of pods per plane
    (super-spine groups) - is refused, naming the rule and the nearest GPU counts below and above
    that build; nothing is rounded.
  - Refuses to write into a non-empty O(dest) unless it already holds exactly this inventory or
    O(force=true). Writes only files whose content changes, so a second run changes nothing.
  - The generated inventory is a starting point to edit (addresses, ASNs, cable lengths, the
    other C(roce_fabric) settings in docs/fabric-and-checks.md).
options:
  gpus:
    description:
      - GPUs in the cluster, one NIC port at O(speed_gbps) each. A multiple of O(nics_per_host)
        and of O(planes).
    type: int
    required: true
  radix:
    description:
      - Ports per switch used by the fabric (even; half down, half up on a leaf). At most the
        ports a tier's model has at O(speed_gbps) (128 for the 51.2T models at 400G).
    type: int
    default: 64
  planes:
    description:
      - Independent fabrics a host's NICs are spread over (NIC i in plane i mod planes).
        O(nics_per_host) must be a multiple of it.
    type: int
    default: 1
  tiers:
    description:
      - Tiers of the Clos - V(2) (leaves and spines, at most radix^2/2 GPUs per plane) or V(3)
        (pods of radix/2 leaves and spines under super-spines, at most radix^3/4). Unset, the
        fewest that reach O(gpus) (two up to radix^2/2 per plane, three above).
      - A count that cannot be built at these tiers is refused with the limit it breaks.
    type: int
    choices: [2, 3]
  nics_per_host:
    description: NICs (GPUs) per GPU host.
    type: int
    default: 8
  speed_gbps:
    description: Port speed of every host and fabric link, in Gb/s.
    type: int
    default: 400
    choices: [10, 25, 40, 50, 100, 200, 400, 800]
  models:
    description:
      - Switch model of every tier (a string), or a mapping of V(leaf), V(spine) and
        V(superspine) to a model (unnamed tiers keep the default).
      - Models are V(7060x6-64pe) (Arista, Tomahawk 5; SONiC and EOS), V(7060dx5-64s) (Arista,
        Tomahawk 4; SONiC and EOS), V(ds5000) (Celestica, Tomahawk 5; SONiC), V(sn5600) (NVIDIA,
        Spectrum-4; SONiC), V(sn4700) (NVIDIA, Spectrum-3; SONiC).
    type: raw
    default: 7060x6-64pe
  platforms:
    description:
      - Network OS per tier. V(mixed) runs SONiC on the top tier (spines of two tiers,
        super-spines of three) and EOS below it, whose uplinks carry same-rail traffic and where
        EOS renders dynamic load balancing; V(sonic) or V(eos) puts one platform everywhere
        (SONiC renders no adaptive routing, so SONiC leaves draw an ECMP-efficiency WARN).
      - Or a mapping of V(leaf), V(spine) and V(superspine) to V(sonic) or V(eos) (unnamed
        tiers as V(mixed)).
    type: raw
    default: mixed
  name:
    description: Fabric name (C(roce_fabric.name)); default C(clos<gpus>).
    type: str
  dest:
    description: Inventory directory to write (created if missing).
    type: path
    required: true
  force:
    description:
      - Overwrite the generated files of a non-empty O(dest), and remove C(group_vars) files
        an earlier run generated that this one does not (files it did not generate are left
        alone).
    type: bool
    default: false
attributes:
  check_mode:
    support: full
    description: Validates the inputs and reports the files that would change; writes nothing.
  diff_mode:
    support: none
    description: The changed files are listed in RV(changed_files), without their lines.
  platform:
    support: full
    platforms: posix
    description: Runs on the controller only; no device is contacted.
notes:
  - The playbook C(roce.fabric.generate_inventory) (C(playbooks/generate_inventory.yml))
    runs this module from C(-e) variables.
seealso:
  - module: roce.fabric.plan
"""

EXAMPLES = r"""
- name: An 8,192-GPU inventory on 8 planes of radix-64 switches
  roce.fabric.generate_inventory:
    gpus: 8192
    radix: 64
    planes: 8
    dest: inventories/cluster-8k

- name: NVIDIA Spectrum-4 spines on SONiC, Arista leaves on EOS, 128 ports per switch
  roce.fabric.generate_inventory:
    gpus: 32768
    radix: 128
    models: {leaf: 7060x6-64pe, spine: sn5600}
    platforms: {leaf: eos, spine: sonic}
    name: cluster-32k
    dest: /srv/inventories/cluster-32k
    force: true
"""

RETURN = r"""
dest:
  description: Absolute path of the inventory directory.
  returned: success
  type: str
files:
  description: Every file of the inventory, relative to RV(dest).
  returned: success
  type: list
  elements: str
  sample: [group_vars/all.yml, group_vars/leaves.yml, group_vars/roce_switches.yml,
           group_vars/spines.yml, hosts.yml]
changed_files:
  description: Files written (in check mode, that would be written), relative to RV(dest).
  returned: success
  type: list
  elements: str
removed_files:
  description: Generated C(group_vars) files of an earlier run removed (O(force) only).
  returned: success
  type: list
  elements: str
fabric:
  description:
    - The generated fabric - V(gpus), V(radix), V(planes), V(tiers), V(hosts), V(switches),
      V(leaves), V(spines), V(superspines), V(leaf_pairs), V(pods), V(models) and
      V(platforms) per tier, V(name).
  returned: success
  type: dict
  sample: {gpus: 1024, radix: 64, planes: 1, tiers: 2, hosts: 128, switches: 48, leaves: 32,
           spines: 16, superspines: 0, leaf_pairs: 16, pods: 0, name: clos1024,
           models: {leaf: 7060x6-64pe, spine: 7060x6-64pe},
           platforms: {leaf: eos, spine: sonic}}
"""
