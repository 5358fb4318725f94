"""NVUE documents (deploy/cumulus/document.py): the startup.yaml writer and reader, the tree as
leaves and the ``nv set``/``nv unset`` lines of a diff.

Every expected text and tree here is written out by hand; PyYAML (yaml.safe_load) is the
independent reader a dumped document must agree with.
"""
import pytest
import yaml

from ansible_collections.roce.fabric.plugins.module_utils.deploy.cumulus import document

# Quoted ids ('26', '3'), on/off as strings, {} collection members, prefixes as keys, a
# description with ':' and one with a quote and a space, integers bare.
TREE = {
    "interface": {
        "swp1s0": {
            "type": "swp",
            "description": "gpu1:rdma0",
            "link": {"mtu": 9214, "speed": "400G", "state": {"up": {}}},
            "ip": {"address": {"198.18.64.0/31": {}}},
        },
        "eth0": {"description": "it's the mgmt: port"},
    },
    "qos": {"mapping": {"default-global": {"trust": "l3", "dscp": {
        "26": {"switch-priority": 3}, "0": {"switch-priority": 0}}}},
        "pfc": {"RF-PFC-3M": {"switch-priority": {"3": {}}, "cable-length": 3}}},
    "router": {"bgp": {"autonomous-system": 65101, "router-id": "198.18.0.2", "enable": "on"}},
    "system": {"forwarding": {"ecmp-hash": {"source-ip": "on", "ingress-interface": "off"}}},
    "vrf": {"default": {"router": {"bgp": {"neighbor": {
        "198.18.8.0": {"remote-as": 65100, "description": "spine1:Ethernet1/1"}}}}}},
}

TEXT = """\
# roce.fabric: leaf1a - rendered from the plan
# second header line
- set:
    interface:
      swp1s0:
        type: swp
        description: 'gpu1:rdma0'
        link:
          mtu: 9214
          speed: '400G'
          state:
            up: {}
        ip:
          address:
            '198.18.64.0/31': {}
      eth0:
        description: 'it''s the mgmt: port'
    qos:
      mapping:
        default-global:
          trust: l3
          dscp:
            '26':
              switch-priority: 3
            '0':
              switch-priority: 0
      pfc:
        RF-PFC-3M:
          switch-priority:
            '3': {}
          cable-length: 3
    router:
      bgp:
        autonomous-system: 65101
        router-id: '198.18.0.2'
        enable: 'on'
    system:
      forwarding:
        ecmp-hash:
          source-ip: 'on'
          ingress-interface: 'off'
    vrf:
      default:
        router:
          bgp:
            neighbor:
              '198.18.8.0':
                remote-as: 65100
                description: 'spine1:Ethernet1/1'
"""

HEADER = ["roce.fabric: leaf1a - rendered from the plan", "second header line"]


def test_dump_writes_nvue_block_yaml():
    assert document.dump([{"set": TREE}], HEADER) == TEXT


def test_load_reads_the_written_text_back_to_the_tree():
    ops = document.load(TEXT)
    assert ops == [{"set": TREE}]
    tree = ops[0]["set"]
    assert list(tree["qos"]["mapping"]["default-global"]["dscp"]) == ["26", "0"]     # ids: str
    assert tree["router"]["bgp"]["enable"] == "on"                                     # not True
    assert tree["system"]["forwarding"]["ecmp-hash"]["ingress-interface"] == "off"     # not False
    assert tree["interface"]["swp1s0"]["link"]["mtu"] == 9214                          # an int
    assert tree["interface"]["swp1s0"]["link"]["speed"] == "400G"
    assert tree["interface"]["swp1s0"]["ip"]["address"] == {"198.18.64.0/31": {}}


def test_pyyaml_reads_a_dumped_document_to_the_same_tree():
    assert yaml.safe_load(TEXT) == [{"set": TREE}]
    assert yaml.safe_load(document.dump([{"set": TREE}], HEADER)) == [{"set": TREE}]


