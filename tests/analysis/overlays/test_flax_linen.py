"""The flax.linen overlay, checked against the installed flax."""

from __future__ import annotations

import gc
import weakref

import flax.linen as nn
import jax
import jax.numpy as jnp
import pytest

from autoopt.analysis.overlays import flax_linen as linen_api
from tests.analysis.overlays import (
    fresh_leaves,
    leaves_equal,
    lookup,
    pointers,
    resolve,
    snapshot,
)

X = jnp.ones((2, 3))
KEY = jax.random.key(0)


class Dense(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        return c + nn.Dense(3)(x), c


def test_names_exist() -> None:
    names = (linen_api.TRANSFORMS | linen_api.PURE_METHODS | linen_api.FRESH_RESULTS
             | linen_api.MODULE_BASES)  # fmt: skip
    assert [n for n in sorted(names) if not resolve(n)] == []


def test_init_and_apply_are_pure_and_init_is_fresh() -> None:
    model = Dense()
    variables = model.init(KEY, X)
    assert leaves_equal(variables, model.init(KEY, X))
    before = snapshot(variables)
    out = model.apply(variables, X)
    assert leaves_equal(out, model.apply(variables, X))
    assert leaves_equal(before, snapshot(variables))
    assert not pointers(variables) & pointers(X)
    assert {"flax.linen.Module.init"} == linen_api.FRESH_RESULTS


@pytest.mark.parametrize("name", sorted(linen_api.TRANSFORMS))
def test_lifted_transforms_take_a_module(name: str) -> None:
    lifted = getattr(nn, name.rsplit(".", 1)[1])
    if name in linen_api.SCAN_LIKE:
        scanned = lifted(Cell, variable_broadcast="params", split_rngs={"params": False})
        variables = scanned().init(KEY, jnp.zeros(3), X)
        carry, ys = scanned().apply(variables, jnp.zeros(3), X)
        assert carry.shape == (3,) and ys.shape == X.shape
        return
    if name in linen_api.VMAP_LIKE:
        cls = lifted(Dense, in_axes=0, variable_axes={"params": None}, split_rngs={"params": False})
    else:
        cls = lifted(Dense)
    variables = cls().init(KEY, X)
    assert cls().apply(variables, X).shape == X.shape


class Normed(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.BatchNorm(use_running_average=False)(nn.Dense(3)(x))


@pytest.mark.parametrize("model", [Dense(), Normed(), nn.Dense(3)])
def test_init_makes_new_buffers_none_twice(model: nn.Module) -> None:
    assert isinstance(model, nn.Module) and "flax.linen.Module.init" in linen_api.FRESH_RESULTS
    assert fresh_leaves(model.init(KEY, X), X, KEY)


def test_init_returns_what_a_handed_in_initializer_returns() -> None:
    """Why `fresh.py` proves `init` fresh only for modules built from literals with
    sealed code: an initializer may hand back an array it holds, buffer and all."""
    table = jnp.arange(6.0).reshape(3, 2)
    variables = nn.Embed(3, 2, embedding_init=lambda *_: table).init(KEY, jnp.zeros(1, int))
    assert pointers(variables) == pointers(table)


SHARED_KERNEL = nn.initializers.variance_scaling(2.0, mode="fan_out", distribution="normal")


class Shared(nn.Module):
    """Two layers given one initializer object, as a module-level global hands it."""

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(3, kernel_init=SHARED_KERNEL)(x)
        return nn.Conv(3, (1,), kernel_init=SHARED_KERNEL, bias_init=nn.initializers.zeros)(x)


def test_one_library_initializer_shared_by_layers_makes_new_buffers() -> None:
    """Why `facts/initializer_globals.py` reads a global bound once to a library
    initializer given constants as the call written in place."""
    assert fresh_leaves(Shared().init(KEY, X), X, KEY)


@pytest.mark.parametrize("name", sorted(linen_api.POOLING | linen_api.JAX_FUNCTIONS))
def test_pooling_and_jax_functions_return_new_arrays(name: str) -> None:
    """`POOLING`, `JAX_FUNCTIONS`: given an array (a window of one too), a new one; why
    `facts/initializers.py` clears a lambda applying one to its own parameters."""
    function = lookup(name)
    x = jnp.arange(8.0).reshape(1, 2, 2, 2)
    args = ((1, 1),) if name in linen_api.POOLING else ()
    out = function(x, *args)
    assert isinstance(out, jax.Array) and not pointers(out) & pointers(x)


class Layer(nn.Module):
    """Every `REMAT_PURE` entry applied once; `train` a Python value."""

    @nn.compact
    def __call__(self, x, train=True):
        z = nn.BatchNorm(use_running_average=not train)(x)
        z = nn.LayerNorm()(nn.relu(nn.Dense(4)(z)))
        z = nn.Dropout(0.5, deterministic=not train)(nn.gelu(z))
        z = nn.sigmoid(nn.tanh(z))[:, None, :, None]
        z = nn.Conv(1, (1, 1))(z)
        z = nn.avg_pool(z, (1, 1)) + nn.max_pool(z, (1, 1))
        return jnp.concatenate([x, z[:, 0, :, 0]], axis=-1)


class Stack(nn.Module):
    remat: bool

    @nn.compact
    def __call__(self, x, train=True):
        for i in range(3):
            if self.remat:
                x = nn.remat(Layer, static_argnums=(2,))(name=f"Layer_{i}")(x, train)
            else:
                x = Layer()(x, train=train)
        return x


def _train(model: nn.Module, variables, x):
    def loss(params):
        rngs = {"dropout": jax.random.key(1)}
        out, new = model.apply({**variables, "params": params}, x, True, rngs=rngs,
                               mutable=["batch_stats"])  # fmt: skip
        return jnp.sum(out**2), new

    return jax.value_and_grad(loss, has_aux=True)(variables["params"])


def test_remat_with_the_original_names_keeps_the_tree_values_and_collections() -> None:
    """`REMAT`, `REMAT_PURE`: the same variables, outputs, gradients and `batch_stats`
    under `nn.remat` given the automatic names (gradients to rounding: recomputed)."""
    x = jax.random.normal(KEY, (8, 4))
    rngs = {"params": KEY, "dropout": jax.random.key(1)}
    plain, remat = Stack(remat=False), Stack(remat=True)
    variables = plain.init(rngs, x)
    assert leaves_equal(variables, remat.init(rngs, x))
    (loss, new), grads = _train(plain, variables, x)
    (loss_r, new_r), grads_r = _train(remat, variables, x)
    assert loss == loss_r and leaves_equal(new, new_r)
    assert jax.tree.all(jax.tree.map(lambda a, b: jnp.allclose(a, b, rtol=1e-5), grads, grads_r))
    assert [n for n in sorted(linen_api.REMAT_PURE) if not resolve(n)] == []
    assert resolve(linen_api.REMAT)


def test_remat_renames_an_automatically_named_layer() -> None:
    """Why AO601 passes `name=`: `nn.remat(Cls)()` is named `CheckpointCls_0`."""

    class Auto(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.remat(Dense)()(x)

    names = list(Auto().init(KEY, X)["params"])
    assert names == [f"{linen_api.REMAT_PREFIX}Dense_0"]


def test_remat_static_argnums_count_self_and_name_positions_only() -> None:
    x = jnp.ones((2, 4))
    positional = nn.remat(Layer, static_argnums=(2,))()
    assert positional.init({"params": KEY, "dropout": KEY}, x, False)["params"]
    with pytest.raises(ValueError, match="static_argnums"):
        nn.remat(Layer, static_argnums=(2,))().init(KEY, x, train=False)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        nn.remat(Layer)().init(KEY, x, False)


def test_hyperparameters_are_fields_of_layers_that_never_become_variables() -> None:
    import dataclasses

    layers = (nn.Dense, nn.Conv, nn.Dropout, nn.BatchNorm, nn.LayerNorm, nn.Embed,
              nn.MultiHeadDotProductAttention)  # fmt: skip
    fields = {f.name for layer in layers for f in dataclasses.fields(layer)}
    assert fields >= linen_api.HYPERPARAMETERS
    assert not any(n.endswith("_init") for n in linen_api.HYPERPARAMETERS)
    # given as arrays, the scalars among them are not kept as variables
    rate, momentum, epsilon = jnp.float32(0.5), jnp.float32(0.9), jnp.float32(1e-5)
    built = (
        (nn.Dropout(rate=rate, deterministic=False), {"rngs": {"dropout": KEY}}),
        (nn.BatchNorm(momentum=momentum, epsilon=epsilon, use_running_average=False), {}),
        (nn.LayerNorm(epsilon=epsilon), {}),
    )
    for layer, extra in built:
        rngs = {"params": KEY, **extra.get("rngs", {})}
        variables = layer.init(rngs, X)
        leaves = jax.tree_util.tree_leaves(variables)
        assert not any(leaf is v for leaf in leaves for v in (rate, momentum, epsilon))
        assert pointers(variables).isdisjoint(pointers([rate, momentum, epsilon]))


def test_a_variable_holds_what_its_function_returns() -> None:
    table = jnp.ones(3)

    class Kept(nn.Module):
        make: object

        @nn.compact
        def __call__(self, x):
            return x + self.variable("consts", "t", self.make, table).value

    kept = Kept(jnp.asarray).init(KEY, X[0])["consts"]["t"]
    assert kept.unsafe_buffer_pointer() == table.unsafe_buffer_pointer()
    copied = Kept(jnp.array).init(KEY, X[0])["consts"]["t"]
    assert copied.unsafe_buffer_pointer() != table.unsafe_buffer_pointer()


#: Each `APPLY_PURE_LAYERS` entry built from plain values, its input, and `apply`'s extras.
_LAYERS = {
    "flax.linen.Dense": (lambda: nn.Dense(3), X, {}),
    "flax.linen.DenseGeneral": (lambda: nn.DenseGeneral((2, 2)), X, {}),
    "flax.linen.Conv": (lambda: nn.Conv(2, (1,)), jnp.ones((1, 4, 3)), {}),
    "flax.linen.Embed": (lambda: nn.Embed(5, 3), jnp.arange(4), {}),
    "flax.linen.LayerNorm": (lambda: nn.LayerNorm(), X, {}),
    "flax.linen.BatchNorm": (
        lambda: nn.BatchNorm(use_running_average=False),
        X,
        {"mutable": ["batch_stats"]},
    ),
    "flax.linen.Dropout": (
        lambda: nn.Dropout(0.5, deterministic=False),
        X,
        {"rngs": {"dropout": jax.random.key(1)}},
    ),
}


@pytest.mark.parametrize("name", sorted(linen_api.APPLY_PURE_LAYERS))
def test_listed_layers_init_and_apply_are_pure_and_the_same_traced(name: str) -> None:
    """`APPLY_PURE_LAYERS`, `LAYER_METHODS`, `ARRAYS_METHODS`: built from plain values,
    `init` gives JAX arrays, `apply` leaves its variables alone and computes the same
    eagerly, again, and under jit."""
    assert resolve(name) and {"init", "apply"} == linen_api.LAYER_METHODS
    make, x, extra = _LAYERS[name]
    layer = make()
    variables = layer.init({"params": KEY, "dropout": KEY}, x)
    assert {"init"} == linen_api.ARRAYS_METHODS
    assert all(isinstance(leaf, jax.Array) for leaf in jax.tree.leaves(variables))
    before = snapshot(variables)
    out = layer.apply(variables, x, **extra)
    assert leaves_equal(out, layer.apply(variables, x, **extra))
    assert leaves_equal(out, jax.jit(lambda v: layer.apply(v, x, **extra))(variables))
    assert leaves_equal(before, snapshot(variables))


def test_apply_runs_the_functions_it_is_given() -> None:
    """`RUNS_GIVEN_CODE`: `method=` and `capture_intermediates=` run code of the caller's,
    once per trace under jit."""
    calls = []

    def method(module, x):
        calls.append(1)
        return module(x)

    def capture(module, name):
        calls.append(2)
        return False

    layer = nn.Dense(3)
    variables = layer.init(KEY, X)
    layer.apply(variables, X, method=method)
    layer.apply(variables, X, capture_intermediates=capture)
    assert calls == [1, 2] and {"method", "capture_intermediates"} == linen_api.RUNS_GIVEN_CODE


#: `ConvTranspose`, which `NEW_OUTPUT_LAYERS` adds to `APPLY_PURE_LAYERS`.
_OUTPUT_LAYERS = {
    **_LAYERS,
    "flax.linen.ConvTranspose": (lambda: nn.ConvTranspose(2, (3,)), jnp.ones((1, 4, 3)), {}),
}


@pytest.mark.parametrize("name", sorted(linen_api.NEW_OUTPUT_LAYERS))
def test_listed_layers_outputs_hold_none_of_their_variables(name: str) -> None:
    """`NEW_OUTPUT_LAYERS`: built from plain values, the output shares no buffer with the
    variables (`Dropout`, deterministic, returns its input itself)."""
    assert resolve(name) and linen_api.APPLY_PURE_LAYERS <= linen_api.NEW_OUTPUT_LAYERS
    make, x, extra = _OUTPUT_LAYERS[name]
    layer = make()
    variables = layer.init({"params": KEY, "dropout": KEY}, x)
    out = layer.apply(variables, x, **extra)
    assert not pointers(out) & pointers(variables)
    if name == "flax.linen.Dropout":
        assert nn.Dropout(0.5, deterministic=True).apply({}, x) is x


class _Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.gelu(nn.Dense(3)(x)), nn.ConvTranspose(2, (3,))(x[None])


def test_apply_drops_the_variables_it_is_given() -> None:
    """`UNKEPT_APPLY`: once `apply` returns, only what the module's code returned holds
    its variables; here none of them, so they die with the caller's references."""
    assert {"flax.linen.Module.apply"} == linen_api.UNKEPT_APPLY
    model = _Model()
    variables = jax.tree.map(lambda v: v + 0, model.init(KEY, X))
    refs = [weakref.ref(leaf) for leaf in jax.tree.leaves(variables)]
    out = model.apply(variables, X)
    assert not pointers(out) & pointers(variables)
    del variables
    gc.collect()
    assert all(r() is None for r in refs)


@pytest.mark.parametrize("name", sorted(linen_api.JAX_FUNCTIONS))
def test_listed_functions_are_jaxs_own(name: str) -> None:
    """`JAX_FUNCTIONS`: flax.linen hands out JAX's array functions themselves."""
    short = name.rsplit(".", 1)[1]
    own = getattr(jax.nn, short, None), getattr(jnp, short, None)
    assert any(getattr(nn, short) is f for f in own if f is not None)


def test_module_attributes_are_all_but_setup_and_the_dunder_ones() -> None:
    names = {n for n in dir(nn.Module) if not (n.startswith("__") and n.endswith("__"))}
    assert names - {"setup"} == linen_api.MODULE_ATTRIBUTES


class Flow(nn.Module):
    """A module assembled from a list of modules held in a field, which it calls."""

    flows: tuple

    def __call__(self, x):
        for flow in self.flows:
            x = flow(x)
        return x


def test_a_module_held_in_a_field_and_called_makes_its_own_variables() -> None:
    """`facts/linen_trees.py`: calling a submodule a field holds makes its variables by
    its own code, new buffers when that is sealed; a field's list is the constructor's,
    kept by the module and changed by whoever holds it (why its custody is followed)."""
    layers = [nn.Dense(3), nn.LayerNorm()]
    flow = Flow(layers)
    assert flow.flows is layers
    variables = flow.init(KEY, X)
    assert fresh_leaves(variables, X, KEY)
    assert list(variables["params"]) == ["flows_0", "flows_1"]
    kernel = jnp.ones((3, 3))
    layers.append(nn.Dense(3, kernel_init=lambda *_: kernel))
    assert pointers(flow.init(KEY, X)) & pointers(kernel)


@pytest.mark.parametrize("method", sorted(linen_api.FIELD_KEEPING))
def test_field_keeping_methods_keep_a_field_s_list(method: str) -> None:
    layers = [nn.Dense(3)]
    flow = Flow(layers)
    variables = flow.init(KEY, X)
    if method == "apply":
        flow.apply(variables, X)
    elif method == "bind":
        flow.bind(variables)
    assert flow.flows is layers and len(layers) == 1 and type(layers[0]) is nn.Dense


class Identity(nn.Module):
    @nn.compact
    def __call__(self, x):
        nn.Dense(3)(x)
        return x


def test_captured_intermediates_hold_what_a_method_returns() -> None:
    """`KEEPS_OUTPUTS`: `init` is no longer fresh given it (an input returned as it is)."""
    (keyword,) = linen_api.KEEPS_OUTPUTS
    variables = Identity().init(KEY, X, **{keyword: True})
    assert pointers(variables) & pointers(X)
    assert fresh_leaves(Identity().init(KEY, X), X, KEY)
