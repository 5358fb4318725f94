#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Deploy the plan's part of a Cumulus Linux switch's NVUE tree through the NVUE REST API."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: nvue_config
short_description: Deploy a rendered startup.yaml to Cumulus Linux through NVUE revisions with automatic rollback
version_added: 0.1.0
author:
  - roce.fabric contributors (@roce-fabric)
description:
  - Talks to the NVUE REST API of a Cumulus Linux 5.14 switch (C(https://<host>:8765/nvue_v1),
    HTTP basic authentication); runs on the controller (C(delegate_to) C(localhost)).
  - O(state=present) reads the applied config, computes the patch that makes the plan's part of
    it what O(config) (the rendered C(configs/<switch>.yaml)) says - the plan's leaves set, what
    the plan owns and no longer wants removed (O(previous), the deployed-state record, says what
    it owned before), everything else kept - creates a revision, patches it and shows the
    revision's diff as NVUE commands. Check mode ends there (the pending revision is left for
    NVUE to prune). Otherwise the revision is applied with a confirm timeout (O(confirm_s)) -
    unless O(state=confirmed) follows in time, NVUE rolls it back by itself.
  - Objects the plan changes that the switch uses for something the plan does not own are
    refused before any revision exists (a bond with a plan port, a plan port in a VRF or bridge,
    a foreign reference to a plan policy, a source interface or address the deploy changes).
  - A change of a port breakout is applied first, on its own (NVIDIA - apply breakouts before
    the QoS of the new ports), then the rest.
  - 'The REST form of confirming is not documented by NVIDIA; the module sends
    C({"state": "confirm_yes"}) to the revision, as third-party NVUE clients do.'
options:
  host:
    description: The switch's address.
    type: str
    required: true
  port:
    description: The NVUE REST API port.
    type: int
    default: 8765
  user:
    description: An NVUE user allowed to apply (group C(nvapply)).
    type: str
    required: true
  password:
    description: Its password.
    type: str
    required: true
  validate_certs:
    description: Verify the switch's TLS certificate (Cumulus Linux makes a self-signed one).
    type: bool
    default: true
  timeout_s:
    description: Seconds to wait for one request and for NVUE to apply a revision.
    type: int
    default: 120
  config:
    description: The rendered startup.yaml (O(state=present), O(state=rolled_back)).
    type: str
  previous:
    description: The startup.yaml the switch was last deployed with (the deployed-state record);
      what it set and O(config) no longer does is removed.
    type: str
    default: ''
  part:
    description:
      - V(plan) deploys O(config); V(drain) turns BGP graceful shutdown on (RFC 8326), V(undrain)
        off, each on its own.
    type: str
    choices: [plan, drain, undrain]
    default: plan
  keep_drained:
    description: With O(part=plan), leave graceful shutdown on (a draining roll).
    type: bool
    default: false
  confirm_s:
    description: Seconds NVUE waits for the confirmation before it rolls the revision back; 0
      applies without one.
    type: int
    default: 300
  revision:
    description: The revision to confirm or whose rollback to wait for.
    type: str
  snapshot:
    description: The applied config before the roll (RV(snapshot) of O(state=present)); with
      O(state=rolled_back), what the plan's part is restored to.
    type: dict
  state:
    description:
      - V(present) patches a revision and applies it, waiting for the confirmation.
      - V(planned) computes what V(present) would change (RV(commands)), without a revision.
      - V(confirmed) confirms O(revision) and saves the applied config to startup.
      - V(rolled_back) waits until NVUE rolled O(revision) back by itself, then puts back what
        is still not O(snapshot) of the plan's part (a roll of several revisions).
      - V(gathered) reads the operational state the verification needs.
    type: str
    choices: [present, planned, confirmed, rolled_back, gathered]
    default: present
attributes:
  check_mode:
    support: full
    description: Creates and patches the revision and shows its diff; applies nothing.
  diff_mode:
    support: full
    description: The revision's diff as NVUE commands.
  platform:
    support: full
    platforms: cumulus
    description: Cumulus Linux 5.14 with the NVUE REST API.
"""

EXAMPLES = r"""
- name: Patch and apply the plan's part, NVUE rolls it back unless confirmed within 5 minutes
  roce.fabric.nvue_config:
    host: "{{ ansible_host }}"
    user: cumulus
    password: "{{ nvue_password }}"
    config: "{{ lookup('ansible.builtin.file', 'intended/configs/leaf1a.yaml') }}"
    confirm_s: 300
  delegate_to: localhost
  register: applied

