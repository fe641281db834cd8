"""A class of the module with the subclasses the module derives from it."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.class_family import family, open_family, root_class
from autoopt.analysis.facts.self_attrs import closed_class, uses

from ..helpers import HEADER, context

CLASSES = """
class Base:
    def __init__(self):
        self.x = jnp.ones(2)

    def hook(self):
        pass

class Task(Base):
    def hook(self):
        super().hook()

class Leaf(Task):
    pass

class Other:
    pass

def main():
    t = Leaf()
    t.hook()
EXTRA
"""


def test_a_family_is_its_root_and_the_subclasses_derived_from_it() -> None:
    ctx = context(CLASSES.replace("EXTRA", ""), HEADER)
    assert root_class(ctx, "Leaf") == root_class(ctx, "Task") == "Base"
    assert family(ctx, "Leaf") == family(ctx, "Base") == ("Base", "Task", "Leaf")
    assert family(ctx, "Other") == ("Other",)
    assert open_family(ctx, "Base") is None
    assert closed_class(ctx, "Leaf", "x") is None


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("class Mixed(Other, Task):\n    pass\n", "`Mixed` at line 24 derives from `Task`"),
        (
            "def make():\n    class Local(Base):\n        pass\n",
            "`Local` at line 25 derives from `Base`",
        ),
        ("@dataclass\nclass Data(Leaf):\n    pass\n", "`Data` at line 25 derives from `Leaf`"),
        ("class Task(Base):\n    pass\n", "`Task` at line 11 derives from `Base`"),  # rebound
    ],
)
def test_a_class_derived_another_way_leaves_the_family_open(extra: str, reason: str) -> None:
    ctx = context(CLASSES.replace("EXTRA", extra), HEADER)
    assert (open_family(ctx, "Task") or "").startswith(reason), open_family(ctx, "Task")
    assert (closed_class(ctx, "Base", "x") or "").startswith(reason)


def test_a_subclass_method_is_read_as_the_class_s_own() -> None:
    keeps = "class Keeper(Task):\n    def hook(self):\n        KEEP.append(self)\n"
    ctx = context(CLASSES.replace("EXTRA", keeps), HEADER)
    assert "Keeper" in family(ctx, "Base")
    found = [(u.method.qualname, ctx.code(u.node)) for u in uses(ctx, "Task", "x")]
    assert found == [("Base.__init__", "self.x"), ("Keeper.hook", "self")]
    assert (closed_class(ctx, "Base", "x") or "").startswith(
        "`self` is used other than through its attributes at line 26"
    )