def test_set_and_unset_operations_in_one_document():
    text = "- set:\n    qos:\n      roce:\n        mode: lossless\n- unset:\n    qos:\n      roce: {}\n"
    ops = [{"set": {"qos": {"roce": {"mode": "lossless"}}}}, {"unset": {"qos": {"roce": {}}}}]
    assert document.dump(ops, []) == text
    assert document.load(text) == ops
    assert yaml.safe_load(text) == ops


@pytest.mark.parametrize("value, text", [
    ("swp1s0", "swp1s0"), ("RF-PFC-3M", "RF-PFC-3M"), ("time1.example.org", "time1.example.org"),
    ("default-global", "default-global"), ("l3", "l3"),
    ("on", "'on'"), ("off", "'off'"), ("On", "'On'"), ("yes", "'yes'"), ("No", "'No'"),
    ("true", "'true'"), ("FALSE", "'FALSE'"), ("null", "'null'"), ("~", "'~'"), ("y", "'y'"),
    ("26", "'26'"), ("400G", "'400G'"), ("2x", "'2x'"), ("198.18.0.2", "'198.18.0.2'"),
    ("10.0.0.0/24", "'10.0.0.0/24'"), ("gpu1:rdma0", "'gpu1:rdma0'"), ("a b", "'a b'"),
    ("it's", "'it''s'"), ("", "''"), ("-1", "'-1'"), ("#x", "'#x'"),
    (26, "26"), (0, "0"), (-3, "-3"),
])
def test_scalar_is_plain_only_where_every_loader_reads_the_same_string(value, text):
    assert document.scalar(value) == text
    line = "- set:\n    k: %s\n" % text
    assert document.load(line) == [{"set": {"k": value}}]
    assert yaml.safe_load(line) == [{"set": {"k": value}}]


def test_scalar_refuses_booleans():
    with pytest.raises(TypeError):
        document.scalar(True)


def test_keys_are_quoted_like_values_and_read_back_as_strings():
    tree = {"rule": {"10": {"match": {"198.18.64.0/31": {}}}}, "community": {"65535:0": {}},
            "it's": "x"}
    text = document.dump([{"set": tree}], [])
    assert text == ("- set:\n    rule:\n      '10':\n        match:\n          '198.18.64.0/31': {}\n"
                    "    community:\n      '65535:0': {}\n    'it''s': x\n")
    assert document.load(text) == [{"set": tree}]
    assert yaml.safe_load(text) == [{"set": tree}]


@pytest.mark.parametrize("text, line", [
    ("- set:\n    interface:\n\tswp1: {}\n", 3),                       # a tab indents
    ("- set:\n\tinterface: {}\n", 2),
    ("- set:\n    interface:\n      swp1:\t{}\n", 3),                  # a tab after the colon
    ("- set:\n    a:\n      b: [1, 2]\n", 3),                          # flow sequence
    ("- set:\n    a: {b: 1}\n", 2),                                    # flow mapping
    ("- {set: {a: 1}}\n", 1),
    ("- set:\n    router:\n      bgp:\n        enable: on\n", 4),      # YAML 1.1 reads True
    ("- set:\n    a: yes\n", 2),
    ("- set:\n    a: null\n", 2),
    ("- set:\n    a: b # comment\n", 2),
    ("- set:\n    a: \"b\"\n", 2),                                     # double quotes
    ("- set:\n    a: |\n      b\n", 2),                                # block scalar
    ("- set:\n    a: &x b\n", 2),                                      # anchor
    ("- set:\n    a: 'b\n", 2),                                        # unterminated quote
    ("- set:\n    a:\n      - b\n", 3),                                # a sequence
    ("set:\n  a: 1\n", 1),                                             # no operation
    ("- set:\n    a: 1\n  - unset:\n    b: {}\n", 3),                  # an operation indented
    ("- set: {}\n", 1),
    ("- set:\n    a: 1\n    a: 2\n", 3),                               # a key twice
    ("- set:\n    a: 1\nb: 2\n", 3),                                   # outside the operation
    ("# header\n\n- set:\n    a:\n      b: 1\n    c d: 2\n", 6),       # a key with a space
])
def test_load_refuses_what_is_not_nvue_block_yaml_with_its_line_number(text, line):
    with pytest.raises(ValueError, match=r"^line %d: " % line):
        document.load(text)


