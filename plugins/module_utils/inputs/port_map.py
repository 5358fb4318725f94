# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``roce_port_map``: the ports of a switch of no model, as its vendor publishes them.

Either a list of ports in front-panel order (the input schema checks its keys, types and
grammars) or the text of a SONiC HWSKU's port_config.ini (sonic-buildimage
device/<vendor>/<platform>/<HWSKU>/port_config.ini), read as SONiC reads it. Checked here
against the switch's platform (port-name grammar, aliases), each name, alias and lane once;
the result is the tuple hardware/ports.py PortMap serves the ports from.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, Dict, List, Optional, Tuple

from ansible_collections.roce.fabric.plugins.module_utils import errors
from ansible_collections.roce.fabric.plugins.module_utils.hardware import models, platforms, ports
from ansible_collections.roce.fabric.plugins.module_utils.inputs import names

FIELD = ports.FIELD
# port_config.ini columns when the file has no header line: SONiC's default (sonic-buildimage
# src/sonic-config-engine/portconfig.py parse_port_config_file, lines 218-219 @086b03bd70).
INI_COLUMNS = ("name", "lanes", "alias", "index")
_ARTICLED = {"name": "a name", "lanes": "a lane", "alias": "an alias"}
_GIVEN: Dict[Tuple[str, str], Tuple[ports.Given, ...]] = {}     # (platform, map) -> its ports


def what_is_needed(platform: str) -> str:
    """What a switch without a model must give, for messages: the models, or its port map."""
    runs = ", ".join(n for n in models.names() if platform in models.MODELS[n]["platforms"])
    return ("roce_model: one of %s (docs/rendering.md), or %s: the switch's own ports, as a "
            "list of {name, lanes, alias, index, speed_gbps} in front-panel order or the text "
            "of its SONiC HWSKU's port_config.ini (its vendor's device/<platform>/<HWSKU>/ "
            "folder in sonic-buildimage)" % (runs or "none on this platform", FIELD))


def parse_port_config(text: str, host: Optional[str] = None) -> List[Dict[str, Any]]:
    """The rows of a SONiC port_config.ini as {column: text}, in file order. As SONiC reads it
    (portconfig.py parse_port_config_file, lines 214-247 @086b03bd70): a comment line that
    names a ``name`` column is the header, other comment lines and lines of fewer than two
    fields are skipped, and without a header the columns are name, lanes, alias, index."""
    titles = list(INI_COLUMNS)
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            header = line.strip("#").split()
            if "name" in header:
                titles = header
            continue
        fields = line.split()
        if len(fields) < 2:
            continue
        if len(fields) > len(titles):
            raise errors.RoceInputError(
                "%s line %d" % (FIELD, number), line.strip(), "at most one field per column "
                "of the header (%s)" % " ".join(titles), host)
        row: Dict[str, Any] = dict(zip(titles, fields))
        row["_line"] = number
        rows.append(row)
    return rows


def _ini_entries(text: str, host: Optional[str]) -> List[Dict[str, Any]]:
    """port_config.ini rows as port-map entries: index and speed (Mb/s, as the file) as numbers;
    the other columns (fec, subport, ...) are not read."""
    out = []
    for row in parse_port_config(text, host):
        where = "%s line %d" % (FIELD, row["_line"])
        entry: Dict[str, Any] = {"name": row["name"], "_field": where + " %s"}
        if "lanes" not in row:
            raise errors.RoceInputError(where, row["name"], "a lanes column (port_config.ini "
                                        "header: # name lanes alias index speed)", host)
        entry["lanes"] = row["lanes"]
        if "alias" in row:
            entry["alias"] = row["alias"]
        for key, limit in (("index", 1024), ("speed", 10 ** 7)):
            if key in row:
                if not row[key].isdigit() or not 0 < int(row[key]) <= limit:
                    raise errors.RoceInputError(where + " " + key, row[key], "a whole number "
                                                "from 1 to %s%s" % ("{:,}".format(limit), (
                                                    " (Mb/s: 400000 for 400G)" if key == "speed"
                                                    else "")), host)
                entry["index" if key == "index" else "speed_mbps"] = int(row[key])
        out.append(entry)
    return out


def given_ports(value: Any, platform: str,
                host: Optional[str] = None) -> Tuple[ports.Given, ...]:
    """The ports of ``roce_port_map`` (a list the input schema checked, or port_config.ini
    text), checked against the platform's naming: names of its grammar, each name, alias and
    lane once, aliases only where the platform has them. Switches that share one map (group
    variables) read it once."""
    key = (platform, value if isinstance(value, str) else repr(value))
    if key not in _GIVEN:
        _GIVEN[key] = _given_ports(value, platform, host)
    return _GIVEN[key]


def _given_ports(value: Any, platform: str, host: Optional[str]) -> Tuple[ports.Given, ...]:
    platform_ = platforms.PLATFORMS[platform]
    naming = platform_.ports
    if isinstance(value, str):
        entries = _ini_entries(value, host)
    else:      # the schema checked the entries' keys, types and grammars
        entries = [dict(e, _field="%s[%d].%%s" % (FIELD, i)) for i, e in enumerate(value)]
        for e in entries:
            if "speed_gbps" in e:
                e["speed_mbps"] = e["speed_gbps"] * 1000
    if not 2 <= len(entries) <= 1024:
        raise errors.RoceInputError(FIELD, "%d ports" % len(entries), "2 to 1,024 front-panel "
                                    "ports", host)
    out: List[ports.Given] = []
    seen: Dict[Tuple[str, str], str] = {}     # (column, name / alias / lane) -> which port
    for position, e in enumerate(entries):
        field = e["_field"]
        names.check(naming.grammar, field % "name", e["name"], host)
        names.check("lanes", field % "lanes", e["lanes"], host)
        alias = e.get("alias")
        if alias is not None and not naming.aliases:
            raise errors.RoceInputError(field % "alias", alias, "not set: %s ports have no "
                                        "alias" % platform_.title, host)
        if alias is not None:
            names.check("alias", field % "alias", alias, host)
        elif naming.aliases:
            alias = e["name"]       # SONiC's default (portconfig.py line 236)
        lanes = e["lanes"].split(",")
        keys = [("name", e["name"])] + [("lanes", lane) for lane in lanes]
        keys += [("alias", alias)] if alias is not None else []
        for column, key in keys:
            if (column, key) in seen:
                raise errors.RoceInputError(field % column, key, "%s no other port has (%s "
                                            "has it)" % (_ARTICLED[column], seen[(column, key)]),
                                            host)
            seen[(column, key)] = e["name"]
        out.append((e["name"], e["lanes"], alias, e.get("index", position + 1), len(lanes),
                    e.get("speed_mbps")))
    return tuple(out)
