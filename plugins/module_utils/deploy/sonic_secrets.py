# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Secrets of a SONiC switch redacted from what the deploy prints: CONFIG_DB rows and text
(command output, JSON, RFC 6901 paths) and FRR config text (bgpd.conf diffs, frr-reload
output). The EOS forms: deploy/eos/secrets.py.

The patch carries only the plan's values, which hold no secret; what can carry one is what the
switch prints back - a failed ``show runningconfiguration all`` or ``config apply-patch`` ends
up in the error message, and the persistent bgpd.conf (``neighbor X password Y`` typed by
another team) in the check-mode diff of bgpd.conf.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import re
from typing import Any, Dict, List, Pattern, Tuple

MASK = "<redacted>"
# CONFIG_DB fields that hold a secret, from sonic-buildimage @086b03b
# src/sonic-yang-models/yang-models: sonic-system-tacacs L105 (TACPLUS global), L153
# (TACPLUS_SERVER) passkey; sonic-system-radius L54 (RADIUS global), L129 (RADIUS_SERVER)
# passkey; sonic-bgp-common L187 auth_password (BGP_NEIGHBOR, BGP_PEER_GROUP and their AF rows);
# sonic-macsec L51 primary_cak, L67 fallback_cak (MACSEC_PROFILE); sonic-system-ldap L56
# bind_password; sonic-snmp L127 SNMP_USER_AUTH_PASSWORD, L150 SNMP_USER_ENCRYPTION_PASSWORD.
SECRET_FIELDS = frozenset((
    "passkey", "auth_password", "primary_cak", "fallback_cak", "bind_password",
    "SNMP_USER_AUTH_PASSWORD", "SNMP_USER_ENCRYPTION_PASSWORD"))
# Tables whose key is the secret: sonic-snmp L54 SNMP_COMMUNITY_LIST, key "name" - the community
# string itself.
SECRET_KEYED = frozenset(("SNMP_COMMUNITY",))

# FRR config lines with a secret, from the FRR user guide (doc/user): bgp.rst `neighbor PEER
# password PASSWORD`; ospfd.rst `ip ospf authentication-key AUTH_KEY`, `ip ospf
# message-digest-key KEYID md5 KEY`; ospf6d.rst `ipv6 ospf6 authentication key-id ID
# hash-algo ALGO key KEY`; isisd.rst `isis password [clear|md5] PASSWORD`, `area-password
# [clear|md5] PASSWORD`, `domain-password [clear|md5] PASSWORD`; ripd.rst `ip rip
# authentication string STRING`; the key chains (lib, ripd.rst) `key-string LINE`; vtysh /
# the daemons' `password PASSWORD` and `enable password PASSWORD`. Group 1 is kept, the rest
# of the line is the secret.
FRR_FORMS: Tuple[Pattern[str], ...] = tuple(re.compile(p) for p in (
    r"^(\s*(?:no\s+)?neighbor\s+\S+\s+password\s+).+$",
    r"^(\s*(?:no\s+)?ip\s+ospf\s+authentication-key\s+).+$",
    r"^(\s*(?:no\s+)?ip\s+ospf\s+message-digest-key\s+\d+\s+md5\s+).+$",
    r"^(\s*(?:no\s+)?ipv6\s+ospf6\s+authentication\s+key-id\s+\d+\s+hash-algo\s+\S+\s+key\s+)"
    r".+$",
    r"^(\s*(?:no\s+)?isis\s+password\s+(?:clear\s+|md5\s+)?).+$",
    r"^(\s*(?:no\s+)?(?:area|domain)-password\s+(?:clear\s+|md5\s+)?).+$",
    r"^(\s*(?:no\s+)?ip\s+rip\s+authentication\s+string\s+).+$",
    r"^(\s*(?:no\s+)?key-string\s+).+$",
    r"^(\s*(?:no\s+)?(?:enable\s+)?password\s+).+$",
))
_JSON_FIELD = re.compile(r'("(?:%s)"\s*:\s*)"(?:[^"\\]|\\.)*"' % "|".join(
    re.escape(f) for f in sorted(SECRET_FIELDS)))
_FIELD_EQUALS = re.compile(r"\b((?:%s)\s*[=:]\s*)\S+" % "|".join(
    re.escape(f) for f in sorted(SECRET_FIELDS)))
_KEYED_PATH = re.compile(r"((?:^|[\s\"'/\[])(?:%s)(?:\||/|~1))[^\s\"'/|\]]+" % "|".join(
    sorted(SECRET_KEYED)))
_KEYED_JSON = re.compile(r'"(?:%s)"\s*:\s*\{' % "|".join(sorted(SECRET_KEYED)))


def redact_db(db: Dict[str, Any]) -> Dict[str, Any]:
    """A copy of a CONFIG_DB with every secret field masked and every secret key replaced
    (``<redacted>``, ``<redacted>#2`` ... so the rows stay apart)."""
    out = copy.deepcopy(db)
    for table, rows in out.items():
        if not isinstance(rows, dict):
            continue
        if table in SECRET_KEYED:
            out[table] = dict(("%s#%d" % (MASK, n) if n > 1 else MASK, row)
                              for n, row in enumerate(rows.values(), 1))
            rows = out[table]
        for row in rows.values():
            if isinstance(row, dict):
                for field in row:
                    if field in SECRET_FIELDS:
                        row[field] = MASK
    return out


def redact_text(text: str) -> str:
    """Text a SONiC command printed - JSON of CONFIG_DB, ``TABLE|key`` names, RFC 6901 paths,
    ``field=value`` or ``field: value`` logs, FRR config lines - with the secrets masked."""
    text = _JSON_FIELD.sub(lambda m: m.group(1) + '"%s"' % MASK, text or "")
    text = _FIELD_EQUALS.sub(lambda m: m.group(1) + MASK, text)
    text = _KEYED_PATH.sub(lambda m: m.group(1) + MASK, text)
    text = _redact_keyed_json(text)
    return redact_frr(text)


def _redact_keyed_json(text: str) -> str:
    """The keys of a ``"SNMP_COMMUNITY": {...}`` object in JSON text."""
    out: List[str] = []
    at = 0
    for match in _KEYED_JSON.finditer(text):
        if match.start() < at:
            continue
        out.append(text[at:match.end()])
        depth, i = 1, match.end()
        body: List[str] = []
        while i < len(text) and depth:
            ch = text[i]
            if ch == '"':
                end = _string_end(text, i)
                literal = text[i:end]
                rest = text[end:].lstrip()
                # a string at depth 1 followed by ':' is a key of the object: the community
                body.append('"%s"' % MASK if depth == 1 and rest.startswith(":") else literal)
                i = end
                continue
            depth += {"{": 1, "}": -1}.get(ch, 0)
            body.append(ch)
            i += 1
        out.append("".join(body))
        at = i
    out.append(text[at:])
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text) and text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return min(i + 1, len(text))


def redact_frr(text: str) -> str:
    """FRR config or diff text with the secret part of each FRR_FORMS line masked; a diff's
    leading ``+``/``-``/`` `` is kept."""
    out = []
    for line in (text or "").split("\n"):
        mark = line[:1] if line[:1] in "+- " and not line.startswith(("+++", "---")) else ""
        body = line[len(mark):]
        for form in FRR_FORMS:
            match = form.match(body)
            if match:
                body = match.group(1) + MASK
                break
        out.append(mark + body)
    return "\n".join(out)
