"""The equinox overlay, checked against the installed equinox."""

from __future__ import annotations

import dataclasses
import gc
import inspect
import sys
import typing
import weakref

import equinox as eqx
import jax
import jax.numpy as jnp
import pytest

from autoopt.analysis.overlays import equinox as eqx_api
from tests.analysis.overlays import fresh_leaves, leaves_equal, pointers, resolve, snapshot

X = jnp.arange(3.0)
KEY = jax.random.key(0)


class Linear(eqx.Module):
    weight: jax.Array
    activation: typing.Callable = jnp.tanh

    def __call__(self, x):
        return self.activation(self.weight * x)


MODEL = Linear(jnp.ones(3))


def loss(model, x):
    return jnp.sum(model(x))


def test_names_exist() -> None:
    names = (eqx_api.TRANSFORMS | eqx_api.PURE_CALLS | set(eqx_api.SAME_STRUCTURE)
             | set(eqx_api.ALIASING) | eqx_api.MODULE_BASES
             | set(eqx_api.DONATE_OPTION))  # fmt: skip
    assert [n for n in sorted(names) if not resolve(n)] == []
    assert set(eqx_api.DONATE_OPTION) <= eqx_api.JIT_LIKE
    assert eqx_api.CACHING_JITS <= eqx_api.JIT_LIKE


def test_donate_spellings_are_the_signature_s() -> None:
    for name, option in eqx_api.DONATE_OPTION.items():
        parameter = inspect.signature(resolve_object(name)).parameters[option]
        assert "all" in typing.get_args(parameter.annotation) and parameter.default == "none"
    filter_jit = inspect.signature(eqx.filter_jit).parameters["donate"]
    assert set(typing.get_args(filter_jit.annotation)) == set(eqx_api.DONATE_MODES) | {"none"}
    assert filter_jit.default == "none"


def resolve_object(qual: str):
    assert resolve(qual)
    return getattr(eqx, qual.rsplit(".", 1)[1])


def test_filter_jit_compiles_once_with_non_arrays_static() -> None:
    traces = []
    (caching,) = eqx_api.CACHING_JITS

    @resolve_object(caching)
    def step(model, x, n):
        traces.append(n)
        assert isinstance(x, jax.core.Tracer) and type(n) is int
        return model(x) * n

    first = step(MODEL, X, 2)
    assert leaves_equal(first, step(MODEL, X + 1.0, 2) - step(MODEL, X + 1.0, 2) + first)
    assert traces == [2]
    step(MODEL, X, 3)  # a new static value: a new trace
    assert traces == [2, 3]


@pytest.mark.parametrize("mode", sorted(eqx_api.DONATE_MODES))
def test_donate_modes_donate_the_arguments_claimed(mode: str) -> None:
    step = eqx.filter_jit(lambda a, b: (a + 1.0, b + 1.0), donate=mode)
    a, b = jnp.ones(3), jnp.ones(3)
    step(a, b)
    assert a.is_deleted() is eqx_api.DONATE_MODES[mode]
    assert b.is_deleted()


@pytest.mark.parametrize("by_keyword", [False, True])
def test_keeps_first_keeps_a_packed_first_argument(by_keyword: bool) -> None:
    """`KEEPS_FIRST`: the first parameter's arrays are kept, a tuple's every one, also
    when the call passes it by keyword; the others are donated."""
    step = eqx.filter_jit(lambda kept, w: w + kept[0] * kept[1], donate=eqx_api.KEEPS_FIRST)
    xs, ys, w = jnp.ones(3), jnp.full(3, 2.0), jnp.zeros(3)
    out = step(w=w, kept=(xs, ys)) if by_keyword else step((xs, ys), w)
    assert not xs.is_deleted() and not ys.is_deleted() and w.is_deleted()
    assert float(out.sum()) == 6.0


@pytest.mark.parametrize("name", sorted(eqx_api.GRAD_LIKE | eqx_api.VALUE_AND_GRAD_LIKE))
def test_grads_are_shaped_like_the_first_argument(name: str) -> None:
    transform = resolve_object(name)
    grads = transform(loss)(MODEL, X)
    if name in eqx_api.VALUE_AND_GRAD_LIKE:
        value, grads = grads
        assert value.shape == ()
    assert jax.tree.structure(eqx.filter(grads, eqx.is_array)) == jax.tree.structure(
        eqx.filter(MODEL, eqx.is_array)
    )


