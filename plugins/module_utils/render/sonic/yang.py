# -*- coding: utf-8 -*-
# Copyright: (c) 2026, roce.fabric contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Validate a SONiC config_db.json against SONiC's own YANG models with libyang.

CONFIG_DB JSON is translated into the YANG JSON the models describe, the way SONiC's
sonic-yang-mgmt does (sonic.md §3): each table under "<module>:<module>"; a key "a|b" goes into
the list whose key has as many leaves; a key naming a container (DEVICE_METADATA|localhost) into
that container; map tables (DSCP_TO_TC_MAP|AZURE {"3": "3"}) into their inner list; 8-32 bit
integers become JSON numbers, booleans true/false, leaf-lists lists. The models are read from a
directory the user chooses (their switch's image), never bundled.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
from typing import Any, Dict, Tuple, Union, cast

try:
    import libyang
    HAS_LIBYANG = True
except ImportError:   # optional: only validation needs it
    HAS_LIBYANG = False

_NUMBERS = frozenset(("int8", "int16", "int32", "uint8", "uint16", "uint32"))


class YangError(ValueError):
    """A config_db that the models reject, with the table, key and libyang's message."""


class Validator:
    """Loads every *.yang in ``models_dir`` once; ``validate(config_db)`` raises YangError."""

    def __init__(self, models_dir: str) -> None:
        if not HAS_LIBYANG:
            raise YangError("libyang Python bindings are not installed (pip install libyang)")
        if not os.path.isdir(models_dir):
            raise YangError("SONiC YANG models directory %s not found: point at your image's "
                            "models (ROCE_SONIC_YANG_DIR, or --yang)" % models_dir)
        self.models_dir = models_dir
        self.ctx = libyang.Context(models_dir)
        names = sorted(f[:-5] for f in os.listdir(models_dir) if f.endswith(".yang"))
        for name in names:
            self.ctx.load_module(name)
        # Walk schemas only after the last load: libyang 2 recompiles on every load (sonic.md §3).
        self.tables: Dict[str, Tuple[str, Any]] = {}
        for name in names:
            for top in self.ctx.get_module(name):
                if top.keyword() != "container":
                    continue
                for table in cast("libyang.SContainer", top):
                    if table.keyword() == "container":
                        self.tables[table.name()] = (name, table)

    def to_yang(self, config_db: Dict[str, Any]) -> Dict[str, Any]:
        """YANG JSON (a dict) for a CONFIG_DB dict."""
        out: Dict[str, Dict[str, Any]] = {}
        for table, entries in config_db.items():
            if table not in self.tables:
                raise YangError("table %s: no YANG model for it in the models directory" % table)
            module, node = self.tables[table]
            out.setdefault("%s:%s" % (module, module), {})[table] = self._table(table, node,
                                                                                entries)
        return out

    def validate(self, config_db: Dict[str, Any]) -> None:
        data = json.dumps(self.to_yang(config_db))
        try:
            tree = self.ctx.parse_data_mem(data, "json", strict=True, validate_present=True)
        except libyang.LibyangError as exc:
            errors = "; ".join(str(e) for e in self.ctx.errors()) if hasattr(self.ctx, "errors") \
                else ""
            raise YangError("%s %s" % (exc, errors)) from exc
        if tree is not None:
            tree.free()

    def _table(self, table: str, node: Any,
               entries: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
        """One table's YANG JSON: ``node`` is its container in the model (a libyang node)."""
        children = dict((c.name(), c) for c in node)
        lists = [c for c in node if c.keyword() == "list"]
        result: Dict[str, Any] = {}
        for key, fields in entries.items():
            parts = key.split("|")
            if len(parts) == 1 and key in children and children[key].keyword() == "container":
                result[key] = self._fields(table, key, children[key], fields)
                continue
            match = [lst for lst in lists if len(list(lst.keys())) == len(parts)]
            if not match:
                raise YangError("%s|%s: no list in the model takes %d key part(s)"
                                % (table, key, len(parts)))
            lst = match[0]
            entry = dict((k.name(), _value(k.type(), p)) for k, p in zip(lst.keys(), parts))
            inner = [c for c in lst if c.keyword() == "list"]
            if inner:   # map table: fields are the inner list's entries
                ilist = inner[0]
                ikey = list(ilist.keys())[0]
                ival = [c for c in ilist if c.keyword() == "leaf" and c.name() != ikey.name()][0]
                entry[ilist.name()] = [{ikey.name(): _value(ikey.type(), k),
                                        ival.name(): _value(ival.type(), v)}
                                       for k, v in fields.items()]
            else:
                entry.update(self._fields(table, key, lst, fields))
            result.setdefault(lst.name(), []).append(entry)
        return result

    def _fields(self, table: str, key: str, node: Any, fields: Dict[str, Any]) -> Dict[str, Any]:
        leaves = dict((c.name(), c) for c in node)
        out: Dict[str, Any] = {}
        for name, value in fields.items():
            if name not in leaves:
                raise YangError("%s|%s: field %s is not in the model" % (table, key, name))
            leaf = leaves[name]
            if leaf.keyword() == "leaf-list":
                items = value if isinstance(value, list) else str(value).split(",")
                out[name] = [_value(leaf.type(), v) for v in items]
            else:
                out[name] = _value(leaf.type(), value)
        return out


def _value(ytype: Any, value: Any) -> Union[int, bool, str]:
    """``value`` as YANG JSON writes a leaf of libyang type ``ytype``."""
    base = ytype.basename()
    if base == "leafref":
        return _value(ytype.leafref_type(), value)
    if base in _NUMBERS:
        return int(value)
    if base == "boolean":
        return str(value).lower() == "true"
    if base == "union":
        names = set(t.basename() for t in ytype.union_types())
        text = str(value)
        if names & _NUMBERS and text.lstrip("-").isdigit():
            return int(text)
    return str(value)
