# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Secret redaction for EOS config lines: password hashes, type-7 and plain keys, SNMP
communities and CloudVision keys become ``<redacted>`` in every refusal, diff and message the
deploy prints (``roce.fabric.eos_redact``, the guard's refusals, the base-config gate's errors).

Imports nothing (it ships to targets with the deploy).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from typing import List, Optional, Set

# Words a secret follows (after an optional key id, key name and type/algorithm words). Each
# form is taken from AVD's eos_cli_config_gen intended configs (aristanetworks/avd, molecule/
# eos_cli_config_gen/intended/configs: aaa, ntp, ethernet-interfaces, router-ospf, ip-security,
# dot1x, management-security, mac-security-eth-po-entropy, snmp, hide-passwords); the test
# tests/unit/plugins/module_utils/deploy/test_eos_secrets.py lists every one with its file.
_SECRET_WORDS = frozenset(("secret", "password", "key", "authentication-key", "message-digest-key",
                           "shared-key", "passphrase", "auth", "priv"))
_ID_WORDS = frozenset(("authentication-key", "message-digest-key"))   # '<word> <id> ...'
_TYPE_WORDS = frozenset(("0", "5", "6", "7", "8a", "sha512", "md5", "sha", "sha1", "sha256",
                         "sha384", "aes", "aes128", "aes192", "aes256", "des", "3des", "type",
                         "localized", "encrypted", "hmac-sha1", "hmac-md5"))
# Encryption types that follow a key's name: 'secret <name> 7 <key>' (management security
# shared-secret profiles, which BFD, IS-IS and BGP reference), 'key <ckn> 7 <cak>' (MACsec).
_NAMED_TYPES = frozenset(("0", "7", "8a"))
# What follows a secret word without being a secret ('password shared-secret profile P',
# 'authentication protocol ... password public-key', 'secret hash md5').
_NOT_SECRET = frozenset(("nopassword", "shared-secret", "public-key", "keyboard-interactive",
                         "hash", "profile"))
# Daemon arguments (daemon X / exec ...) and EOS SDK options ('option <name> value <text>',
# aristanetworks/EosSdk examples/HelloWorld.cpp) whose name says they carry a secret.
_SECRET_NAME = re.compile(r"(key|secret|passw|token|auth)", re.I)
_ARG = re.compile(r"^(-{1,2}[A-Za-z0-9_.-]+)=(.*)$")
_URL_PASSWORD = re.compile(r"(://[^:/@\s]+:)[^@/\s]+@")   # -cvproxy=http://user:pass@host
REDACTED = "<redacted>"


def _secret_after(low: List[str], i: int) -> Optional[int]:
    """Index of the secret that follows the secret word low[i], or None."""
    word, last = low[i], len(low) - 1
    if word in ("auth", "priv") and low[0] != "snmp-server":
        return None
    j = i + 1
    if word in _ID_WORDS and j < last and low[j].isdigit():
        j += 1
    if low[j] not in _TYPE_WORDS and j + 2 <= last and low[j + 1] in _NAMED_TYPES:
        j += 1
    skipped = 0
    while j < last and low[j] in _TYPE_WORDS and skipped < 2:
        j += 1
        skipped += 1
    return None if low[j] in _NOT_SECRET else j


def _daemon_hides(words: List[str], low: List[str]) -> Set[int]:
    """Indices to hide in a daemon's 'exec' arguments and 'option ... value' line; -1 - i
    marks an argument whose value after '=' is hidden."""
    hide = set()   # type: Set[int]
    if low[0] == "option" and len(words) > 3 and low[2] == "value" and \
            _SECRET_NAME.search(low[1]):
        hide.update(range(3, len(words)))
    if low[0] != "exec":
        return hide
    for i, word in enumerate(words[1:], 1):
        arg = _ARG.match(word)
        if arg and _SECRET_NAME.search(arg.group(1)) and "=key," not in word and \
                not arg.group(2).startswith(("token", "/")):
            hide.add(-1 - i)
        elif word.startswith("-") and "=" not in word and _SECRET_NAME.search(word) and \
                i + 1 < len(words) and not words[i + 1].startswith("-"):
            hide.add(i + 1)
    return hide


def redact(line: str) -> str:
    """The line with password hashes, type-7 and plain keys, SNMP communities, daemon keys and
    similar secrets replaced by <redacted>; indentation and every other word kept."""
    if not line or not line.strip():
        return line
    indent = line[:len(line) - len(line.lstrip())]
    words = line.split()
    low = [w.lower() for w in words]
    hide = _daemon_hides(words, low)
    for i, word in enumerate(low):
        if word in _SECRET_WORDS and i + 1 < len(words):
            j = _secret_after(low, i)
            if j is not None:
                hide.add(j)
        if "=key," in word:
            hide.add(-(i + 1))
    if low[:2] == ["snmp-server", "community"] and len(words) > 2:
        hide.add(2)
    if low[:1] == ["snmp-server"] and "host" in low[:2]:
        for i, word in enumerate(low):
            if word == "version" and i + 2 < len(words) and low[i + 1] in ("1", "2c"):
                hide.add(i + 2)
    if low[0] == "exec" and _URL_PASSWORD.search(line):
        words = [_URL_PASSWORD.sub(r"\g<1>" + REDACTED + "@", w) for w in words]
    elif not hide:
        return line
    return indent + " ".join(_hidden(word, i, hide) for i, word in enumerate(words)
                             if not (i in hide and i - 1 in hide and i > 3 and
                                     low[0] == "option"))


def _hidden(word: str, i: int, hide: Set[int]) -> str:
    if i in hide:
        return REDACTED
    if -(i + 1) in hide:
        if "=key," in word:
            head, _sep, rest = word.partition("=key,")
            tail = rest.split(",", 1)
            return head + "=key," + REDACTED + ("," + tail[1] if len(tail) > 1 else "")
        return word.split("=", 1)[0] + "=" + REDACTED
    return word


def redact_text(text: str) -> str:
    """Every line redacted; diff lines (+/-/space prefixed) keep their prefix."""
    out = []
    for line in (text or "").splitlines():
        if line[:1] in ("+", "-", " ") and not line.startswith(("+++", "---")):
            out.append(line[:1] + redact(line[1:]))
        else:
            out.append(redact(line))
    return "\n".join(out)
