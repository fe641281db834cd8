"""Equinox modules a compiled body can take nothing from and put nothing into: every
binding builds an object of a module class whose fields are arrays, immutable values
holding no buffer, functions of the module or of jax, sealed layers, or such objects."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.inert_modules import inert_name, why_not_inert

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + (
    "import functools\nimport equinox as eqx\nimport jax.nn as jnn\nimport jax.random as jr\n"
    "import somelib\nfrom flax import nnx\n"
)
CLASSES = """
def lipswish(x):
    return 0.909 * jnn.silu(x)

class Field(eqx.Module):
    scale: int | jax.Array
    mlp: eqx.nn.MLP

    def __init__(self, size, scale, *, key, **kwargs):
        super().__init__(**kwargs)
        scale_key, mlp_key = jr.split(key)
        if scale:
            self.scale = jr.uniform(scale_key, (size,))
        else:
            self.scale = 1
        self.mlp = eqx.nn.MLP(
            size + 1, size, 8, 1, activation=lipswish, final_activation=jnn.tanh, key=mlp_key
        )

class Model(eqx.Module):
    field: Field
    readout: eqx.nn.Linear
    size: int
    name: str

    def __init__(self, size, key, name="model"):
        field_key, readout_key = jr.split(key)
        self.field = Field(size, scale=True, key=field_key)
        self.readout = eqx.nn.Linear(size, 1, key=readout_key)
        self.size = size
        self.name = name

class Boxed(eqx.Module):
    w: jax.Array
    items: list

    def __init__(self, key):
        self.w = jr.normal(key, (3,))
        self.items = []

class Keyed(eqx.Module):
    w: jax.Array
    table: dict

    def __init__(self, key):
        self.w = jr.normal(key, (3,))
        self.table = {"w": self.w}

class Box:
    def __init__(self):
        self.kept = None

class Holding(eqx.Module):
    w: jax.Array
    box: Box

    def __init__(self, key):
        self.w = jr.normal(key, (3,))
        self.box = Box()