- name: Confirm it once verified
  roce.fabric.nvue_config:
    host: "{{ ansible_host }}"
    user: cumulus
    password: "{{ nvue_password }}"
    revision: "{{ applied.revision }}"
    state: confirmed
  delegate_to: localhost
"""

RETURN = r"""
revision:
  description: The revision applied and waiting for its confirmation (none when nothing differs).
  returned: when state is present
  type: str
commands:
  description: The revision's diff against the applied config, as NVUE commands (V(planned) -
    computed here).
  returned: when state is present or planned
  type: list
  elements: str
snapshot:
  description: The applied config before this call (the rollback target).
  returned: when state is present or planned
  type: dict
refusals:
  description: What the deploy refused to change (the module failed).
  returned: on refusal
  type: list
  elements: str
rolled_back_by_switch:
  description: Whether NVUE rolled the revision back by itself.
  returned: when state is rolled_back
  type: bool
operational:
  description: The interfaces, BGP neighbours, IPv4 routes and next-hop groups NVUE reports.
  returned: when state is gathered
  type: dict
"""

import json

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.six.moves.urllib.error import HTTPError, URLError
from ansible.module_utils.urls import open_url

from ansible_collections.roce.fabric.plugins.module_utils.deploy.cumulus import (
    client as nvue_client, document, ownership)


def _transport(module):
    p = module.params
    base = "https://%s:%d/nvue_v1" % (p["host"], p["port"])

    def request(method, path, body):
        try:
            resp = open_url(base + path, method=method,
                            data=json.dumps(body) if body is not None else None,
                            headers={"Content-Type": "application/json"},
                            url_username=p["user"], url_password=p["password"],
                            force_basic_auth=True, validate_certs=p["validate_certs"],
                            timeout=p["timeout_s"])
            text = resp.read()
            return resp.getcode(), json.loads(text) if text else None
        except HTTPError as err:
            text = err.read()
            try:
                return err.code, json.loads(text) if text else None
            except ValueError:
                return err.code, {"message": text.decode("utf-8", "replace")[:200]}
        except (URLError, OSError) as err:
            raise nvue_client.NvueError("%s %s: %s unreachable (%s)"
                                        % (method, path, base, err)) from err
    return request


def _phases(patch):
    """The breakouts (and interfaces removed) first, on their own, when the patch changes any
    (NVIDIA: apply port breakouts before the QoS of the ports they make); then the rest."""
    first, later = {}, {}
    for name, entry in (patch.get("interface") or {}).items():
        link = entry.get("link") if isinstance(entry, dict) else None
        if entry is None:
            first[name] = None
        elif isinstance(link, dict) and "breakout" in link:
            first[name] = {"link": {"breakout": link["breakout"]}}
            left = dict((k, v) for k, v in entry.items() if k != "link")
            left.update({"link": dict((k, v) for k, v in link.items() if k != "breakout")}
                        if len(link) > 1 else {})
            if left:
                later[name] = left
        else:
            later[name] = entry
    if not first:
        return [patch]
    rest = dict((k, v) for k, v in patch.items() if k != "interface")
    if later:
        rest["interface"] = later
    return [{"interface": first}] + ([rest] if rest else [])


def _present(module, api):
    p = module.params
    applied = api.config("applied")
    rendered = ownership.plan_tree(p["config"] or "")
    if p["part"] == "plan":
        change = ownership.change(applied, rendered, ownership.plan_tree(p["previous"] or ""),
                                  drain=p["keep_drained"])
        if change.refusals:
            module.fail_json(msg="%s: refused, nothing changed - %s" % (p["host"], "; ".join(
                change.refusals)), refusals=change.refusals)
        patch = change.patch
    else:
        drain = p["part"] == "drain"
        patch = {}
        if (document.get(applied, ownership.DRAIN) == "on") != drain:
            document.put(patch, ownership.DRAIN, "on" if drain else None)
    result = {"changed": bool(patch), "revision": None, "commands": [], "snapshot": applied}
    if not patch:
        return result
    if p["state"] == "planned":         # what would change, seen here: no revision
        result["commands"] = document.commands(applied, ownership.merged(applied, patch))
        return _with_diff(module, result)
    phases = [patch] if module.check_mode else _phases(patch)
    for number, body in enumerate(phases, 1):
        rev = api.create()
        api.patch(rev, body)
        result["commands"] += document.commands(applied, api.config(rev))
        if module.check_mode:
            result["revision"] = rev
            break
        api.apply(rev, p["confirm_s"])
        state = api.wait(rev, nvue_client.APPLIED | {nvue_client.CONFIRM}, p["timeout_s"])
        if number < len(phases) and state == nvue_client.CONFIRM:
            api.confirm(rev)            # the breakout stands before the rest is applied
            api.wait(rev, nvue_client.APPLIED, p["timeout_s"])
        applied = api.config("applied") if number < len(phases) else applied
        result["revision"] = rev if state == nvue_client.CONFIRM else None
    return _with_diff(module, result)


def _with_diff(module, result):
    """The commands as Ansible's diff, in diff mode."""
    if module._diff:
        result["diff"] = {"prepared": "\n".join(result["commands"]) + "\n"}
    return result