def test_vmap_and_checkpoint_trace() -> None:
    (vmap,) = eqx_api.VMAP_LIKE
    (checkpoint,) = eqx_api.REMAT_LIKE
    batched = resolve_object(vmap)(lambda x: x * 2.0)(jnp.ones((4, 3)))
    assert batched.shape == (4, 3)
    assert jnp.allclose(resolve_object(checkpoint)(loss)(MODEL, X), loss(MODEL, X))


def test_pure_calls_are_pure_and_keep_structure() -> None:
    updates = Linear(jnp.full(3, 0.5), None)
    before = snapshot((MODEL, updates))
    calls = {
        "equinox.apply_updates": lambda: eqx.apply_updates(MODEL, updates),
        "equinox.filter": lambda: eqx.filter(MODEL, eqx.is_array),
        "equinox.partition": lambda: eqx.partition(MODEL, eqx.is_array),
        "equinox.combine": lambda: eqx.combine(*eqx.partition(MODEL, eqx.is_array)),
        "equinox.is_array": lambda: eqx.is_array(X),
        "equinox.is_inexact_array": lambda: eqx.is_inexact_array(X),
        "equinox.tree_at": lambda: eqx.tree_at(lambda m: m.weight, MODEL, X),
    }
    assert set(calls) == eqx_api.PURE_CALLS
    for name, run in calls.items():
        assert leaves_equal(run(), run()), name
        assert leaves_equal(before, snapshot((MODEL, updates))), name
    args = {"equinox.apply_updates": (MODEL, updates), "equinox.combine": (MODEL,),
            "equinox.tree_at": (None, MODEL)}  # fmt: skip
    for name, (at,) in eqx_api.SAME_STRUCTURE.items():
        assert jax.tree.structure(calls[name]()) == jax.tree.structure(args[name][at]), name


def test_aliasing_calls_may_keep_an_argument_s_buffers() -> None:
    kept = eqx.apply_updates(MODEL, Linear(None, None))  # an update of None keeps the leaf
    assert pointers(kept) == pointers(MODEL)
    assert pointers(eqx.filter(MODEL, eqx.is_array)) == pointers(MODEL)
    assert pointers(eqx.partition(MODEL, eqx.is_array)[0]) == pointers(MODEL)
    at = eqx.tree_at(lambda m: m.activation, MODEL, jnp.sin)
    assert pointers(at) == pointers(MODEL)
    assert not pointers(eqx.apply_updates(MODEL, Linear(X, None))) & pointers(MODEL)


def test_modules_are_immutable_pytrees() -> None:
    (base,) = eqx_api.MODULE_BASES
    assert resolve_object(base) is eqx.Module
    with pytest.raises(dataclasses.FrozenInstanceError):
        MODEL.weight = X
    fields = [id(MODEL.weight), id(MODEL.activation)]
    assert [id(leaf) for leaf in jax.tree.leaves(MODEL)] == fields


#: Each listed layer constructor, built small from `KEY`.
LAYERS = {
    "equinox.nn.Linear": lambda: eqx.nn.Linear(3, 2, key=KEY),
    "equinox.nn.MLP": lambda: eqx.nn.MLP(3, 2, 8, 2, key=KEY),
    "equinox.nn.Conv2d": lambda: eqx.nn.Conv2d(1, 2, 3, key=KEY),
    "equinox.nn.LayerNorm": lambda: eqx.nn.LayerNorm(3),
    "equinox.nn.Embedding": lambda: eqx.nn.Embedding(5, 3, key=KEY),
    "equinox.nn.GRUCell": lambda: eqx.nn.GRUCell(3, 4, key=KEY),
    "equinox.nn.LSTMCell": lambda: eqx.nn.LSTMCell(3, 4, key=KEY),
    "equinox.nn.ConvTranspose2d": lambda: eqx.nn.ConvTranspose2d(2, 1, 3, key=KEY),
}


