"""plan/targets.network: integer arithmetic that must agree with the standard library."""
import ipaddress

from hypothesis import given, strategies as st

from ansible_collections.roce.fabric.plugins.module_utils.plan import targets


@given(st.integers(min_value=0, max_value=2 ** 32 - 1), st.integers(min_value=0, max_value=32))
def test_network_is_ipaddress_network(value, length):
    address = "%s/%d" % (ipaddress.IPv4Address(value), length)
    assert targets.network(address) == str(ipaddress.ip_interface(address).network)


def test_network_of_a_bare_address_is_a_host_route():
    assert targets.network("198.18.0.7") == "198.18.0.7/32"
    assert targets.network("198.18.0.7/31") == "198.18.0.6/31"
