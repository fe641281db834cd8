"""The arguments of a call of a compiled function whose objects its body sees as the
caller's: `jax.jit`'s static ones, every argument of `eqx.filter_jit` and `nnx.jit` but
data (`nnx.jit`'s static ones first); and the arguments an `nnx.jit` body can only move
variables between (`moved_only`)."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.core.jitted_methods import jitted_methods
from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.jit_arguments import as_is, moved_only

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + (
    "import functools\nimport equinox as eqx\nfrom flax import nnx\nfrom flax import struct\n"
)
PROGRAM = """
STATIC = (0,)

@jax.jit
def plain(a, b):
    return a + b

@functools.partial(jax.jit, static_argnums=(0, 2))
def by_position(a, b, c, d=1):
    return b

@functools.partial(jax.jit, static_argnames=("c",))
def by_name(a, b, c):
    return b

@functools.partial(jax.jit, static_argnums=STATIC)
def unread(a, b):
    return b

@eqx.filter_jit
def filtered(a, b, c, d):
    return b

@nnx.jit
def written_back(a, b):
    return b

@functools.partial(nnx.jit, static_argnums=(1,))
def nnx_static(a, b):
    return a

def main(holder, box, n):
    x = jnp.ones(3)
    CALL
"""


def seen(call: str) -> list[str] | None:
    ctx = context(PROGRAM.replace("CALL", call), IMPORTS)
    at = stmt(ctx, call)
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    name = node.func.value
    jitted = next(j for j in jitted_callables(ctx, frameworks=True) if j.name == name)
    found = as_is(ctx, at, node, jitted, bound=False)
    return None if found is None else [ctx.code(e) for e in found]


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        # every leaf an array or the call raises, but a pytree's aux data (a
        # `flax.struct` field with `pytree_node=False`) is the caller's object in the body
        ("plain(holder, box)", ["holder", "box"]),
        ("plain(x, 3)", []),  # an array, a number: no aux data
        ("plain((x, x), {'w': x})", []),  # a tuple, a dict of arrays: no object in aux data
        ("plain([x, holder], x)", ["[x, holder]"]),  # a list holding what may be a pytree
        ("plain(n, x)", ["n"]),  # of a kind not proven
        ("by_position(holder, x, box)", ["holder", "box"]),
        ("by_position(holder, box, x)", ["holder", "box", "x"]),  # `box` not static: aux data
        ("by_position(holder, x, c=box)", ["holder", "box"]),  # a static position by name
        ("by_position(holder, *[x, box])", ["holder", "[x, box]"]),  # starred: every one
        ("by_name(x, x, box)", ["box"]),  # a static name by position
        ("by_name(x, x, c=box)", ["box"]),
        ("unread(holder, box)", ["holder", "box"]),  # an option autoopt cannot read
        ("filtered(holder, x, 3, 'a')", ["holder"]),  # arrays, numbers, strings: data
        ("filtered(holder, box, n, None)", ["holder", "box", "n"]),  # `n` of unknown kind
        # `nnx.jit`: a graph object's plain attributes are the caller's objects in the body
        ("written_back(holder, box)", ["holder", "box"]),
        ("written_back(x, 3)", []),  # an array and a number: a tracer each
        ("nnx_static(holder, x)", ["x", "holder"]),  # a static argument, whatever it is
        ("nnx_static(x, *[box])", ["x", "[box]"]),  # starred: every one
    ],
)
def test_the_arguments_a_compiled_body_sees_as_they_are(call: str, expected: list | None) -> None:
    assert seen(call) == expected


GAN = """
class GAN:
    def __init__(self, n):
        self.n = n

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, state, batch):
        return state

gan = GAN(3)

def main(state, batch):
    gan.update(state, batch)
"""


def test_a_jitted_method_sees_its_instance_as_it_is() -> None:
    ctx = context(GAN, IMPORTS)
    at = stmt(ctx, "gan.update(state, batch)")
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    (jitted,) = jitted_methods(ctx)
    found = [ctx.code(e) for e in as_is(ctx, at, node, jitted, bound=True) or []]
    # and `state`, `batch`, of kinds not proven, whose pytrees' aux data the body sees too
    assert found == ["gan", "state", "batch"]


LINKS = """
class Holder:
    pass