@pytest.mark.parametrize("name", sorted(eqx_api.FRESH_RESULTS))
def test_layer_constructors_make_new_buffers_none_twice(name: str) -> None:
    assert resolve(name) and set(LAYERS) == eqx_api.FRESH_RESULTS
    layer = LAYERS[name]()
    assert jax.tree.leaves(eqx.filter(layer, eqx.is_array))
    assert fresh_leaves(layer, KEY)


@pytest.mark.parametrize("name", sorted(eqx_api.ARRAYLESS_LAYERS))
def test_a_pooling_layer_holds_no_array(name: str) -> None:
    """`ARRAYLESS_LAYERS`: given sizes and flags, no array among its leaves nor its
    static fields (a number and a `lax` function are its only leaves)."""
    assert resolve(name)
    layer = getattr(eqx.nn, name.rsplit(".", 1)[1])(2, stride=1, padding=1, use_ceil=True)
    assert not jax.tree.leaves(eqx.filter(layer, eqx.is_array))
    parts = jax.tree.leaves(list(vars(layer).values()))
    assert not [p for p in parts if eqx.is_array(p)]
    assert {type(p) for p in jax.tree.leaves(layer)} <= {int, float, type(jax.lax.max)}


def test_a_layer_given_its_weight_keeps_that_buffer() -> None:
    """Why a listed layer is fresh only when not given the array `HELD_ARGUMENTS` names."""
    table = jnp.ones((5, 3))
    assert pointers(eqx.nn.Embedding(weight=table)) == pointers(table)


@pytest.mark.parametrize("mode", ["all", "all-except-first"])
def test_filter_jit_donates_only_array_leaves(mode: str) -> None:
    """`DONATES_ONLY_ARRAYS`: a function (closing over an array), an optax optimizer
    and a number passed to a donating `filter_jit` stay usable; the array is donated."""
    import optax

    kept = jnp.arange(4.0)

    def scale(v):
        return v * kept

    optimizer = optax.adam(0.1)
    assert {"equinox.filter_jit"} == eqx_api.DONATES_ONLY_ARRAYS
    step = eqx.filter_jit(lambda n, x, f, opt: f(x) + n, donate=mode)
    x = jnp.ones(4)
    out = step(2.0, x, scale, optimizer)
    assert x.is_deleted()
    assert not kept.is_deleted() and float(scale(jnp.ones(4)).sum()) == 6.0
    assert optimizer.init(jnp.ones(2)) is not None and float(out.sum()) == 14.0

    (keyword, position) = eqx_api.HELD_ARGUMENTS["equinox.nn.Embedding"]
    assert list(inspect.signature(eqx.nn.Embedding).parameters)[position] == keyword


#: Each listed layer given its sizes as arrays where it takes them: they are static
#: fields, no leaf of the layer (a layer is fresh whatever its sizes and flags).
SIZES = jnp.array(2), jnp.array(3), jnp.array(4), jnp.array(1)
SIZED = {
    "equinox.nn.Linear": lambda n: eqx.nn.Linear(n[0], n[1], key=KEY),
    "equinox.nn.MLP": lambda n: eqx.nn.MLP(n[0], n[1], n[2], n[3], key=KEY),
    "equinox.nn.Conv2d": lambda n: eqx.nn.Conv2d(n[0], n[1], n[0], key=KEY),
    "equinox.nn.LayerNorm": lambda n: eqx.nn.LayerNorm(3, eps=n[3]),
    "equinox.nn.Embedding": lambda n: eqx.nn.Embedding(n[0], n[1], key=KEY),
    "equinox.nn.GRUCell": lambda n: eqx.nn.GRUCell(n[0], n[1], key=KEY),
    "equinox.nn.LSTMCell": lambda n: eqx.nn.LSTMCell(n[0], n[1], key=KEY),
    "equinox.nn.ConvTranspose2d": lambda n: eqx.nn.ConvTranspose2d(n[0], n[1], n[0], key=KEY),
}


@pytest.mark.parametrize("name", sorted(eqx_api.FRESH_RESULTS))
def test_a_layer_keeps_no_array_but_its_own(name: str) -> None:
    assert set(SIZED) == eqx_api.FRESH_RESULTS
    layer = SIZED[name](SIZES)
    assert fresh_leaves(layer, KEY, SIZES)


