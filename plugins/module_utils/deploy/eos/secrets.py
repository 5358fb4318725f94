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

_SECRET_WORDS = ("secret", "password", "key", "authentication-key", "auth", "priv")
_TYPE_WORDS = frozenset(("0", "5", "6", "7", "8a", "sha512", "md5", "sha", "sha1", "sha256",
                         "sha384", "aes", "aes128", "aes192", "aes256", "des", "3des", "type",
                         "localized", "encrypted", "hmac-sha1", "hmac-md5"))
REDACTED = "<redacted>"


def redact(line: str) -> str:
    """The line with password hashes, type-7 and plain keys, SNMP communities and similar
    secrets replaced by <redacted>; indentation and every other word kept."""
    if not line:
        return line
    indent = line[:len(line) - len(line.lstrip())]
    words = line.split()
    low = [w.lower() for w in words]
    hide = set()
    for i, word in enumerate(low):
        if word in _SECRET_WORDS and i + 1 < len(words):
            if word in ("auth", "priv") and (not low or low[0] != "snmp-server"):
                continue
            j = i + 1
            if word == "authentication-key" and j < len(words) and words[j].isdigit() and \
                    j + 1 < len(words):
                j += 1
            skipped = 0
            while j < len(words) - 1 and low[j] in _TYPE_WORDS and skipped < 2:
                j += 1
                skipped += 1
            if j < len(words) and low[j] not in ("nopassword",):
                hide.add(j)
        if "=key," in word:
            hide.add(-(i + 1))
    if low[:2] == ["snmp-server", "community"] and len(words) > 2:
        hide.add(2)
    if low[:1] == ["snmp-server"] and "host" in low[:2]:
        for i, word in enumerate(low):
            if word == "version" and i + 2 < len(words) and low[i + 1] in ("1", "2c"):
                hide.add(i + 2)
    if not hide:
        return line
    out = []
    for i, word in enumerate(words):
        if i in hide:
            out.append(REDACTED)
        elif -(i + 1) in hide:
            head, _sep, rest = word.partition("=key,")
            tail = rest.split(",", 1)
            out.append(head + "=key," + REDACTED + ("," + tail[1] if len(tail) > 1 else ""))
        else:
            out.append(word)
    return indent + " ".join(out)


def redact_text(text: str) -> str:
    """Every line redacted; diff lines (+/-/space prefixed) keep their prefix."""
    out = []
    for line in (text or "").splitlines():
        if line[:1] in ("+", "-", " ") and not line.startswith(("+++", "---")):
            out.append(line[:1] + redact(line[1:]))
        else:
            out.append(redact(line))
    return "\n".join(out)