@eqx.filter_jit
def probe(holder, box, x):
    box.kept = holder.w
    return x

@eqx.filter_jit
def total(a, b):
    return jnp.sum(a * b)

@struct.dataclass
class Record:
    x: jax.Array
    obj: object = struct.field(pytree_node=False)

@jax.jit
def moves(source, target):
    target.obj.kept = source.obj.w
    return source.x

@jax.jit
def adds(a, b):
    return a[0] + b["w"]

def main(params, box, other):
    holder = Holder()
    holder.w = params
    CALL
"""


@pytest.mark.parametrize(
    ("call", "joined"),
    [
        # the body may store what `holder` holds outside its array leaves on `box`
        ("probe(holder, box, 1.0)", True),
        # given arrays only, the body sees tracers: nothing to join
        ("probe(jnp.ones(3), jnp.zeros(3), 1.0)", False),
        # a body proven to keep nothing and store nothing, given data and `box`
        ("total(jnp.ones(3), box)", False),
        # `jax.jit`: a record's `pytree_node=False` field is its aux data, the caller's
        # object in the body, which may store what one holds on another
        ("moves(Record(jnp.ones(3), holder), Record(jnp.ones(3), box))", True),
        ("moves(holder, box)", True),  # of kinds not proven: pytrees, maybe
        # a tuple and a dict of arrays carry no object in their aux data
        ("adds((jnp.ones(3), params), {'w': jnp.ones(3)})", False),
    ],
)
def test_a_compiled_call_joins_only_what_its_body_sees_as_it_is(call: str, joined: bool) -> None:
    sharing = Sharing(context(LINKS.replace("CALL", call), IMPORTS), "main")
    assert sharing.may_share("box", "params") is joined


MODULES = """
class Model(eqx.Module):
    w: jax.Array
    n: int

    def __init__(self, n, key):
        self.w = jax.random.normal(key, (n,))
        self.n = n

class Boxed(eqx.Module):
    w: jax.Array
    box: list

    def __init__(self, key):
        self.w = jax.random.normal(key, (3,))
        self.box = []

@eqx.filter_jit
def filtered(a, b):
    return a.w

@functools.partial(jax.jit, static_argnums=(0, 1))
def static(a, b):
    return a.w

def main(key):
    model = Model(3, key)
    boxed = Boxed(key)
    CALL
"""


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        # tracers of `w`, and `n`, a number: the body sees nothing of the caller's
        ("filtered(model, boxed)", ["boxed"]),
        ("filtered(a=model, b=boxed)", ["boxed"]),
        # `jax.jit` hands a static argument on as it is, the object itself
        ("static(model, boxed)", ["model", "boxed"]),
    ],
)
def test_an_inert_module_is_no_object_the_body_sees(call: str, expected: list[str]) -> None:
    ctx = context(MODULES.replace("CALL", call), IMPORTS)
    at = stmt(ctx, call)
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    name = node.func.value
    jitted = next(j for j in jitted_callables(ctx, frameworks=True) if j.name == name)
    assert [ctx.code(e) for e in as_is(ctx, at, node, jitted, bound=False) or []] == expected


MOVES = """
class Plain:
    def __init__(self, w):
        self.w = w

class Layer(nnx.Module):
    def __init__(self, n, w, *, rngs):
        self.n = n
        self.p = nnx.Param(w)
        self.dense = nnx.Linear(n, 3, rngs=rngs)

class Net(nnx.Module):
    def __init__(self, shape, rngs):
        size = shape[0] * shape[1]
        self.layer = Layer(size, jnp.zeros(3), rngs=rngs)
        self.rngs = rngs
        self.stack = nnx.Sequential(nnx.Linear(size, 2, rngs=rngs), nnx.LayerNorm(2, rngs=rngs))

class Holder(nnx.Module):
    def __init__(self, w):
        self.obj = STORED

class Ident(nnx.Module):
    def __init__(self):
        self.skip = lambda x: x

@nnx.jit
def probe(a, b, x):
    return x

