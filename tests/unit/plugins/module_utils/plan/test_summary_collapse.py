"""The printed check summary collapses repeated warnings of one cause to one line with a count
and the first devices; errors and warnings of other causes keep a line each (hand-written
findings, expected lines written out by hand)."""
from ansible_collections.roce.fabric.plugins.module_utils.plan import summary

SUMMARY = {"spines": 2, "leaves": 4, "leaf_pairs": 2, "hosts": 8, "nics": 64, "links": 128,
           "checks": 19, "tiers": 2, "planes": 1, "superspines": 0, "pods": {}, "errors": 1,
           "warnings": 5}


def _finding(sev, rule, device, where, message, hint):
    return {"severity": sev, "rule": rule, "device": device, "location": where,
            "message": message, "hint": hint}


def _efficiency(leaf, flows):
    return _finding("WARN", "ecmp-efficiency", leaf, "uplinks",
                    "%d flows on 16 uplinks, efficiency 0.508 < 0.8" % flows,
                    "enable adaptive routing on %s" % leaf)


def test_repeated_warnings_collapse_to_one_line_per_cause():
    violations = [_efficiency("leaf0001", 64), _efficiency("leaf0002", 64),
                  _finding("ERROR", "mtu-chain", "leaf0001", "Ethernet1", "MTU 1500 < 9100",
                           "raise it"),
                  _efficiency("leaf0003", 64), _efficiency("leaf0004", 32),
                  _finding("WARN", "hash-entropy", "spine1", "ecmp", "default seed", "set one")]
    lines = summary.format_report({"summary": SUMMARY, "violations": violations})
    assert lines[0].startswith("1 error(s), 5 warning(s): ")
    assert lines[2:] == [
        "WARN    ecmp-efficiency          4 devices (leaf0001, leaf0002, leaf0003, ...) uplinks"
        "                64 flows on 16 uplinks, efficiency 0.508 < 0.8",
        " " * 65 + " fix: enable adaptive routing on leaf0001",
        "ERROR   mtu-chain                leaf0001   Ethernet1              MTU 1500 < 9100",
        " " * 65 + " fix: raise it",
        "WARN    hash-entropy             spine1     ecmp                   default seed",
        " " * 65 + " fix: set one"]


def test_a_count_in_thousands_and_few_devices_without_ellipsis():
    many = [_efficiency("leaf%04d" % i, 64) for i in range(1536)]
    lines = summary.format_report({"summary": dict(SUMMARY, errors=0, warnings=1536),
                                   "violations": many})
    assert len(lines) == 4
    assert "1,536 devices (leaf0000, leaf0001, leaf0002, ...)" in lines[2]
    two = summary.format_report({"summary": dict(SUMMARY, errors=0, warnings=2),
                                 "violations": many[:2]})
    assert "2 devices (leaf0000, leaf0001) uplinks" in two[2]


def test_errors_of_one_cause_are_not_collapsed():
    errors = [_finding("ERROR", "mtu-chain", "leaf%d" % i, "Ethernet1", "MTU 1500 < 9100", "x")
              for i in range(3)]
    lines = summary.format_report({"summary": dict(SUMMARY, errors=3, warnings=0),
                                   "violations": errors})
    assert [line.split()[2] for line in lines[2::2]] == ["leaf0", "leaf1", "leaf2"]