def test_an_mlp_copies_a_module_activation() -> None:
    """`activation=` is kept per layer as a copy: the MLP shares no buffer with it."""
    activation = eqx.nn.PReLU()
    mlp = eqx.nn.MLP(2, 3, 4, 1, activation=activation, key=KEY)
    assert fresh_leaves(mlp, KEY, activation)


#: Each layer that holds its arguments, built from `KEY` and the arguments it is given.
WRAPPED = eqx.nn.Linear(3, 4, key=KEY)
HOLDING = {
    "equinox.nn.BatchNorm": lambda key: eqx.nn.BatchNorm(3, "batch"),  # the default mode, "ema"
    "equinox.nn.SpectralNorm": lambda key: eqx.nn.SpectralNorm(WRAPPED, "weight", key=key),
}


@pytest.mark.parametrize("name", sorted(eqx_api.UNKEPT_OBJECTS))
def test_nothing_else_keeps_a_layer_or_its_arguments(name: str) -> None:
    """Dropped, a layer is freed, and its key holds no more references than before."""
    key = jax.random.key(1)
    before = sys.getrefcount(key)
    layer = HOLDING[name](key) if name in HOLDING else LAYERS[name]()
    ref = weakref.ref(layer)
    made = None if name in HOLDING else SIZED[name](SIZES)
    del layer, made
    gc.collect()
    assert ref() is None and sys.getrefcount(key) == before


@pytest.mark.parametrize("name", sorted(eqx_api.HOLDING_LAYERS))
def test_a_holding_layer_has_new_buffers_and_its_arguments_only(name: str) -> None:
    """`HOLDING_LAYERS`: the leaves are the very buffers of the arguments (the wrapped
    layer) and new buffers, none twice and none of the key's; their states' initial
    values are among them."""
    assert resolve(name) and set(HOLDING) == eqx_api.HOLDING_LAYERS
    layer = HOLDING[name](KEY)
    found = [x for x in jax.tree.leaves(layer) if isinstance(x, jax.Array)]
    assert len(found) == len(pointers(found))  # none twice
    new = [x for x in found if x.unsafe_buffer_pointer() not in pointers(WRAPPED)]
    assert new and fresh_leaves(new, KEY, WRAPPED)
    state = eqx.nn.State(layer)
    assert pointers(state) and pointers(state) <= pointers(new)
    assert eqx_api.KEY_ARGUMENT in inspect.signature(eqx.nn.SpectralNorm).parameters


def test_a_spectral_norm_wraps_the_very_layer() -> None:
    """Why the arguments' leaves are the layer's: `SpectralNorm(layer)` keeps `layer`."""
    assert pointers(WRAPPED) <= pointers(eqx.nn.SpectralNorm(WRAPPED, "weight", key=KEY))


class Tied(eqx.Module):
    """A module whose one array is both a field and a state's initial value."""

    w: jax.Array
    index: eqx.nn.StateIndex

    def __init__(self, w, s):
        self.w = w
        self.index = eqx.nn.StateIndex(s)


@pytest.mark.parametrize("maker", sorted(eqx_api.SPLIT_MAKERS))
def test_a_split_maker_returns_the_buffers_of_the_object_made_each_as_often(maker: str) -> None:
    """`SPLIT_MAKERS`: the model and the state hold the buffers the object made holds, each
    in as many leaves (a state made from a field's array holds it a second time), and
    nothing else keeps them."""
    assert resolve(maker)
    split = getattr(eqx.nn, maker.rsplit(".", 1)[1])
    w, s = jnp.ones(3), jnp.zeros(2)
    before = sys.getrefcount(w), sys.getrefcount(s)
    made, state = split(Tied)(w, s)
    leaves = lambda t: [x.unsafe_buffer_pointer() for x in jax.tree.leaves(t)]  # noqa: E731
    assert leaves(made) == leaves(w) and leaves(state) == leaves(s)
    tied, tied_state = split(Tied)(w, w)
    assert leaves(tied) == leaves(tied_state) == leaves(w)  # one buffer in two leaves
    del made, state, tied, tied_state
    gc.collect()
    assert (sys.getrefcount(w), sys.getrefcount(s)) == before


