"""Values proven pytrees with no aux data but a dict's keys through how they are bound:
haiku's `init`, an optax state, a named tuple of the module, a `jax.jit` output built
of such, and a loop's fixpoint over them, where nothing changes them in place or hands
them to code that might; anything else unproven."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.aux_free import aux_free

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + ("import typing\nimport haiku as hk\nimport optax\nfrom flax import struct\n")
PROGRAM = """
class State(typing.NamedTuple):
    params: dict
    opt_state: tuple

class Defaulted(typing.NamedTuple):
    params: dict
    count: int = 0

class Registered(typing.NamedTuple):
    params: dict
    opt_state: tuple

jax.tree_util.register_pytree_node(Registered, lambda r: (r, None), lambda a, c: Registered(*c))

@struct.dataclass
class Record:
    x: jax.Array
    obj: object = struct.field(pytree_node=False)

def forward(x):
    return hk.Linear(3)(x)

model = hk.transform(forward)
opt = optax.adam(1e-3)
SHARED = {"w": jnp.ones(3)}

@jax.jit
def probe(*args):
    return 0.0

@jax.jit
def ident(value):
    return value

@jax.jit
def filled(tree, obj):
    tree["extra"] = Record(obj, obj)
    return tree

@jax.jit
def shared(value):
    return SHARED

@jax.jit
def update(params, opt_state, grads):
    updates, opt_state = opt.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state

@jax.jit
def update_state(state, grads):
    updates, opt_state = opt.update(grads, state.opt_state)
    return State(optax.apply_updates(state.params, updates), opt_state)

@jax.jit
def wrap(tree, obj):
    return Record(tree, obj)

def main(key, x, holder, grads, loader):
    params = model.init(key, x)
    opt_state = opt.init(params)
    record = Record(x, holder)
    state = State(params, opt_state)
    BODY
    probe(ARG)
"""

LOOP = """for _ in range(3):
        params, opt_state = update(params, opt_state, grads)
        loss = probe(params, 1)"""


def proven(body: str, arg: str) -> bool:
    code = PROGRAM.replace("BODY", body).replace("ARG", arg)
    ctx = context(code, IMPORTS)
    at = stmt(ctx, f"probe({arg})", "main")
    call = at.node.value  # type: ignore[attr-defined]  # an expression statement
    assert type(call) is cst.Call
    return aux_free(ctx, at, call.args[0].value)


@pytest.mark.parametrize(
    ("body", "arg", "expected"),
    [
        ("pass", "params", True),  # haiku's `init` of a sealed function: dicts of dicts
        ("pass", "opt_state", True),  # adam's `init` of such: tuples, named tuples
        ("pass", "state", True),  # a named tuple of the module given both
        ("pass", "state.params", True),  # a field of it
        ("pass", "(state.params, state.opt_state)", True),
        ("out = ident(params)", "out", True),  # a compiled output: what it returned
        ("params, opt_state = update(params, opt_state, grads)", "params", True),
        ("params, opt_state = update(params, opt_state, grads)", "opt_state", True),
        ("state = update_state(state, grads)", "state.opt_state", True),
        # must not: a record's `pytree_node=False` field is aux data, the caller's object
        ("pass", "record", False),
        ("out = ident(record)", "out", False),  # a compiled output with the argument's
        ("out = wrap(params, holder)", "out", False),  # a record built in the body
        ("out = shared(params)", "out", False),  # a global the body returns
        ("out = filled(params, x)", "out", False),  # a container the body changes
        ("params = loader.next()", "params", False),  # a call autoopt cannot see
        ("state = State(record, opt_state)", "state", False),  # a field given a record
        ("state = Registered(params, opt_state)", "state", False),  # registered: its aux
        ("state = Defaulted(params)", "state", False),  # a default the class holds
        ("pass", "state.count", False),  # no field of `State`
        ("pass", "params.keys", False),  # a dict's method, no field
        # must not: a dict changed in place, or handed to code that might change it
        ("params['extra'] = record", "params", False),
        ("alias = params\n    alias['extra'] = record", "params", False),
        ("loader.keep(params)", "params", False),
        ("stash = [params]\n    stash[0]['extra'] = record", "params", False),
        ("loader.keep(state.params)", "state", False),  # a part handed on
        ("loader.keep(state.params)", "params", False),  # the tuple holds it as given
    ],
)
def test_bindings_prove_a_pytree_without_aux_data(body: str, arg: str, expected: bool) -> None:
    assert proven(body, arg) is expected


def test_a_loop_carried_binding_is_a_fixpoint() -> None:
    """Each binding reaching the read holds, the step's output assumed of the names it
    is given; one binding not proven breaks it."""
    assert proven(LOOP, "params")
    broken = LOOP + "\n        params = loader.next()"
    assert not proven(broken, "params")
    through_record = LOOP.replace("update(params,", "update(ident(record),")
    assert not proven(through_record, "params")
