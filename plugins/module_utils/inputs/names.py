# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Name grammars: every name that reaches a config line, a file name or a shell command.

A name is checked against its grammar before planning, so a rendered line or path can only
contain characters the grammar allows (no whitespace, quotes, ';', '|', backticks, '/', NUL or
non-ASCII). Each grammar is a regular expression plus the sentence an error message shows.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re
from typing import Any, Optional

from ansible_collections.roce.fabric.plugins.module_utils import errors

# Grammar name -> (anchored pattern, what is allowed).
GRAMMARS = {
    # Inventory host names become file names (configs/<host>.json), EOS `hostname`, SONiC
    # DEVICE_METADATA hostname (YANG: 1..63 characters) and port descriptions.
    "device": (r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$",
               "a device name: 1-63 characters, letters, digits, '.', '_' or '-', starting "
               "with a letter or digit"),
    # Ansible group names (letters, digits, underscore; '-' is accepted by Ansible with a warning).
    "group": (r"^[A-Za-z_][A-Za-z0-9_-]{0,62}$",
              "an inventory group name: letters, digits, '_' or '-', starting with a letter or '_'"),
    # Linux netdev names: IFNAMSIZ 16 with the NUL, no '/', ':' or whitespace (dev_valid_name()).
    "netdev": (r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,14}$",
               "a Linux interface name: 1-15 characters, letters, digits, '.', '_' or '-', "
               "starting with a letter or digit"),
    # Switch front-panel ports: SONiC Ethernet<first lane>, EOS Ethernet<cage>[/<lane>],
    # Cumulus swp<cage>[s<port in cage>].
    "port": (r"^(Ethernet[0-9]{1,4}(/[0-9]{1,2}){0,2}|swp[0-9]{1,3}(s[0-9])?)$",
             "a switch port name such as Ethernet8 (SONiC), Ethernet1/1 (EOS) or swp1s0 "
             "(Cumulus)"),
    "sonic_port": (r"^Ethernet[0-9]{1,4}$", "a SONiC port name Ethernet<first lane>, e.g. Ethernet8"),
    "eos_port": (r"^Ethernet[0-9]{1,3}(/[0-9]{1,2})?$",
                 "an EOS front-panel port name Ethernet<cage>/<lane>, e.g. Ethernet1/1"),
    "cumulus_port": (r"^swp[0-9]{1,3}(s[0-9])?$",
                     "a Cumulus port name swp<cage> or swp<cage>s<n>, e.g. swp1s0"),
    # SONiC PORT.alias (front-panel label): etp1, etp1a, Ethernet1/1, fortyGigE0/4 ...
    "alias": (r"^[A-Za-z][A-Za-z0-9/_.-]{0,31}$",
              "a port alias: 1-32 characters, letters, digits, '/', '.', '_' or '-', starting "
              "with a letter"),
    # SONiC PORT.lanes: comma-separated lane numbers.
    "lanes": (r"^[0-9]{1,4}(,[0-9]{1,4}){0,7}$",
              "a comma-separated list of 1-8 lane numbers, e.g. 0,1,2,3"),
    # sysctl keys as /proc/sys paths with dots.
    "sysctl": (r"^[a-z0-9_]+(\.[A-Za-z0-9_-]+){1,6}$",
               "a sysctl name such as net.ipv4.conf.all.rp_filter"),
    # A sysctl value: a number or a short word list (no quotes, no shell or file syntax).
    "sysctl_value": (r"^[A-Za-z0-9_.:-]([A-Za-z0-9_ .:-]{0,62}[A-Za-z0-9_.:-])?$",
                     "a sysctl value: up to 64 letters, digits, inner spaces, '.', ':', '_' or "
                     "'-'"),
    # One-line free text shown in documents (fabric name, catalog caveats).
    "text": (r"^[A-Za-z0-9 _.,:()+%-]{1,300}$",
             "one line of plain text (letters, digits, spaces and . , : ( ) + % - _), at most "
             "300 characters"),
    # IPv4 prefix / address with prefix length. IPv6 is refused on purpose (fabric-and-checks.md).
    "ipv4_prefix": (r"^([0-9]{1,3}\.){3}[0-9]{1,3}/([0-9]|[12][0-9]|3[0-2])$",
                    "an IPv4 prefix such as 198.18.0.0/24 (IPv6 fabrics are not supported)"),
}
_COMPILED = dict((k, re.compile(v[0])) for k, v in GRAMMARS.items())


def pattern(grammar: str) -> str:
    return GRAMMARS[grammar][0]


def allowed(grammar: str) -> str:
    return GRAMMARS[grammar][1]


def matches(grammar: str, value: Any) -> bool:
    return isinstance(value, str) and _COMPILED[grammar].fullmatch(value) is not None


def check(grammar: str, field: str, value: Any, host: Optional[str] = None) -> str:
    """Return ``value`` if it is a string of ``grammar``, else raise RoceInputError."""
    if not matches(grammar, value):
        raise errors.RoceInputError(field, value, allowed(grammar), host)
    return value


def confined_path(root: str, rel: str, real_root: Optional[str] = None) -> str:
    """``root``/``rel`` if it stays inside ``root`` (no '..', absolute part or link out).
    ``real_root``: os.path.realpath(root), resolved once by a caller writing many files."""
    real_root = real_root or os.path.realpath(root)
    path = os.path.realpath(os.path.join(real_root, rel))
    if os.path.isabs(rel) or not path.startswith(real_root + os.sep):
        raise errors.RoceInputError("output path", rel, "a path inside %s" % real_root)
    return path
