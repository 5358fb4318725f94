# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Jinja2 filters for the switch deploy role. Documentation: <name>.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import difflib
import json

from ansible.errors import AnsibleFilterError

from ansible_collections.roce.fabric.plugins.module_utils.deploy import verify
from ansible_collections.roce.fabric.plugins.module_utils.plan import targets as plan_targets
from ansible_collections.roce.fabric.plugins.module_utils.deploy import drain, frr_ownership
from ansible_collections.roce.fabric.plugins.module_utils.deploy import sonic_secrets
from ansible_collections.roce.fabric.plugins.module_utils.deploy.eos import (
    candidate, management, secrets, session)
from ansible_collections.roce.fabric.plugins.module_utils.deploy import backends, roll
from ansible_collections.roce.fabric.plugins.module_utils.render import change_classes


def frr_drain(bgpd_conf):
    if not isinstance(bgpd_conf, str):
        raise AnsibleFilterError("roce.fabric.frr_drain: expected bgpd.conf text, got %s"
                                 % type(bgpd_conf).__name__)
    return drain.frr_drained(bgpd_conf)


def frr_foreign(running, persistent, rendered, remove=None, deployed=""):
    if not all(isinstance(v, str) for v in (running, persistent, rendered, deployed or "")):
        raise AnsibleFilterError("roce.fabric.frr_foreign: expected bgpd config text (the running "
                                 "config, the persistent, rendered and last deployed bgpd.conf)")
    if remove is not None and (not isinstance(remove, list) or
                               not all(isinstance(r, str) for r in remove)):
        raise AnsibleFilterError("roce.fabric.frr_foreign: remove must be a list of bgpd objects "
                                 "as the messages name them (switch_deploy_frr_remove), got %r"
                                 % (remove,))
    return frr_ownership.foreign(running, persistent, rendered, remove or [], deployed or "")


def eos_drain(config):
    if not isinstance(config, str):
        raise AnsibleFilterError("roce.fabric.eos_drain: expected EOS config text, got %s"
                                 % type(config).__name__)
    return drain.eos_drained(config)


def eos_lockout(running, rendered):
    if not isinstance(running, str) or not isinstance(rendered, str):
        raise AnsibleFilterError("roce.fabric.eos_lockout: expected the running config and the "
                                 "rendered config as text")
    return management.lockout_risks(running, rendered)


def _text(name, *values):
    if not all(isinstance(v, str) for v in values):
        raise AnsibleFilterError("roce.fabric.%s: expected EOS config text" % name)


def _transport(connection):
    return "network_cli" if "network_cli" in str(connection or "") else "httpapi"


def eos_deploy(running, rendered, remove=None, connection="", allow_management_change=False,
               drain=False, controller="", port=0):
    _text("eos_deploy", running, rendered)
    if remove is not None and (not isinstance(remove, list) or
                               not all(isinstance(r, str) for r in remove)):
        raise AnsibleFilterError("roce.fabric.eos_deploy: remove must be a list of top-level "
                                 "lines (switch_deploy_eos_remove)")
    try:
        plan = candidate.plan_deploy(running, rendered, remove or [], _transport(connection),
                                     bool(allow_management_change), bool(drain),
                                     str(controller or "") or None, int(port or 0) or None)
    except ValueError as exc:
        raise AnsibleFilterError("roce.fabric.eos_deploy: controller must be the IPv4 or IPv6 "
                                 "address the switch sees the deploy from "
                                 "(switch_deploy_controller_address), port a TCP port; got "
                                 "%r, %r (%s)" % (controller, port, exc)) from exc
    for step in ("check", "drain", "apply", "undrain"):
        plan[step] = "\n".join(plan[step]) + "\n" if plan[step] else ""
    return plan


def eos_restore(current, previous):
    _text("eos_restore", current, previous)
    lines = candidate.restore(current, previous)
    return "\n".join(lines) + "\n" if lines else ""


def eos_session_risks(diff, running, rendered, remove=None, allow_management_change=False):
    _text("eos_session_risks", running, rendered)
    return session.session_risks(running, diff or "", rendered, remove or [],
                                 bool(allow_management_change))


def eos_redact(text):
    return secrets.redact_text(text if isinstance(text, str) else str(text))


def sonic_redact(text):
    return sonic_secrets.redact_text(text if isinstance(text, str) else str(text))


def frr_diff(after, before="", path="bgpd.conf"):
    """A unified diff of two FRR config texts, secrets redacted on both sides (a list of
    lines; empty when they are equal)."""
    if not isinstance(after, str) or not isinstance(before or "", str):
        raise AnsibleFilterError("roce.fabric.frr_diff: expected two config texts")
    return list(difflib.unified_diff(
        sonic_secrets.redact_frr(before or "").splitlines(),
        sonic_secrets.redact_frr(after).splitlines(),
        "%s (on the switch)" % path, "%s (rendered)" % path, lineterm=""))


def verify_targets(device, plan):
    try:
        return plan_targets.targets(device, plan)
    except (KeyError, TypeError) as exc:
        raise AnsibleFilterError("roce.fabric.verify_targets: %s is not a switch of the plan "
                                 "(%s)" % (device, exc)) from exc


def verify_state(targets, bgp_summary, routes, sessions="established", prefixes="all"):
    try:
        return verify.check(targets, _json(bgp_summary), _json(routes), sessions, prefixes)
    except (KeyError, TypeError, ValueError) as exc:
        raise AnsibleFilterError("roce.fabric.verify_state: %s" % exc) from exc


def roll_plan(device, records=None, plan_records=None, pending=False, force=False, drain=True,
              allow_reload=False):
    if not isinstance(device, str):
        raise AnsibleFilterError("roce.fabric.roll_plan: expected the switch's inventory name")
    record = roll.find_record(device, records, plan_records)
    return roll.decide(device, record, bool(pending), bool(force), bool(drain),
                       bool(allow_reload), change_classes.REASONS)


# port_problems' sources are the deploy backends (each parses its own port check's output); the
# message lists the default first.
_PORT_SOURCES = backends.one_of((backends.PORT_SOURCE,) + tuple(
    n for n in backends.NAMES if n != backends.PORT_SOURCE))


def port_problems(device, live, source=backends.PORT_SOURCE):
    if source not in backends.BACKENDS or not isinstance(device, dict):
        raise AnsibleFilterError("roce.fabric.port_problems: expected the switch's plan intent "
                                 "and source %s" % _PORT_SOURCES)
    try:
        return roll.port_problems(roll.planned_ports(device), backends.BACKENDS[source].ports(live))
    except (KeyError, TypeError, ValueError) as exc:
        raise AnsibleFilterError("roce.fabric.port_problems: %s" % exc) from exc


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


class FilterModule(object):
    """roce.fabric switch filters."""

    def filters(self):
        return {"frr_drain": frr_drain, "frr_foreign": frr_foreign, "eos_drain": eos_drain,
                "eos_lockout": eos_lockout,
                "eos_deploy": eos_deploy, "eos_restore": eos_restore,
                "eos_session_risks": eos_session_risks, "eos_redact": eos_redact,
                "sonic_redact": sonic_redact, "frr_diff": frr_diff,
                "verify_targets": verify_targets, "verify_state": verify_state,
                "roll_plan": roll_plan, "port_problems": port_problems}
