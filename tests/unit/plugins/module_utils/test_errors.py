"""errors: a refused value names the type the user wrote, not Ansible's tagged subclass."""
import pytest

from ansible_collections.roce.fabric.plugins.module_utils import errors


class _TaggedStr(str):      # what ansible-core 2.19 hands over for a templated or -e string
    pass


def test_a_tagged_string_is_named_str():
    with pytest.raises(errors.RoceInputError) as err:
        errors.number("gpus", _TaggedStr("abc"), 1, 10, "GPUs", integer=True)
    assert str(err.value).endswith("(got str)")


def test_bool_is_not_taken_for_a_number():
    with pytest.raises(errors.RoceInputError) as err:
        errors.number("cable_m", True, 0, 10)
    assert "(got bool)" in str(err.value)


@pytest.mark.parametrize("lo, hi, value, allowed", [
    (1, 10, 11, "a number from 1 to 10"), (1, None, 0, "a number >= 1"),
    (None, 10, 11, "a number <= 10")])
def test_the_refusal_states_every_bound_given(lo, hi, value, allowed):
    with pytest.raises(errors.RoceInputError) as err:
        errors.number("cable_m", value, lo, hi)
    assert allowed in str(err.value)