def test_a_state_of_a_model_holds_the_model_s_own_buffers() -> None:
    """`ALIASING`: `eqx.nn.State(model)` (no `make_with_state`) holds the very initial
    values the model keeps: donating both in one call fails (why autoopt links them)."""
    assert "equinox.nn.State" in eqx_api.ALIASING
    norm = eqx.nn.BatchNorm(3, "batch", mode="batch")
    state = eqx.nn.State(norm)
    assert pointers(state) and pointers(state) <= pointers(norm)
    step = eqx.filter_jit(lambda m, st: (m, st), donate="all")
    with pytest.raises(Exception, match="donate"):
        step(norm, state)


class Block(eqx.Module):
    """Every `REMAT_PURE` layer applied once (`MLP` and `Conv2d` on their own shapes)."""

    linear: eqx.nn.Linear
    mlp: eqx.nn.MLP
    conv: eqx.nn.Conv2d
    norm: eqx.nn.LayerNorm
    attention: eqx.nn.MultiheadAttention
    dropout: eqx.nn.Dropout
    embedding: eqx.nn.Embedding

    def __init__(self, key):
        keys = jax.random.split(key, 5)
        self.linear = eqx.nn.Linear(4, 4, key=keys[0])
        self.mlp = eqx.nn.MLP(4, 4, 8, 1, key=keys[1])
        self.conv = eqx.nn.Conv2d(1, 1, 1, key=keys[2])
        self.norm = eqx.nn.LayerNorm(4)
        self.attention = eqx.nn.MultiheadAttention(1, 4, key=keys[3])
        self.dropout = eqx.nn.Dropout(0.5)
        self.embedding = eqx.nn.Embedding(3, 4, key=keys[4])

    def __call__(self, x, *, key, enable_dropout=True):
        z = jax.vmap(self.linear)(x) + jax.vmap(self.mlp)(x) + self.embedding(jnp.int32(1))
        z = self.conv(z[None])[0] + self.attention(z, z, z)
        z = self.dropout(jax.vmap(self.norm)(z), inference=not enable_dropout, key=key)
        return x + jnp.tanh(z)


def test_filter_checkpoint_of_a_layer_keeps_outputs_and_gradients() -> None:
    """`REMAT`, `REMAT_PURE`: `filter_checkpoint(layer)(x, ...)` in a loop of layers
    gives `layer(x, ...)`'s outputs and gradients; a bool argument stays static."""
    checkpoint = resolve_object(eqx_api.REMAT)
    layers = [Block(k) for k in jax.random.split(KEY, 3)]
    x = jax.random.normal(KEY, (5, 4))

    def loss(layers, wrap):
        h = x
        for i, layer in enumerate(layers):
            h = wrap(layer)(h, key=jax.random.key(i), enable_dropout=True)
        return jnp.sum(h**2)

    value, grads = eqx.filter_value_and_grad(loss)(layers, lambda f: f)
    value_r, grads_r = eqx.filter_value_and_grad(loss)(layers, checkpoint)
    assert value == value_r
    close = jax.tree.map(lambda a, b: jnp.allclose(a, b, rtol=1e-5), grads, grads_r)
    assert jax.tree.all(close)
    assert [n for n in sorted(eqx_api.REMAT_PURE) if not resolve(n)] == []


@pytest.mark.parametrize("name", sorted(eqx_api.UNKEPT_CALLS))
def test_a_transformed_call_keeps_none_of_its_arguments(name: str) -> None:
    """Called and dropped, the model handed to the transformed function is freed, and
    its arrays hold no more references than the model's own."""
    transform = resolve_object(name)
    weight, x = jnp.ones(3), jnp.arange(3.0)
    model = Linear(weight)
    ref, before_x, before_w = weakref.ref(model), sys.getrefcount(x), sys.getrefcount(weight)
    if name in eqx_api.VMAP_LIKE:
        out = transform(loss, in_axes=(None, 0))(model, jnp.ones((2, 3)))
    else:
        out = transform(loss)(model, x)
    del model, out
    gc.collect()
    assert ref() is None
    assert sys.getrefcount(x) == before_x and sys.getrefcount(weight) == before_w - 1