@pytest.mark.parametrize("text, line", [
    ("- set:\n    a: 1\n      b: 2\n", 3),                    # b under the scalar a
    ("- set:\n    a:\n      b: 1\n     c: 2\n", 4),           # c at 5: neither a's child nor sibling
])
def test_load_refuses_a_line_indented_under_no_mapping(text, line):
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(text)                     # YAML says the indentation is wrong
    with pytest.raises(ValueError, match=r"^line %d: " % line):
        document.load(text)


def test_comments_and_blank_lines_are_skipped():
    text = "# a\n\n- set:\n    # b\n    a: 1\n\n    c:\n      d: {}\n"
    assert document.load(text) == [{"set": {"a": 1, "c": {"d": {}}}}]


def test_flatten_gives_leaves_with_empty_members_as_leaves():
    tree = {"a": {"b": 1, "c": {}, "d": {"e": "on"}}, "f": "x"}
    assert document.flatten(tree) == [(("a", "b"), 1), (("a", "c"), {}), (("a", "d", "e"), "on"),
                                      (("f",), "x")]
    assert document.flatten({}) == []


def test_get_and_put():
    tree = {"a": {"b": {"c": 1}}}
    assert document.get(tree, ("a", "b", "c")) == 1
    assert document.get(tree, ("a", "b")) == {"c": 1}
    assert document.get(tree, ("a", "x")) is None
    assert document.get(tree, ("a", "b", "c", "d")) is None          # below a leaf
    assert document.get(tree, ()) == tree
    document.put(tree, ("a", "b", "d"), "on")
    document.put(tree, ("x", "y", "z"), {})
    assert tree == {"a": {"b": {"c": 1, "d": "on"}}, "x": {"y": {"z": {}}}}


def test_absent_gives_the_shallowest_nodes_the_other_tree_lacks():
    have = {"a": {"b": 1, "c": {"d": 1, "e": 2}}, "f": {"g": {}}, "h": 1}
    want = {"a": {"b": 2, "c": {"d": 1}}, "h": {"i": 1}}
    assert sorted(document.absent(have, want)) == [("a", "c", "e"), ("f",)]
    assert document.absent(have, want, ("root",)) == [("root", "a", "c", "e"), ("root", "f")]
    assert document.absent(want, want) == []


def test_commands_unset_removed_nodes_and_set_new_or_changed_leaves():
    before = {
        "interface": {
            "swp1s0": {"type": "swp", "link": {"mtu": 9100},
                       "ip": {"address": {"203.0.113.1/24": {}}},
                       "qos": {"link-pause": {"profile": "LP"}}},
            "swp2": {"type": "swp"},
        },
        "router": {"bgp": {"enable": "on"}},
    }
    after = {
        "interface": {
            "swp1s0": {"type": "swp", "description": "gpu1 rdma0", "link": {"mtu": 9214},
                       "ip": {"address": {"198.18.64.0/31": {}}}},
        },
        "router": {"bgp": {"enable": "on", "graceful-shutdown": "on"}},
    }
    assert document.commands(before, after) == [
        "nv unset interface swp1s0 ip address 203.0.113.1/24",
        "nv unset interface swp1s0 qos",
        "nv unset interface swp2",
        'nv set interface swp1s0 description "gpu1 rdma0"',
        "nv set interface swp1s0 link mtu 9214",
        "nv set interface swp1s0 ip address 198.18.64.0/31",
        "nv set router bgp graceful-shutdown on",
    ]


def test_commands_of_equal_trees_are_empty_and_an_existing_member_is_not_set_again():
    tree = {"interface": {"swp1s0": {"ip": {"address": {"198.18.64.0/31": {}}}}}}
    assert document.commands(tree, tree) == []
    fuller = {"qos": {"pfc": {"RF-PFC-3M": {"switch-priority": {"3": {}}}}}}
    assert document.commands(fuller, {"qos": {"pfc": {"RF-PFC-3M": {}}}}) == [
        "nv unset qos pfc RF-PFC-3M switch-priority"]
    assert document.commands({}, {"vrf": {"mgmt": {}}}) == ["nv set vrf mgmt"]