class Made(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = somelib.make(key)

class Given(eqx.Module):
    w: jax.Array
    extra: object

    def __init__(self, key, extra):
        self.w = jr.normal(key, (3,))
        self.extra = extra

class Static(eqx.Module):
    w: jax.Array
    cache: list = eqx.field(static=True)

    def __init__(self, key, cache):
        self.w = jr.normal(key, (3,))
        self.cache = cache

class Derived(somelib.Base):
    w: jax.Array

    def __init__(self, key):
        self.w = jr.normal(key, (3,))

class Child(Model):
    pass

class Activated(eqx.Module):
    mlp: eqx.nn.MLP

    def __init__(self, activation, key):
        self.mlp = eqx.nn.MLP(2, 2, 8, 1, activation=activation, key=key)

class Rest(eqx.Module):
    rest: tuple

    def __init__(self, *rest):
        self.rest = rest

class Layer(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 2, rngs=rngs)

@functools.lru_cache
def cached(x):
    return x

def scaled(x, w=jnp.ones(2)):
    return x * w

def main(size, given):
    key = jr.PRNGKey(0)
    w = jnp.ones(2)
    box = Box()
    BIND
    use(m)
"""


def inert(bind: str, classes: str = CLASSES) -> bool:
    ctx = context(classes.replace("BIND", bind), IMPORTS)
    return inert_name(ctx, stmt(ctx, "use(m)"), "m")


@pytest.mark.parametrize(
    "bind",
    [
        "m = Model(3, key)",
        "m = Model(3, key, name='other')",
        "m = Field(3, scale=False, key=key)",
        "m = Activated(lipswish, key)",
        "m = Activated(jnn.relu, key)",
        "m = Given(key, (3, 'a', None))",  # a tuple of immutable values
        "m = Given(key, w)",  # an array: the body sees a tracer
        "m = Given(key, Model(3, key))",
        "m = Model(3, key) if size else Field(3, True, key=key)",
    ],
)
def test_objects_of_inert_classes_built_here(bind: str) -> None:
    assert inert(bind)


@pytest.mark.parametrize(
    "bind",
    [
        "m = Boxed(key)",  # a list field
        "m = Keyed(key)",  # a dict field
        "m = Holding(key)",  # an object of a plain class
        "m = Made(key)",  # a field from a call autoopt cannot see
        "m = Given(key, box)",  # a parameter given a plain object
        "m = Given(key, [w])",  # ... or a list
        "m = Given(key, given)",  # ... or a value of unknown kind
        "m = Given(key, lambda x: x * w)",  # a function closing over a buffer
        "m = Given(key, cached)",  # a decorated function: an object with a cache
        "m = Given(key, scaled)",  # a function whose default is a buffer
        "m = Activated(lambda x: x * w, key)",  # a sealed layer given a closure
        "m = Activated(box, key)",
        "m = Static(key, [])",  # `eqx.field`: a class default autoopt does not read
        "m = Derived(key)",  # a base of another module
        "m = Child(3, key)",  # a base of this module
        "m = Rest(1, 2)",  # `*rest` holds what the call leaves over
        "m = Model(*[3, key])",
        "m = Layer(nnx.Rngs(0))",  # an nnx module is changed in place
        "m = somelib.make_model(key)",  # a model returned by an unknown function
        "m = Model(3, key)\n    m = somelib.wrap(m)",  # bound twice, once to something else
        "m, n = Model(3, key), 1",
    ],
)
def test_anything_else_is_not_proven(bind: str) -> None:
    assert not inert(bind)


def test_a_parameter_is_not_proven() -> None:
    ctx = context(CLASSES.replace("BIND", "pass").replace("main(size,", "main(m, size,"), IMPORTS)
    assert not inert_name(ctx, stmt(ctx, "use(m)"), "m")


@pytest.mark.parametrize(
    "extra",
    [
        "object.__setattr__(box, 'kept', w)",  # a frozen field may be set so
        "setattr(box, 'kept', w)",
        "lipswish.cache = w",  # the function a field holds keeps a buffer
        "lipswish.calls += 1",
    ],
)
def test_code_that_may_change_what_a_field_holds_voids_it(extra: str) -> None:
    bind = f"m = Model(3, key)\n    {extra}"
    assert not inert(bind)


def test_a_class_shadowed_in_the_scope_is_not_read() -> None:
    assert not inert("Model = somelib.Model\n    m = Model(3, key)")


def test_a_global_rebound_by_a_function_is_not_proven() -> None:
    classes = CLASSES + "\ndef reset():\n    global m\n    m = somelib.make()\n"
    assert not inert("m = Model(3, key)", classes)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("m = Model(3, key)\n    use(m)\n    m = somelib.wrap(m)", True),
        # the next iteration reads the wrapped model
        (
            "m = Model(3, key)\n    for _ in range(3):\n"
            "        use(m)\n        m = somelib.wrap(m)",
            False,
        ),
    ],
)
def test_only_the_bindings_that_reach_the_read_count(code: str, expected: bool) -> None:
    ctx = context(CLASSES.replace("BIND\n    use(m)", code), IMPORTS)
    assert inert_name(ctx, stmt(ctx, "use(m)"), "m") is expected


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("m = Model(3, key)", ""),
        (
            "m = Boxed(key)",
            "`m` is bound at line 127 to the result of `Boxed`, not proven an equinox module "
            "of arrays and immutable values",
        ),
        (
            "m = [Model(3, key)][0]",
            "`m` is bound at line 127 to `[Model(3, key)][0]`, not proven an equinox module "
            "of arrays and immutable values",
        ),
        ("pass", "no statement of its scope binds `m`"),
        (
            "m = Model(3, key)\n    box.kept = w",
            "the module sets an attribute at line 128, as it could a function's",
        ),
        (
            "m = Model(3, key)\n    object.__setattr__(box, 'kept', w)",
            "the module names `__setattr__`, which may set a field of a frozen object",
        ),
    ],
)
def test_the_premise_that_fails_is_named(code: str, why: str) -> None:
    ctx = context(CLASSES.replace("BIND", code), IMPORTS)
    assert why_not_inert(ctx, stmt(ctx, "use(m)"), "m") == why


def test_a_name_another_function_rebinds_is_named() -> None:
    classes = CLASSES + "\ndef reset():\n    global m\n    m = somelib.make()\n"
    ctx = context(classes.replace("BIND", "m = Model(3, key)"), IMPORTS)
    why = why_not_inert(ctx, stmt(ctx, "use(m)"), "m")
    assert why == "`m` may be bound other than by the statements of its scope"