def main(params, unknown):
    model = Net((2, 3), nnx.Rngs(0, noise=1))
    optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))
    layer = Layer(4, params, rngs=nnx.Rngs(0))
    holder = Holder(params)
    metrics = nnx.MultiMetric(accuracy=nnx.metrics.Accuracy(), loss=nnx.metrics.Average("loss"))
    ident = Ident()
    x = jnp.ones(3)
    EXTRA
    CALL
"""


def moved(call: str, stored: str = "0", extra: str = "pass", header: str = "") -> list | None:
    code = MOVES.replace("CALL", call).replace("STORED", stored).replace("EXTRA", extra)
    ctx = context(header + code, IMPORTS + "import optax\n")
    at = stmt(ctx, call)
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    jitted = next(j for j in jitted_callables(ctx, frameworks=True) if j.name == node.func.value)
    return moved_only(ctx, at, node, jitted)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        # variables, layers given sizes, `rngs`, a Sequential, a module of the file given
        # sizes computed from a literal shape, an optimizer of it built from numbers
        ("probe(model, optimizer, x)", ["model", "optimizer"]),
        ("probe(layer, x, 1.0)", ["layer"]),
        ("probe(model, holder, x)", ["model", "holder"]),  # `Holder` stores a number
        ("probe(model, metrics, x)", ["model", "metrics"]),  # metrics of library classes
        ("probe(model, ident, x)", ["model", "ident"]),  # `Ident` stores `lambda x: x`
        ("probe(model, unknown, x)", None),  # a parameter: any object
        ("probe(model, Net((2, 3), nnx.Rngs(0)), x)", None),  # not a name
    ],
)
def test_an_nnx_jit_given_graph_objects_keeping_no_buffer_can_only_move_variables(
    call: str, expected: list | None
) -> None:
    assert moved(call) == expected


@pytest.mark.parametrize(
    "stored",
    [
        "Plain(w)",  # a plain object of the program: the caller's own, holding `w`
        "[]",  # a list (an array may be appended to it, in place)
        "{}",  # a dict
        "w",  # an array kept as it is
        "lambda x: x + w",  # a function, closing over `w`
        "lambda x, v=w: x + v",  # a function whose default holds `w`
        "lambda x: x + TABLE",  # a function reading a global
        "nnx.MultiMetric(loss=Plain(w))",  # a collection of a plain object
        "nnx.MultiMetric(nnx.metrics.Average())",  # given by position: not read
        "nnx.metrics.Average(w)",  # an argument name that may be an array
        "nnx.Param(w, sharding=w)",  # a variable's metadata is static
        "nnx.Linear(2, 3, kernel_init=w, rngs=nnx.Rngs(0))",  # an initializer
        "nnx.Linear(w, 3, rngs=nnx.Rngs(0))",  # a size given as an array is kept
        "nnx.Rngs(w)",  # a seed that may be an array
        "nnx.MultiHeadAttention(2, 4, rngs=nnx.Rngs(0))",  # a layer not listed
        "Other(w)",  # a class of another module
    ],
)
def test_a_module_storing_what_may_carry_a_buffer_is_linked(stored: str) -> None:
    header = "from other import Other\n"
    assert moved("probe(holder, model, x)", stored, header=header) is None


@pytest.mark.parametrize(
    "extra",
    [
        "model.extra = Plain(params)",  # an attribute set after construction
        "model.layer.p.value = params",  # any attribute store: its object is unknown
        "setattr(model, 'extra', Plain(params))",
        "vars(model)['extra'] = params",
        "model.__dict__['extra'] = params",
        "model.set_attributes(extra=params)",
        "del model.rngs",
        "for model.n in range(3): pass",
        "model.layer.p.set_metadata('extra', Plain(params))",  # metadata: in the graphdef
        "nnx.update(model, unknown)",
        "Layer.__init__(model, 2, params, rngs=nnx.Rngs(0))",  # an `__init__` on `model`
    ],
)
def test_an_attribute_set_anywhere_but_a_read_init_voids_the_proof(extra: str) -> None:
    assert moved("probe(model, optimizer, x)", extra=extra) is None


@pytest.mark.parametrize(
    ("stmt_text", "call"),
    [
        # an optimizer given a transformation not listed, or a learning rate not a number
        # (a chain of listed ones holds no buffer: `overlays/optax.py`, `BUFFERLESS_CHAINS`)
        ("optimizer = nnx.ModelAndOptimizer(model, optax.chain(optax.lamb(1e-3)))", None),
        ("optimizer = nnx.ModelAndOptimizer(model, optax.chain(optax.adam(params)))", None),
        ("optimizer = nnx.ModelAndOptimizer(model, optax.adam(params))", None),
        ("optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3), wrt=unknown)", None),
        # a model built from an array size, or an `rngs` that may be anything
        ("model = Net((2, unknown), nnx.Rngs(0))", None),
        ("model = Net((2, 3), unknown)", None),
    ],
)
def test_a_construction_not_proven_voids_the_proof(stmt_text: str, call: None) -> None:
    line = stmt_text.split(" = ")[0]
    code = MOVES.replace(f"    {line} = ", f"    {stmt_text}\n    _old_{line} = ", 1)
    code = code.replace("CALL", "probe(model, optimizer, x)").replace("STORED", "0")
    ctx = context(code.replace("EXTRA", "pass"), IMPORTS + "import optax\n")
    at = stmt(ctx, "probe(model, optimizer, x)")
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    jitted = next(j for j in jitted_callables(ctx, frameworks=True) if j.name == "probe")
    assert moved_only(ctx, at, node, jitted) is call


def test_a_static_argument_voids_the_proof() -> None:
    code = MOVES.replace("@nnx.jit\n", "@functools.partial(nnx.jit, static_argnums=(2,))\n")
    ctx = context(
        code.replace("CALL", "probe(model, optimizer, 1)")
        .replace("STORED", "0")
        .replace("EXTRA", "pass"),
        IMPORTS + "import optax\n",
    )
    at = stmt(ctx, "probe(model, optimizer, 1)")
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    (jitted,) = [j for j in jitted_callables(ctx, frameworks=True) if j.name == "probe"]
    assert moved_only(ctx, at, node, jitted) is None


def test_a_module_class_deriving_from_another_module_s_class_is_linked() -> None:
    code = MOVES.replace("class Holder(nnx.Module):", "class Holder(Base):")
    code = code.replace("CALL", "probe(holder, model, x)").replace("STORED", "0")
    ctx = context("from other import Base\n" + code.replace("EXTRA", "pass"), IMPORTS)
    at = stmt(ctx, "probe(holder, model, x)")
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    (jitted,) = [j for j in jitted_callables(ctx, frameworks=True) if j.name == "probe"]
    assert moved_only(ctx, at, node, jitted) is None


NNX_LINKS = """
class Plain:
    def __init__(self, w):
        self.w = w