def _rolled_back(module, api):
    p = module.params
    result = {"changed": False, "rolled_back_by_switch": False}
    if p["revision"]:
        state = api.wait_settled(p["revision"], p["confirm_s"] + p["timeout_s"])
        result["rolled_back_by_switch"] = state != "applied"
        result["revision_state"] = state
    now = api.config("applied")
    before = p["snapshot"] or {}
    owned = ownership.owned_paths(now, ownership.plan_tree(p["config"] or ""),
                                  ownership.plan_tree(p["previous"] or ""))
    patch = ownership.restore(now, before, owned)
    if patch and not module.check_mode:
        rev = api.create()
        api.patch(rev, patch)
        api.apply(rev, 0)
        api.wait(rev, nvue_client.APPLIED, p["timeout_s"])
        result.update(changed=True, restored=document.commands(now, api.config("applied")))
    return result


def _gathered(api):
    return {"changed": False, "operational": {
        "interfaces": api.call("GET", "/interface"),
        "bgp": {"nvue": api.call("GET", "/vrf/default/router/bgp/neighbor")},
        "routes": {"nvue": {"rib": api.call("GET", "/vrf/default/router/rib/ipv4/route"),
                            "nexthop": api.call("GET", "/router/nexthop")}}}}


def main():
    module = AnsibleModule(
        argument_spec=dict(
            host=dict(type="str", required=True), port=dict(type="int", default=8765),
            user=dict(type="str", required=True),
            password=dict(type="str", required=True, no_log=True),
            validate_certs=dict(type="bool", default=True),
            timeout_s=dict(type="int", default=120),
            config=dict(type="str"), previous=dict(type="str", default=""),
            part=dict(type="str", choices=["plan", "drain", "undrain"], default="plan"),
            keep_drained=dict(type="bool", default=False),
            confirm_s=dict(type="int", default=300), revision=dict(type="str"),
            snapshot=dict(type="dict"),
            state=dict(type="str", choices=["present", "planned", "confirmed", "rolled_back",
                                            "gathered"], default="present")),
        required_if=[("state", "confirmed", ["revision"]), ("state", "rolled_back", ["config"])],
        supports_check_mode=True)
    p = module.params
    if p["confirm_s"] < 0:
        module.fail_json(msg="confirm_s: %d is not valid: 0 or more seconds" % p["confirm_s"])
    if p["state"] in ("present", "planned") and p["part"] == "plan" and not p["config"]:
        module.fail_json(msg="config: required with part=plan (the rendered startup.yaml)")
    api = nvue_client.Client(_transport(module))
    try:
        if p["state"] in ("present", "planned"):
            result = _present(module, api)
        elif p["state"] == "confirmed":
            if not module.check_mode:
                api.confirm(p["revision"])
                api.wait(p["revision"], nvue_client.APPLIED, p["timeout_s"])
                api.save()
            result = {"changed": True}
        elif p["state"] == "rolled_back":
            result = _rolled_back(module, api)
        else:
            result = _gathered(api)
    except (nvue_client.NvueError, ValueError) as err:
        module.fail_json(msg="%s: %s" % (p["host"], err))
    module.exit_json(**result)


if __name__ == "__main__":
    main()
