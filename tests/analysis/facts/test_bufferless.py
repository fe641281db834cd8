"""Names that never hold a buffer in their scope (no alias passes through them)."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.bufferless import bufferless_names

from ..helpers import HEADER, context


def names(body: str, scope: str = "main") -> frozenset[str]:
    return bufferless_names(context(HEADER + body), scope)


@pytest.mark.parametrize(
    ("binding", "name"),
    [
        ("n = 3\n", "n"),
        ("n = 3\n    n = n + 1\n", "n"),
        ("n = x.shape[0]\n", "n"),
        ("shape = x.shape[1:]\n", "shape"),
        ("label = 'train'\n", "label"),
        ("key = None\n", "key"),
        ("_, _, size = x.shape\n", "size"),
        ("n = float(x.sum())\n", "n"),
    ],
)
def test_numbers_shapes_strings_and_none_hold_no_buffer(binding: str, name: str) -> None:
    body = f"def main(x: jax.Array):\n    {binding}    use(x, {name})\n"
    assert name in names(body)


@pytest.mark.parametrize(
    ("binding", "name"),
    [
        ("n = 3\n    if x.sum() > 0:\n        n = x\n", "n"),  # an array on one path
        ("n = []\n", "n"),  # a list: filled later, perhaps
        ("n = x\n", "n"),
        ("n = f(x)\n", "n"),  # code autoopt cannot see
        ("n = 3\n    out = [n for n in x]\n", "n"),  # a comprehension reuses the name
        ("global n\n    n = 3\n", "n"),
        ("n = 3\n    for n in x:\n        pass\n", "n"),  # the loop binds rows of `x`
    ],
)
def test_anything_that_may_hold_a_buffer_is_not(binding: str, name: str) -> None:
    body = f"def main(x: jax.Array):\n    {binding}    use(x, {name})\n"
    assert name not in names(body)


def test_a_parameter_every_call_gives_a_number() -> None:
    body = "def main(x, t1=10.0):\n    use(x, t1)\n\nmain(jnp.ones(3))\nmain(jnp.ones(3), 2)\n"
    assert names(body) == {"t1"}


def test_a_parameter_one_call_gives_an_array_is_not() -> None:
    body = "def main(x, t1=10.0):\n    use(x, t1)\n\nmain(jnp.ones(3), jnp.ones(()))\n"
    assert "t1" not in names(body)


def test_star_parameters_are_not() -> None:
    body = "def main(*args, **kwargs):\n    use(args, kwargs)\n\nmain(1, 2, a=3)\n"
    assert not names(body) & {"args", "kwargs"}


def test_a_module_name_another_function_rebinds_is_not() -> None:
    body = "n = 3\n\ndef grow():\n    global n\n    n = jnp.ones(3)\n"
    assert "n" not in names(body, "<module>")


def test_two_values_built_from_one_number_are_no_aliases() -> None:
    body = (
        "def main():\n    size = 3\n    a = build(size)\n    b = build(size)\n    return a, b\n"
        "\ndef build(n):\n    return {'w': jnp.ones(n), 'n': n}\n"
    )
    sharing = Sharing(context(HEADER + body), "main")
    assert "b" not in sharing.component({"a"}, weak=True)


def test_two_values_built_from_one_list_stay_aliases() -> None:
    body = (
        "def main():\n    size = [jnp.ones(3)]\n    a = build(size)\n    b = build(size)\n"
        "    return a, b\n\ndef build(n):\n    return {'w': jnp.ones(3), 'n': n}\n"
    )
    sharing = Sharing(context(HEADER + body), "main")
    assert "b" in sharing.component({"a"}, weak=False)