def test_apply_updates_of_0d_leaves_is_0d() -> None:
    """`LEAF_SHAPES_FROM`: 0-d model leaves and updates give 0-d leaves; a gradient
    (`GRAD_LIKE`) is shaped like the model."""
    assert eqx_api.LEAF_SHAPES_FROM == {"equinox.apply_updates": (0, 1)}

    class Decay(eqx.Module):
        rate: jax.Array

    model = Decay(jnp.array(0.5))
    grads = eqx.filter_grad(lambda m, x: (m.rate * x) ** 2)(model, jnp.array(2.0))
    assert jnp.ndim(grads.rate) == 0
    new = eqx.apply_updates(model, grads)
    assert all(jnp.ndim(leaf) == 0 for leaf in jax.tree_util.tree_leaves(new))


def test_filter_jit_returns_new_array_buffers() -> None:
    """`FRESH_ARRAY_OUTPUTS`: an argument's or a global's array returned as it is comes
    back in a new buffer; a number argument returned comes back as the same object."""
    assert {"equinox.filter_jit"} == eqx_api.FRESH_ARRAY_OUTPUTS
    kept = jnp.arange(4.0)
    scale = 2.5
    step = eqx.filter_jit(lambda x, n: (x, kept, n, x * n))
    x = jnp.ones(4)
    out = step(x, scale)
    got = {pointer for leaf in (out[0], out[1], out[3]) for pointer in pointers(leaf)}
    assert got.isdisjoint(pointers(x) | pointers(kept)) and len(got) == 3
    assert out[2] is scale


class _Box:
    """No pytree: a non-array leaf for equinox, holding an array."""

    def __init__(self, array: jax.Array) -> None:
        self.array = array


def test_filter_jit_returns_a_non_array_leaf_as_it_is() -> None:
    """Why an output of `eqx.filter_jit` that is no array may hold an argument's buffers
    (`facts/alias_reasons.py`): a non-array leaf comes back as the very object given,
    holding that argument's array, at every call."""
    weight = jnp.arange(3.0)
    box = _Box(weight)
    step = eqx.filter_jit(lambda b, x: (b, x + 1.0))
    for _ in range(2):
        out, _ = step(box, X)
        assert out is box and pointers(out.array) == pointers(weight)


class _Plain:
    """No pytree: `eqx.filter_jit` makes it a static leaf."""


def test_a_filter_jit_body_sees_a_non_array_leaf_as_the_callers_object() -> None:
    """`facts/jit_arguments.py`: every non-array leaf is the caller's very object in the
    body (an array it holds a real buffer, not a tracer), which the body may store on
    another; the array leaves are tracers."""
    holder, box = _Plain(), _Plain()
    holder.w = jnp.arange(3.0)

    @eqx.filter_jit
    def probe(holder, box, x):
        box.kept = holder.w
        box.traced = isinstance(x, jax.core.Tracer)
        return x + 1.0

    assert "equinox.filter_jit" in eqx_api.JIT_LIKE
    probe(holder, box, jnp.ones(3))
    assert box.kept is holder.w and box.traced


#: Each layer `FRESH_CALLS` lists, called on JAX arrays of its input's shape (edge flags
#: too: no bias, scalar features, an MLP of no hidden layer, activations of JAX).
CALLED = {
    "equinox.nn.Linear": [
        (lambda: eqx.nn.Linear(3, 2, key=KEY), (jnp.ones(3),)),
        (lambda: eqx.nn.Linear(3, 2, use_bias=False, key=KEY), (jnp.ones(3),)),
        (lambda: eqx.nn.Linear("scalar", "scalar", key=KEY), (jnp.ones(()),)),
    ],
    "equinox.nn.MLP": [
        (lambda: eqx.nn.MLP(3, 2, 8, 2, key=KEY), (jnp.ones(3),)),
        (lambda: eqx.nn.MLP(3, 2, 8, 0, use_final_bias=False, key=KEY), (jnp.ones(3),)),
        (
            lambda: eqx.nn.MLP(
                3, 2, 8, 1, activation=jax.nn.softplus, final_activation=jnp.asarray, key=KEY
            ),
            (jnp.ones(3),),
        ),
    ],
    "equinox.nn.Conv2d": [(lambda: eqx.nn.Conv2d(1, 2, 3, key=KEY), (jnp.ones((1, 5, 5)),))],
    "equinox.nn.GRUCell": [(lambda: eqx.nn.GRUCell(3, 4, key=KEY), (jnp.ones(3), jnp.ones(4)))],
}