class Holder(nnx.Module):
    def __init__(self, w):
        self.obj = Plain(w)

class Layer(nnx.Module):
    def __init__(self, w):
        self.p = nnx.Param(w)

@nnx.jit
def probe(a, b):
    move(a, b)  # code autoopt cannot see: it may move a variable of one onto the other

def main(params):
    x = jnp.ones(3)
    holder = Holder(params)
    layer = Layer(jnp.zeros(3))
    other = Layer(jnp.zeros(3))
    layer.p.set_value(params)
    CALL
"""


@pytest.mark.parametrize(
    ("call", "pair", "joined", "without_moves"),
    [
        # `holder`'s plain object holds `params`' buffer, the caller's own in the body
        ("probe(holder, other)", ("other", "params"), True, True),
        # the body may move `layer`'s variable, holding `params`, onto `other` (h1585)
        ("probe(layer, other)", ("other", "params"), True, False),
        ("probe(layer, other)", ("other", "layer"), True, False),
        # one graph object and an array: nothing to move it to, nothing kept
        ("probe(other, x)", ("other", "x"), False, False),
    ],
)
def test_an_nnx_jit_call_joins_what_its_body_may_move_or_keep(
    call: str, pair: tuple[str, str], joined: bool, without_moves: bool
) -> None:
    ctx = context(NNX_LINKS.replace("CALL", call), IMPORTS + "from other import move\n")
    assert Sharing(ctx, "main").may_share(*pair) is joined
    assert Sharing(ctx, "main", moves=False).may_share(*pair) is without_moves


@pytest.mark.parametrize(
    "init",
    [
        "if w is None:\n            n = 3\n        self.obj = n",  # the parameter on one path
        "n = Plain(n)\n        self.obj = n",  # a parameter bound again
        # a field stored from a parameter later bound again, read as a layer's size
        "self.k = n\n        n = Plain(n)\n        self.obj = nnx.Linear(self.k, 2, rngs=R)",
    ],
)
def test_a_parameter_bound_again_in_init_is_not_what_the_call_gives(init: str) -> None:
    code = MOVES.replace(
        "    def __init__(self, w):\n        self.obj = STORED",
        "    def __init__(self, w, n=1):\n        " + init,
    )
    code = code.replace("CALL", "probe(holder, model, x)").replace("EXTRA", "pass")
    ctx = context("R = nnx.Rngs(0)\n" + code, IMPORTS + "import optax\n")
    at = stmt(ctx, "probe(holder, model, x)")
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    (jitted,) = [j for j in jitted_callables(ctx, frameworks=True) if j.name == "probe"]
    assert moved_only(ctx, at, node, jitted) is None


FIELDS = """
class Schedule:
    def __init__(self, steps, given):
        self.rates = jnp.linspace(0.0, 1.0, steps)
        self.given = given

