"""The attributes of `self` in a class's methods, and whether the class is closed."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.self_attrs import closed_class, is_store, uses

from ..helpers import HEADER, context

CLASS = """
class Run:
    def __init__(self):
        self.x = jnp.ones(2)

    def step(self):
        def inner():
            return self.x
        self.x, y = f(self.x), self.y
        return inner

def main():
    r = Run()
    r.step()
EXTRA
"""


def test_uses_list_each_self_x_with_whether_it_is_stored() -> None:
    ctx = context(CLASS.replace("EXTRA", ""), HEADER)
    found = [(ctx.code(u.stmt.node).split("\n")[0], is_store(u)) for u in uses(ctx, "Run", "x")]
    assert found == [
        ("self.x = jnp.ones(2)", True),
        ("return self.x", False),  # in the nested function
        ("self.x, y = f(self.x), self.y", True),
        ("self.x, y = f(self.x), self.y", False),
    ]
    assert all(type(u.node) is cst.Attribute for u in uses(ctx, "Run", "x"))
    assert closed_class(ctx, "Run", "x") is None


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("print(r.x)\n", "`r.x` at line 17 reaches an attribute `x` outside `Run`"),
        ("setattr(obj, 'x', 1)\n", "`setattr` at line 17 may reach `self.x`"),
        ("keep = [Run()]\n", "`Run` is used other than through its attributes at line 17"),
        ("def later(r):\n    return r\n", None),  # another `r`, no instance of Run
    ],
)
def test_a_closed_class_has_no_way_in_from_outside(extra: str, reason: str | None) -> None:
    ctx = context(CLASS.replace("EXTRA", extra), HEADER)
    found = closed_class(ctx, "Run", "x")
    assert found is None if reason is None else (found or "").startswith(reason), found


_LISTED = "    runs = [('a', r)]\n"


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        # listed, then only iterated, each item unpacked, the instance read at `.y`
        (_LISTED + "    names = [u.y for n, u in runs]\n", None),
        ("    runs = [r]\n    for u in runs:\n        print(u.y)\n", None),
        # the list handed on, changed or returned: code it reaches may copy the instance
        (_LISTED + "    keep = copy.copy(runs)\n", "`r` is used other than"),
        (_LISTED + "    runs.append(1)\n", "`r` is used other than"),
        (_LISTED + "    return runs\n", "`r` is used other than"),
        # the name bound again (it may then hold anything), or a global another reads
        (_LISTED + "    runs = []\n", "`r` is used other than"),
        # an item taken whole (not unpacked), or the instance handed on from the loop
        (_LISTED + "    for u in runs:\n        print(u)\n", "`r` is used other than"),
        (_LISTED + "    out = [copy.copy(u) for n, u in runs]\n", "`u` is used other than"),
        # a tuple not in a list display: not followed
        ("    pair = ('a', r)\n    names = [u.y for n, u in [pair]]\n", "`r` is used other than"),
    ],
)
def test_an_instance_in_a_list_only_iterated(extra: str, reason: str | None) -> None:
    code = CLASS.replace("    r.step()\nEXTRA", "    r.step()\n" + extra)
    assert code != CLASS
    found = closed_class(context(code, HEADER + "import copy\n"), "Run", "x")
    assert found is None if reason is None else (found or "").startswith(reason), found


@pytest.mark.parametrize(
    ("member", "reason"),
    [
        (
            "    @property\n    def x(self):\n        return self._x\n",
            "`Run.x` (line 6) is a property: assigning `self.x` may run a setter that keeps "
            "the value",
        ),
        (
            "    def x(self):\n        return 0\n",
            "`Run.x` (line 5) is a method: assigning `self.x` may run a setter that keeps the "
            "value",
        ),
        (
            "    x = Recorded()\n",
            "`Run.x` (line 5) is `Recorded()`, which may be a descriptor: assigning `self.x` "
            "may run a setter that keeps the value",
        ),
        ("    x = None\n", None),  # a literal class default runs no code
        ("    y = Recorded()\n", None),  # another attribute
    ],
)
def test_a_class_body_binding_the_attribute_may_run_code_on_assignment(
    member: str, reason: str | None
) -> None:
    code = CLASS.replace("class Run:\n", f"class Run:\n{member}\n").replace("EXTRA", "")
    assert closed_class(context(code, HEADER), "Run", "x") == reason