@pytest.mark.parametrize("name", sorted(eqx_api.FRESH_CALLS))
def test_a_fresh_call_returns_new_buffers_and_keeps_no_argument(name: str) -> None:
    """`FRESH_CALLS`: eagerly and under `jax.vmap`, the result's buffers are new (none of
    the input's, none of the layer's), and the call keeps no reference to its input."""
    assert set(CALLED) == set(eqx_api.FRESH_CALLS) <= eqx_api.FRESH_RESULTS
    for make, inputs in CALLED[name]:
        layer = make()
        before = [sys.getrefcount(x) for x in inputs]
        out = layer(*inputs)
        assert fresh_leaves(out, layer, inputs)
        assert [sys.getrefcount(x) for x in inputs] == before
        batched = tuple(jnp.stack([x, x]) for x in inputs)
        assert fresh_leaves(jax.vmap(layer)(*batched), layer, batched)


def test_fresh_call_options_are_the_functions_the_call_runs() -> None:
    """The listed options are where the constructor takes them; a function of the
    program's given there is what the call may return (`final_activation` of a scalar
    output) as it is."""
    for name, options in eqx_api.FRESH_CALLS.items():
        parameters = list(inspect.signature(resolve_object_path(name)).parameters)
        assert all(parameters[position] == keyword for keyword, position in options)
    held = jnp.arange(2.0)
    mlp = eqx.nn.MLP(3, "scalar", 8, 1, final_activation=lambda _: held, key=KEY)
    assert mlp(jnp.ones(3)) is held


def resolve_object_path(qual: str):
    assert resolve(qual)
    return getattr(eqx.nn, qual.rsplit(".", 1)[1])


class _Decoder(eqx.Module):
    out: eqx.nn.Linear
    size: int

    def __call__(self, x):
        return self.out(x)


class _Other(eqx.Module):
    out: eqx.nn.Linear
    size: int


def test_apply_updates_keeps_the_model_s_classes() -> None:
    """`KEEPS_CLASSES`: the result has the model's very structure, node classes and static
    fields included, whatever updates it is given that have a structure it accepts."""
    assert set(eqx_api.KEEPS_CLASSES) == {"equinox.apply_updates"}
    parameters = list(inspect.signature(eqx.apply_updates).parameters)
    assert parameters[eqx_api.KEEPS_CLASSES["equinox.apply_updates"]] == "model"
    model = _Decoder(eqx.nn.Linear(3, 2, key=KEY), 3)
    grads = eqx.filter_grad(lambda m, x: jnp.sum(m(x)))(model, X)
    for updates in (grads, jax.tree.map(lambda g: -g, grads)):
        out = eqx.apply_updates(model, updates)
        assert jax.tree.structure(out) == jax.tree.structure(model)
        assert type(out) is _Decoder and type(out.out) is eqx.nn.Linear
    stepped = eqx.filter_jit(eqx.apply_updates)(model, grads)  # outputs rebuilt as traced
    assert jax.tree.structure(stepped) == jax.tree.structure(model)
    with pytest.raises((ValueError, TypeError)):
        eqx.apply_updates(model, _Other(grads.out, None))
    odd = jax.tree.map(lambda g: g, grads)  # rebuilt: changing it leaves `grads` as it was
    object.__setattr__(odd.out, "in_features", 5)  # another static field
    with pytest.raises(ValueError):
        eqx.apply_updates(model, odd)