class Based(Schedule):
    pass

@nnx.jit
def step(model, rates):
    return rates

def main(model, box):
    schedule = Schedule(3, box)
    based = Based(3, box)
    EXTRA
    CALL
"""


@pytest.mark.parametrize(
    ("call", "extra", "expected"),
    [
        ("step(model, schedule.rates)", "pass", ["model"]),  # an array its `__init__` stores
        ("step(model, schedule.given)", "pass", ["model", "schedule.given"]),  # any object
        ("step(model, schedule.rates)", "schedule.rates = box", ["model", "schedule.rates"]),
        (
            "step(model, schedule.rates)",
            "setattr(schedule, 'rates', box)",
            ["model", "schedule.rates"],
        ),
        ("step(model, based.rates)", "pass", ["model", "based.rates"]),  # a class with a base
    ],
)
def test_a_field_a_plain_class_stores_an_array_in_is_data(
    call: str, extra: str, expected: list[str]
) -> None:
    ctx = context(FIELDS.replace("CALL", call).replace("EXTRA", extra), IMPORTS)
    at = stmt(ctx, call)
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    (jitted,) = [j for j in jitted_callables(ctx, frameworks=True) if j.name == "step"]
    assert [ctx.code(e) for e in as_is(ctx, at, node, jitted, bound=False) or []] == expected


def test_an_nnx_jit_wrapper_bound_to_a_name_joins_the_same() -> None:
    code = NNX_LINKS.replace("@nnx.jit\ndef probe(a, b):", "def _probe(a, b):")
    code = code.replace("def main(params):", "probe = nnx.jit(_probe)\n\ndef main(params):")
    ctx = context(
        code.replace("CALL", "probe(holder, other)"), IMPORTS + "from other import move\n"
    )
    assert Sharing(ctx, "main").may_share("other", "params")


@pytest.mark.parametrize(
    "extra", ["model.layer.p.value = jnp.zeros(3)", "model.layer.n = 4", "model.rngs.tag = 'a'"]
)
def test_an_array_or_a_number_stored_as_an_attribute_keeps_the_proof(extra: str) -> None:
    """A JAX array is a variable's value or a module's leaf, a number holds no buffer."""
    assert moved("probe(model, optimizer, x)", extra=extra) == ["model", "optimizer"]


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("schedule = Sched()\n    schedule.pin(params)", ["model", "optimizer"]),  # its own `self`
        ("Sched.pin(model, params)", None),  # an unbound method, called on `model`
        ("getattr(Sched, 'pin')(model, params)", None),
        ("getattr(Sched, unknown)(model, params)", None),
    ],
)
def test_a_method_storing_through_self_stores_on_its_own_objects_only(
    extra: str, expected: list | None
) -> None:
    header = "class Sched:\n    def __init__(self):\n        self.w = 0\n\n"
    header += "    def pin(self, w):\n        self.w = w\n\n"
    assert moved("probe(model, optimizer, x)", extra=extra, header=header) == expected