def test_modules_set_nothing_but_fields_and_nothing_after_init() -> None:
    """`MODULE_BASES`: `__init__` may set fields only, and nothing may be set after it."""

    class Extra(eqx.Module):
        weight: jax.Array

        def __init__(self):
            self.weight = X
            self.other = X

    with pytest.raises(dataclasses.FrozenInstanceError):
        Extra()
    with pytest.raises(dataclasses.FrozenInstanceError):
        MODEL.activation = jnp.sin
    with pytest.raises(dataclasses.FrozenInstanceError):
        MODEL.__init__(X, jnp.sin)  # `__init__` called again sets nothing either


class Plain:
    """Not a pytree: a leaf `filter_jit` hands on as it is."""


class Holder(eqx.Module):
    weight: jax.Array
    layers: tuple
    plain: Plain
    size: int = eqx.field(static=True)


@pytest.mark.parametrize("name", sorted(eqx_api.REBUILT_ARGUMENTS))
def test_the_function_sees_new_containers_and_the_caller_s_other_leaves(name: str) -> None:
    holder = Holder(X, (MODEL, [MODEL.weight]), Plain(), 3)
    seen = {}

    @resolve_object(name)
    def body(module):
        seen["module"] = module
        return module.weight * module.size

    body(holder)
    module = seen["module"]
    assert module is not holder and module.layers is not holder.layers
    assert module.layers[0] is not MODEL and module.layers[1] is not holder.layers[1]
    assert isinstance(module.weight, jax.core.Tracer)
    assert isinstance(module.layers[1][0], jax.core.Tracer)
    assert module.plain is holder.plain and module.layers[0].activation is MODEL.activation


def activation(x):
    return x


#: Each sealed layer, given an argument of every kind it may keep (`activation`).
SEALED = {
    "equinox.nn.Linear": lambda: eqx.nn.Linear(3, 2, use_bias=False, key=KEY),
    "equinox.nn.MLP": lambda: eqx.nn.MLP(
        3, "scalar", 8, 2, activation=activation, final_activation=jnp.tanh, key=KEY
    ),
}
DEFAULTS = {"equinox.nn.MLP": lambda: eqx.nn.MLP(3, 2, 8, 2, key=KEY)}


def values_in(tree) -> list:
    """Every value a module holds, at any depth: its fields (static ones too) and the
    elements of its tuples, lists and dicts."""
    if isinstance(tree, eqx.Module):
        return [v for f in dataclasses.fields(tree) for v in values_in(getattr(tree, f.name))]
    if isinstance(tree, tuple | list):
        return [v for item in tree for v in values_in(item)]
    if isinstance(tree, dict):
        return [v for item in tree.values() for v in values_in(item)]
    return [tree]


def library_callable(value) -> bool:
    module = getattr(value, "__module__", None) or type(value).__module__
    return callable(value) and module.split(".")[0] in ("jax", "jaxlib", "equinox")


@pytest.mark.parametrize("name", sorted(eqx_api.SEALED_LAYERS))
def test_sealed_layers_hold_arrays_their_arguments_and_immutable_values(name: str) -> None:
    assert resolve(name) and set(SEALED) == eqx_api.SEALED_LAYERS
    for build in (SEALED[name], DEFAULTS.get(name, SEALED[name])):
        layer = build()
        for value in values_in(layer):
            assert (
                isinstance(value, jax.Array)
                or type(value) in (int, float, bool, str, type(None))
                or value is activation
                or library_callable(value)
            ), (name, value)


@pytest.mark.parametrize("base", sorted(eqx_api.FIELD_INIT_BASES))
def test_a_class_declaring_its_fields_stores_each_argument_as_given(base: str) -> None:
    """`FIELD_INIT_BASES`: the generated `__init__` takes the declared fields in order, by
    position or keyword, and stores each argument as it is (an object included)."""
    assert base == "equinox.Module"

    class Func(eqx.Module):
        scale: jax.Array
        mlp: eqx.nn.MLP
        size: int

        def __call__(self, t, y, args):
            return self.scale * self.mlp(y)

    mlp = eqx.nn.MLP(2, 2, 4, 1, key=KEY)
    marker = object()
    for func in (Func(X, mlp, marker), Func(size=marker, mlp=mlp, scale=X)):
        assert func.scale is X and func.mlp is mlp and func.size is marker
    params = list(inspect.signature(Func.__init__).parameters)
    assert params == ["self", "scale", "mlp", "size"]
