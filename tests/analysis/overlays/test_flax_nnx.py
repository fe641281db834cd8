"""The flax.nnx overlay, checked against the installed flax."""

from __future__ import annotations

import gc
import inspect
import sys
import weakref

import jax
import jax.numpy as jnp
import optax
import pytest
from flax import nnx

from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import optax as optax_api
from tests.analysis.overlays import (
    carries_no_buffer,
    fresh_leaves,
    leaves_equal,
    lookup,
    pointers,
    resolve,
    snapshot,
)

X = jnp.ones((2, 3))


def model() -> nnx.Linear:
    return nnx.Linear(3, 2, rngs=nnx.Rngs(0))


def loss(m, x):
    return jnp.sum(m(x))


def transform(name: str):
    assert resolve(name)
    return lookup(name)


def test_names_exist() -> None:
    names = (nnx_api.TRANSFORMS | nnx_api.PURE_CALLS | set(nnx_api.MUTATING)
             | nnx_api.MODULE_BASES | set(nnx_api.STATIC_OPTIONS)
             | set(nnx_api.DONATE_OPTIONS) | nnx_api.UNKEPT_OBJECTS
             | set(nnx_api.ALIASING) | nnx_api.VARIABLE_TYPES
             | nnx_api.FRESH_LAYERS | nnx_api.USER_MODULE_BASES | nnx_api.STATIC_FUNCTION_BASES
             | nnx_api.RENDERING
             | nnx_api.RENDERED_LAYERS | {nnx_api.SEQUENTIAL, nnx_api.RNGS}
             | nnx_api.BUFFERLESS_STATICS | nnx_api.BUFFERLESS_BUILT
             | nnx_api.GRAPH_COLLECTIONS)  # fmt: skip
    assert [n for n in sorted(names) if not resolve(n)] == []
    assert nnx_api.UPDATES_MODULES <= nnx_api.JIT_LIKE
    assert nnx_api.CACHING_JITS <= nnx_api.JIT_LIKE


@pytest.mark.parametrize("name", sorted(nnx_api.JIT_LIKE))
def test_jit_options_are_the_signature_s(name: str) -> None:
    parameters = inspect.signature(transform(name)).parameters
    options = (*nnx_api.STATIC_OPTIONS[name], *nnx_api.DONATE_OPTIONS[name])
    assert all(parameters[o].kind is inspect.Parameter.KEYWORD_ONLY for o in options)


def test_jit_updates_module_arguments_in_place() -> None:
    m = model()

    @nnx.jit
    def bump(m):
        m.bias.value = m.bias.value + 1.0

    before = snapshot(nnx.state(m))
    assert bump(m) is None
    assert not leaves_equal(before, snapshot(nnx.state(m)))
    assert jnp.allclose(m.bias.value, 1.0)


def test_a_donated_module_is_written_back_and_keeps_working() -> None:
    (jit,) = nnx_api.UPDATES_MODULES
    positions, names = nnx_api.DONATE_OPTIONS[jit]
    m, reference = model(), model()
    optimizer = nnx.Optimizer(m, optax.sgd(0.1), wrt=nnx.Param)
    kept = nnx.Optimizer(reference, optax.sgd(0.1), wrt=nnx.Param)

    def train(m, optimizer, x):
        optimizer.update(m, nnx.grad(loss)(m, x))
        return loss(m, x)

    def evaluate(m, x):
        return loss(m, x)

    donating = transform(jit)(train, **{positions: (0, 1)})
    plain = transform(jit)(train)
    old = m.kernel[...]
    for _ in range(3):
        assert jnp.allclose(donating(m, optimizer, X), plain(reference, kept, X))
    assert old.is_deleted() and leaves_equal(nnx.state(m), nnx.state(reference))
    unchanged = m.kernel[...]
    first = transform(jit)(evaluate, **{names: ("m",)})(m, X)
    assert unchanged.is_deleted()  # the state it left as it was is written back too
    assert jnp.allclose(transform(jit)(evaluate)(m, X), first)


def test_jit_static_and_donate_options() -> None:
    @nnx.jit(static_argnames=("n",), donate_argnames=("s",))
    def step(s, n):
        return s * n

    s = jnp.ones(3)
    assert jnp.allclose(step(s, 2), 2.0) and s.is_deleted()


@pytest.mark.parametrize("name", sorted(nnx_api.GRAD_LIKE | nnx_api.VALUE_AND_GRAD_LIKE))
def test_grads_are_shaped_like_the_module_s_params(name: str) -> None:
    m = model()
    grads = transform(name)(loss)(m, X)
    if name in nnx_api.VALUE_AND_GRAD_LIKE:
        value, grads = grads
        assert value.shape == ()
    assert jax.tree.structure(grads) == jax.tree.structure(nnx.state(m, nnx.Param))


def test_vmap_scan_and_remat_trace() -> None:
    (vmap,), (scan,), (remat,) = nnx_api.VMAP_LIKE, nnx_api.SCAN_LIKE, nnx_api.REMAT_LIKE
    assert transform(vmap)(lambda x: x * 2.0)(X).shape == X.shape
    carry, ys = transform(scan)(lambda c, x: (c + x, c))(jnp.zeros(3), X)
    assert carry.shape == (3,) and ys.shape == X.shape
    m = model()
    assert jnp.allclose(transform(remat)(loss)(m, X), loss(m, X))


def test_pure_calls_read_without_changing() -> None:
    m = model()
    before = snapshot(nnx.state(m))
    graphdef, state = nnx.split(m)
    assert leaves_equal(state, nnx.split(m)[1]) and leaves_equal(state, nnx.state(m))
    assert nnx.graphdef(m) == graphdef
    merged = nnx.merge(graphdef, state)
    assert merged is not m and leaves_equal(nnx.state(merged), before)
    assert leaves_equal(before, snapshot(nnx.state(m)))
    assert set(nnx_api.PURE_CALLS) == {"flax.nnx.split", "flax.nnx.merge", "flax.nnx.state",
                                       "flax.nnx.graphdef"}  # fmt: skip


def test_mutating_calls_change_the_module_in_place() -> None:
    m = model()
    before = snapshot(nnx.state(m))
    optimizer = nnx.Optimizer(m, optax.sgd(0.1), wrt=nnx.Param)
    grads = nnx.grad(loss)(m, X)
    optimizer.update(m, grads)
    assert not leaves_equal(before, snapshot(nnx.state(m)))
    other = model()
    nnx.update(other, jax.tree.map(jnp.zeros_like, nnx.state(other)))
    assert jnp.allclose(other.kernel.value, 0.0)
    paired = model()
    both = nnx.ModelAndOptimizer(paired, optax.sgd(0.1))
    before = snapshot(nnx.state(paired))
    both.update(nnx.grad(loss)(paired, X))
    assert both.model is paired and not leaves_equal(before, snapshot(nnx.state(paired)))
    assert {"flax.nnx.update", "flax.nnx.Optimizer.update",
            "flax.nnx.ModelAndOptimizer.update"} == set(nnx_api.MUTATING)  # fmt: skip


@pytest.mark.parametrize("name", sorted(nnx_api.VARIABLE_TYPES))
def test_variable_types_are_classes_holding_no_array(name: str) -> None:
    cls = transform(name)
    assert isinstance(cls, type) and issubclass(cls, nnx.Variable)
    assert not [v for v in vars(cls).values() if isinstance(v, jax.Array)]


@pytest.mark.parametrize("name", sorted(nnx_api.MODULE_CLASSES))
def test_module_classes_build_graph_objects(name: str) -> None:
    bases = tuple(transform(base) for base in nnx_api.MODULE_BASES)
    assert issubclass(transform(name), bases)


#: Each listed constructor, built small.
BUILT = {
    "flax.nnx.Linear": lambda: nnx.Linear(2, 3, rngs=nnx.Rngs(0)),
    "flax.nnx.Conv": lambda: nnx.Conv(2, 3, kernel_size=(3,), rngs=nnx.Rngs(0)),
    "flax.nnx.Embed": lambda: nnx.Embed(5, 3, rngs=nnx.Rngs(0)),
    "flax.nnx.LayerNorm": lambda: nnx.LayerNorm(3, rngs=nnx.Rngs(0)),
    "flax.nnx.BatchNorm": lambda: nnx.BatchNorm(3, rngs=nnx.Rngs(0)),
    "flax.nnx.Dropout": lambda: nnx.Dropout(0.5, rngs=nnx.Rngs(0)),
    "flax.nnx.Sequential": lambda: nnx.Sequential(model(), nnx.Linear(2, 2, rngs=nnx.Rngs(1))),
    "flax.nnx.MultiHeadAttention": lambda: nnx.MultiHeadAttention(
        2, 4, decode=False, rngs=nnx.Rngs(0)
    ),
    "flax.nnx.LSTMCell": lambda: nnx.LSTMCell(2, 3, rngs=nnx.Rngs(0)),
    "flax.nnx.GRUCell": lambda: nnx.GRUCell(2, 3, rngs=nnx.Rngs(0)),
    "flax.nnx.Optimizer": lambda: nnx.Optimizer(model(), optax.adam(0.1), wrt=nnx.Param),
    "flax.nnx.ModelAndOptimizer": lambda: nnx.ModelAndOptimizer(model(), optax.adam(0.1)),
}


@pytest.mark.parametrize("name", sorted(nnx_api.MODULE_CLASSES))
def test_module_classes_build_distinct_buffers(name: str) -> None:
    assert set(BUILT) == nnx_api.MODULE_CLASSES
    leaves = [x for x in jax.tree.leaves(nnx.state(BUILT[name]())) if isinstance(x, jax.Array)]
    assert leaves and len(pointers(leaves)) == len(leaves)


def test_unkept_objects_are_freed_when_dropped() -> None:
    makers = {
        "flax.nnx.Rngs": lambda: nnx.Rngs(0),
        "flax.nnx.Linear": model,
        "flax.nnx.Optimizer": lambda: nnx.Optimizer(model(), optax.adam(0.1), wrt=nnx.Param),
    }
    assert set(makers) <= nnx_api.UNKEPT_OBJECTS
    for name, make in makers.items():
        made = make()
        ref = weakref.ref(made)
        del made
        gc.collect()
        assert ref() is None, name


def test_aliasing_calls_hold_the_module_s_buffers() -> None:
    m = model()
    assert set(nnx_api.ALIASING) == {"flax.nnx.state", "flax.nnx.split"}
    assert pointers(nnx.state(m)) == pointers(nnx.split(m)[1]) == pointers(m) != set()


def test_modules_and_optimizers_are_mutable() -> None:
    m = model()
    optimizer = nnx.Optimizer(m, optax.sgd(0.1), wrt=nnx.Param)
    assert isinstance(m, nnx.Module) and isinstance(optimizer, nnx.Optimizer)
    assert {"flax.nnx.Module", "flax.nnx.Optimizer"} == nnx_api.MODULE_BASES
    m.bias.value = jnp.ones(2)
    step = int(optimizer.step.value)
    optimizer.update(m, nnx.grad(loss)(m, X))
    assert int(optimizer.step.value) == step + 1 and jnp.allclose(m.bias.value, 0.8)


@pytest.mark.parametrize("name", sorted(nnx_api.IMPORTED_MODULES))
def test_imported_modules_are_modules(name: str) -> None:
    package, _, attr = name.rpartition(".")
    assert inspect.ismodule(getattr(__import__(package), attr))


def test_an_outer_jit_writes_back_what_an_inner_one_changes() -> None:
    """A step compiled with `nnx.jit` that calls an `nnx.jit` function changing its module
    arguments leaves the modules as the eager calls of that function do."""

    @nnx.jit
    def sgd(m, opt, scale):
        opt.update(m, jax.tree.map(lambda p: p * scale, nnx.state(m, nnx.Param)))
        return jnp.sum(m.kernel[...])

    def step(m, opt, x):
        scale = jnp.cos(x[0]) * 0.5 + 0.5
        return jnp.sin(x) * sgd(m, opt, scale)

    runs = []
    for compiled in (step, nnx.jit(step)):
        m = model()
        opt = nnx.Optimizer(m, optax.sgd(0.1), wrt=nnx.Param)
        x = jnp.ones(3)
        for _ in range(4):
            x = compiled(m, opt, x)
        runs.append((x, snapshot(nnx.state(m)), snapshot(nnx.state(opt))))
    (x0, m0, o0), (x1, m1, o1) = runs
    assert jnp.allclose(x0, x1, rtol=1e-6)
    assert leaves_equal(m0, m1) and leaves_equal(o0, o1)


#: Each fresh layer, built small from `rngs`.
LAYERS = {
    "flax.nnx.Linear": lambda rngs: nnx.Linear(2, 3, rngs=rngs),
    "flax.nnx.Conv": lambda rngs: nnx.Conv(2, 3, kernel_size=(3,), rngs=rngs),
    "flax.nnx.Embed": lambda rngs: nnx.Embed(5, 3, rngs=rngs),
    "flax.nnx.LayerNorm": lambda rngs: nnx.LayerNorm(3, rngs=rngs),
    "flax.nnx.BatchNorm": lambda rngs: nnx.BatchNorm(3, rngs=rngs),
    "flax.nnx.Dropout": lambda rngs: nnx.Dropout(0.5, rngs=rngs),
    "flax.nnx.RMSNorm": lambda rngs: nnx.RMSNorm(3, rngs=rngs),
    "flax.nnx.GroupNorm": lambda rngs: nnx.GroupNorm(4, num_groups=2, rngs=rngs),
}


@pytest.mark.parametrize("name", sorted(nnx_api.FRESH_LAYERS))
def test_fresh_layers_hold_new_buffers_none_of_rngs(name: str) -> None:
    assert set(LAYERS) == nnx_api.FRESH_LAYERS
    rngs = nnx.Rngs(0, dropout=1)
    first, second = LAYERS[name](rngs), LAYERS[name](rngs)
    assert pointers(nnx.state(first))
    assert fresh_leaves((nnx.state(first), nnx.state(second)), nnx.state(rngs))


@pytest.mark.parametrize("name", sorted(nnx_api.FRESH_LAYERS))
def test_fresh_layers_take_rngs_and_initializers_by_keyword_only(name: str) -> None:
    parameters = list(inspect.signature(transform(name).__init__).parameters.values())[1:]
    kinds = {p.name: p.kind for p in parameters}
    assert kinds[nnx_api.RNGS_ARGUMENT] is inspect.Parameter.KEYWORD_ONLY
    initializers = [n for n in kinds if n.endswith(nnx_api.INITIALIZER_SUFFIX)]
    assert all(kinds[n] is inspect.Parameter.KEYWORD_ONLY for n in initializers)
    assert inspect.Parameter.VAR_POSITIONAL not in kinds.values()
    assert inspect.Parameter.VAR_KEYWORD not in kinds.values()


def test_a_fresh_layer_keeps_an_array_size_and_an_initializer_s_array() -> None:
    """Why a fresh layer's other arguments are leaves, and an initializer unknown."""
    size, table = jnp.asarray(3), jnp.ones((2, 2))
    assert pointers(size) <= pointers(nnx.state(nnx.Linear(size, 2, rngs=nnx.Rngs(0))))
    tied = nnx.Linear(2, 2, kernel_init=lambda *_: table, rngs=nnx.Rngs(0))
    assert pointers(table) <= pointers(nnx.state(tied))


@pytest.mark.parametrize("name", sorted(nnx_api.VARIABLE_TYPES))
def test_a_variable_holds_the_value_given_and_nothing_else(name: str) -> None:
    value = jnp.arange(3.0)
    variable = transform(name)(value)
    assert pointers(nnx.state(nnx.Dict(v=variable))) == pointers(value)
    assert sys.getrefcount(variable) == 2  # this name and the call's argument: none kept


def test_a_user_module_holds_what_its_init_stores_and_nothing_else() -> None:
    (base,) = nnx_api.USER_MODULE_BASES
    assert base in nnx_api.MODULE_BASES and transform(base) is nnx.Module

    class Block(nnx.Module):
        def __init__(self, n: int, *, rngs: nnx.Rngs) -> None:
            self.n = n
            self.linear = nnx.Linear(n, n, rngs=rngs)
            self.scale = nnx.Param(jnp.ones(n))

    rngs = nnx.Rngs(0)
    block = Block(2, rngs=rngs)
    stored = pointers((nnx.state(block.linear), block.scale[...]))
    assert pointers(nnx.state(block)) == stored and fresh_leaves(nnx.state(block), nnx.state(rngs))


class _Residual(nnx.Module):
    """A module holding a closure over a layer it built for it, and a layer of its own."""

    def __init__(self, n: int, *, rngs: nnx.Rngs) -> None:
        self.linear = nnx.Linear(n, n, rngs=rngs)
        self.block = self._block(n, rngs)

    def _block(self, n: int, rngs: nnx.Rngs):
        inner = nnx.Linear(n, n, rngs=rngs)

        def forward(x):
            return x + inner(x)

        return forward

    def __call__(self, x):
        return self.block(self.linear(x))


@pytest.mark.parametrize("base", sorted(nnx_api.STATIC_FUNCTION_BASES))
def test_a_closure_attribute_is_static_and_its_layers_are_never_donated(base: str) -> None:
    assert transform(base) is nnx.Module and issubclass(_Residual, transform(base))
    m, reference = _Residual(3, rngs=nnx.Rngs(0)), _Residual(3, rngs=nnx.Rngs(0))
    inner = m.block.__closure__[0].cell_contents
    assert isinstance(inner, nnx.Linear)
    assert pointers(nnx.state(m)) == pointers(nnx.state(m.linear))  # the closure's: none
    closed = snapshot(nnx.state(inner))
    (jit,) = nnx_api.UPDATES_MODULES
    positions, _ = nnx_api.DONATE_OPTIONS[jit]

    def train(m, optimizer, x):
        optimizer.update(m, nnx.grad(loss)(m, x))
        return loss(m, x)

    donating = transform(jit)(train, **{positions: (0, 1)})
    plain = transform(jit)(train)
    optimizer = nnx.Optimizer(m, optax.sgd(0.1), wrt=nnx.Param)
    kept = nnx.Optimizer(reference, optax.sgd(0.1), wrt=nnx.Param)
    old = m.linear.kernel[...]
    for rows in (2, 2, 5):  # a new shape traces again, reading the closure's layer again
        x = jnp.ones((rows, 3))
        assert jnp.allclose(donating(m, optimizer, x), plain(reference, kept, x))
    assert old.is_deleted() and not any(a.is_deleted() for a in jax.tree.leaves(nnx.state(inner)))
    assert leaves_equal(nnx.state(inner), closed)  # read as it is, nothing written back


def test_a_closure_over_a_leaf_s_array_fails_once_the_leaf_is_donated() -> None:
    """Why a closure may hold no array of the module's own leaves (nor of the caller's)."""

    class Tied(nnx.Module):
        def __init__(self, rngs: nnx.Rngs) -> None:
            self.linear = nnx.Linear(3, 3, rngs=rngs)
            kernel = self.linear.kernel[...]
            self.block = lambda x: x @ kernel

        def __call__(self, x):
            return self.block(self.linear(x))

    m = Tied(nnx.Rngs(0))
    step = nnx.jit(lambda m, x: jnp.sum(m(x)), donate_argnums=(0,))
    step(m, jnp.ones((2, 3)))
    with pytest.raises(RuntimeError, match="deleted"):
        step(m, jnp.ones((5, 3)))  # traced again: the closure reads the donated kernel


def _optimizer(name: str):
    assert resolve(name)
    return getattr(nnx, name.rsplit(".", 1)[1])


@pytest.mark.parametrize("name", sorted(nnx_api.OPTIMIZERS))
def test_an_optimizer_holds_its_model_or_none_of_it_and_new_buffers(name: str) -> None:
    """`OPTIMIZERS`: besides the very model (`ModelAndOptimizer`) or none of its arrays
    (`Optimizer`), the optimizer's arrays are new buffers, none twice."""
    assert nnx_api.OPTIMIZERS <= nnx_api.MODULE_CLASSES
    m = model()
    optimizer = _optimizer(name)(m, optax.adam(0.1), wrt=nnx.Param)
    own = [x for x in jax.tree.leaves(nnx.state(optimizer)) if isinstance(x, jax.Array)]
    held = pointers(nnx.state(m))
    fresh = [x for x in own if x.unsafe_buffer_pointer() not in held]
    assert fresh and fresh_leaves(fresh, nnx.state(m))
    holds_model = getattr(optimizer, "model", None) is m
    assert holds_model is (name == "flax.nnx.ModelAndOptimizer")
    assert (pointers(own) & held == held) if holds_model else not pointers(own) & held


@pytest.mark.parametrize("name", sorted(nnx_api.OPTIMIZERS))
def test_an_optimizer_s_parameters_are_the_signature_s(name: str) -> None:
    parameters = inspect.signature(_optimizer(name).__init__).parameters
    names = tuple(parameters)[1 : 1 + len(nnx_api.OPTIMIZER_PARAMETERS)]  # after `self`
    assert names == nnx_api.OPTIMIZER_PARAMETERS
    kinds = {parameters[f].kind for f in nnx_api.OPTIMIZER_FILTERS}
    assert kinds == {inspect.Parameter.KEYWORD_ONLY}


def _train(name: str, tx, donate: tuple[str, ...]) -> tuple[float, float]:
    """Three `nnx.jit` steps of a model and an optimizer built from it."""
    import functools

    m = model()
    optimizer = _optimizer(name)(m, tx, wrt=nnx.Param)

    @functools.partial(nnx.jit, donate_argnames=donate)
    def step(model, optimizer, x):
        value, grads = nnx.value_and_grad(lambda mm: jnp.sum(mm(x) ** 2))(model)
        if name == "flax.nnx.ModelAndOptimizer":
            optimizer.update(grads)
        else:
            optimizer.update(model, grads)
        return value

    for _ in range(3):
        value = step(m, optimizer, X)
    return float(value), float(jnp.sum(m.kernel[...]))


@pytest.mark.parametrize("name", sorted(nnx_api.OPTIMIZERS))
def test_a_model_and_its_optimizer_are_donated_together(name: str) -> None:
    """`nnx.jit` passes the model's variables once though both arguments reach them: both
    donated, the steps give what they give undonated."""
    donated = _train(name, optax.adam(0.1), ("model", "optimizer"))
    assert donated == _train(name, optax.adam(0.1), ())


@pytest.mark.parametrize("name", sorted(nnx_api.OPTIMIZERS))
def test_a_transformation_keeping_the_params_makes_the_donation_fail(name: str) -> None:
    """Why `tx`'s `init` must make new buffers: one returning the parameters puts them in
    the optimizer too, and XLA refuses to donate them twice."""
    keep = optax.GradientTransformation(lambda p: p, lambda u, s, p=None: (u, s))
    with pytest.raises(Exception, match="donate"):
        _train(name, keep, ("model", "optimizer"))


#: Each `UNKEPT_LAYER_CALLS` layer, built with its positional sizes, and an input for it.
UNKEPT_LAYERS = {
    "flax.nnx.Linear": (lambda r: nnx.Linear(3, 2, rngs=r), lambda: jnp.ones((2, 3))),
    "flax.nnx.Conv": (lambda r: nnx.Conv(1, 2, (3, 3), 1, rngs=r), lambda: jnp.ones((1, 4, 4, 1))),
    "flax.nnx.LayerNorm": (lambda r: nnx.LayerNorm(3, rngs=r), lambda: jnp.ones((2, 3))),
    "flax.nnx.Embed": (lambda r: nnx.Embed(4, 3, rngs=r), lambda: jnp.array([0, 2])),
}


@pytest.mark.parametrize("name", sorted(nnx_api.UNKEPT_LAYER_CALLS))
def test_an_unkept_layer_call_keeps_neither_its_input_nor_its_arrays(name: str) -> None:
    assert set(UNKEPT_LAYERS) == set(nnx_api.UNKEPT_LAYER_CALLS)
    make, data = UNKEPT_LAYERS[name]
    layer, x = make(nnx.Rngs(0)), data()
    before = [v for v in jax.tree.leaves(nnx.state(layer))]
    out = layer(x)
    assert isinstance(out, jax.Array) and not pointers(out) & pointers((x, before))
    after = [v for v in jax.tree.leaves(nnx.state(layer))]
    assert all(a is b for a, b in zip(before, after, strict=True))  # nothing stored
    inputs, arrays = weakref.ref(x), [weakref.ref(v) for v in before]
    del x, layer, before, after, out
    gc.collect()
    assert inputs() is None and all(ref() is None for ref in arrays), name


LAYER_CALLS = nnx_api.UNKEPT_LAYER_CALLS | nnx_api.STATS_LAYER_CALLS


@pytest.mark.parametrize("name", sorted(LAYER_CALLS))
def test_an_unkept_layer_s_positional_parameters_are_sizes(name: str) -> None:
    """The positions given to `UNKEPT_LAYER_CALLS` and `STATS_LAYER_CALLS` hold no
    function with a default, and every option run at call time (a function default) is
    left out of the plain ones."""
    parameters = list(inspect.signature(transform(name).__init__).parameters.values())[1:]
    positional = [p for p in parameters if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    assert len(positional) == LAYER_CALLS[name]
    assert not any(callable(p.default) and p.default is not p.empty for p in positional)
    for p in parameters[len(positional) :]:
        if callable(p.default) and not isinstance(p.default, type):
            hook = not p.name.endswith(nnx_api.INITIALIZER_SUFFIX)
            assert not hook or p.name not in nnx_api.PLAIN_LAYER_OPTIONS, p.name


def test_a_stats_layer_call_keeps_neither_its_input_nor_its_arrays() -> None:
    """`STATS_LAYER_CALLS`: `BatchNorm` in training mode returns a new array, keeps its
    own parameters as they were, replaces its statistics with new arrays sharing no
    buffer with the input or the old ones, and keeps no reference to either."""
    assert set(nnx_api.STATS_LAYER_CALLS) == {"flax.nnx.BatchNorm"}
    layer = nnx.BatchNorm(3, momentum=0.9, rngs=nnx.Rngs(0))
    x = jnp.arange(6.0).reshape(2, 3)
    params = jax.tree.leaves(nnx.state(layer, nnx.Param))
    stats = jax.tree.leaves(nnx.state(layer, nnx.BatchStat))
    out = layer(x)
    assert isinstance(out, jax.Array) and not pointers(out) & pointers((x, params, stats))
    after_params = jax.tree.leaves(nnx.state(layer, nnx.Param))
    after_stats = jax.tree.leaves(nnx.state(layer, nnx.BatchStat))
    assert all(a is b for a, b in zip(params, after_params, strict=True))
    assert not pointers(after_stats) & pointers((x, stats, out))
    assert not jnp.allclose(after_stats[0], stats[0])  # the running mean moved
    inputs, old = weakref.ref(x), [weakref.ref(v) for v in stats]
    del x, stats, out
    gc.collect()
    assert inputs() is None and all(ref() is None for ref in old)


@pytest.mark.parametrize("name", sorted(nnx_api.POOLING))
def test_pooling_returns_a_new_array_and_keeps_none(name: str) -> None:
    """`POOLING`: `flax.linen.pooling`'s functions, returning a new array."""
    from flax.linen import pooling

    short = name.rsplit(".", 1)[1]
    assert transform(name) is getattr(pooling, short)
    x = jnp.arange(32.0).reshape(1, 4, 4, 2)
    out = transform(name)(x, (2, 2), strides=(2, 2))
    assert out.shape == (1, 2, 2, 2) and not pointers(out) & pointers(x)
    ref = weakref.ref(x)
    del x
    gc.collect()
    assert ref() is None


def test_a_dot_general_hook_runs_at_every_call() -> None:
    """Why `dot_general` is no plain option: it is handed the kernel on each call."""
    seen = []

    def dot(x, kernel, *args, **kwargs):
        seen.append(kernel)
        return jax.lax.dot_general(x, kernel, *args, **kwargs)

    layer = nnx.Linear(3, 2, dot_general=dot, rngs=nnx.Rngs(0))
    layer(X)
    layer(X)
    assert len(seen) == 2 and seen[0] is layer.kernel.value


@pytest.mark.parametrize("name", sorted(nnx_api.JAX_FUNCTIONS))
def test_jax_functions_are_jax_nn_s_own(name: str) -> None:
    short = name.rsplit(".", 1)[1]
    assert getattr(nnx, short) is getattr(jax.nn, short)


def test_plain_layer_options_are_options_of_the_layers() -> None:
    names = set()
    for name in LAYER_CALLS:
        names |= set(inspect.signature(transform(name).__init__).parameters)
    assert names >= nnx_api.PLAIN_LAYER_OPTIONS


class _Rendered(nnx.Module):
    """A module of the kind `facts/rendering.py` accepts: listed layers of plain values,
    a `Sequential` of them, a lambda, a number; a public method and a property."""

    calls = 0

    def __init__(self, rngs: nnx.Rngs):
        self.size = 3
        self.layers = nnx.Sequential(*(make(rngs) for make in LAYERS.values()))
        self.skip = lambda x: x

    def __call__(self, x):
        return self.skip(x)

    def count(self):
        _Rendered.calls += 1

    @property
    def counted(self):
        _Rendered.calls += 1
        return 0


@pytest.fixture(params=[False, True], ids=["printed", "ipython"])
def rendering(request, monkeypatch):
    """`nnx.display` as it runs outside IPython (it prints) and inside (treescope)."""
    from flax.nnx import visualization

    monkeypatch.setattr(visualization, "in_ipython", request.param)
    return request.param


def test_rendering_keeps_nothing_and_runs_no_public_method(rendering, capsys) -> None:
    """What `RENDERING` and `RENDERED_LAYERS` claim: the call returns None and, once it
    returns, nothing holds the module or its arrays; rendering read no
    property and ran no method of the module's own but its hooks."""
    assert {"flax.nnx.display"} == nnx_api.RENDERING
    assert nnx_api.SEQUENTIAL == "flax.nnx.Sequential" and nnx_api.RNGS == "flax.nnx.Rngs"
    assert set(LAYERS) == nnx_api.RENDERED_LAYERS
    m = _Rendered(nnx.Rngs(0, dropout=1))
    held = [m, *(x for x in jax.tree.leaves(nnx.state(m)) if isinstance(x, jax.Array))]
    assert len(held) > len(LAYERS)
    refs = [weakref.ref(x) for x in held]
    assert nnx.display(m, jnp.ones(2), 3) is None
    assert capsys.readouterr().out
    del m, held
    gc.collect()
    assert [r for r in refs if r() is not None] == []
    assert _Rendered.calls == 0


class _Hook:
    """An object whose rendering hook keeps it."""

    kept: list = []

    def __repr__(self):
        _Hook.kept.append(self)
        return "hook"


class _Hooked(nnx.Module):
    def __init__(self):
        self.hook = _Hook()


def test_rendering_runs_the_hooks_of_what_it_reaches(rendering, capsys) -> None:
    """Why a class of the program with hooks of its own, or held in a field, is not
    proven: rendering runs them, and they may keep what they are given."""
    _Hook.kept.clear()
    nnx.display(_Hooked())
    capsys.readouterr()
    assert len(_Hook.kept) == 1


def _code_words(function) -> set[str]:
    """The identifiers of a function's code, its docstring left out."""
    import ast
    import textwrap

    node = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]
    assert isinstance(node, ast.FunctionDef)
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        node.body = node.body[1:]
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


@pytest.mark.parametrize("method", sorted(nnx_api.MODULE_METHODS))
def test_module_methods_are_flax_s_and_set_flags_only(method: str) -> None:
    """What `MODULE_METHODS` claims: every listed module class has nnx.Module's own method
    (or none), it changes only the two flags, and its code and `set_attributes`' name no
    builtin that reaches a namespace."""
    from autoopt.analysis.overlays import python as python_api

    own = getattr(nnx.Module, method)
    assert all(getattr(transform(n), method, own) is own for n in nnx_api.MODULE_CLASSES)
    rngs = nnx.Rngs(0)
    layers = [nnx.Dropout(0.5, rngs=rngs), nnx.BatchNorm(3, rngs=rngs), nnx.Linear(3, 3, rngs=rngs)]
    m = nnx.Sequential(*layers)
    before = [dict(vars(layer)) for layer in layers]
    getattr(m, method)()
    changed = {
        k
        for layer, old in zip(layers, before, strict=True)
        for k, v in vars(layer).items()
        if old.get(k) is not v
    }
    assert changed <= {"deterministic", "use_running_average"}
    reaching = (
        python_api.CODE_BUILTINS | python_api.NAMESPACE_BUILTINS | python_api.GLOBALS_ATTRIBUTES
    )
    assert not (_code_words(own) | _code_words(nnx.Module.set_attributes)) & reaching


class _Wrapper(nnx.Module):
    def __init__(self, inner: nnx.Module) -> None:
        self.inner = inner


def test_a_wrapper_and_its_module_are_donated_together() -> None:
    """`nnx.jit` passes a module two arguments share once: a wrapper holding the model,
    both donated, runs and leaves the model's (written back) kernel readable."""
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    wrapper = _Wrapper(model)
    before = float(jnp.sum(model.kernel[...]))
    step = nnx.jit(
        lambda m, w: m(jnp.ones(2)).sum() + w.inner(jnp.ones(2)).sum(), donate_argnums=(0, 1)
    )
    assert float(step(model, wrapper)) == pytest.approx(2 * float(model(jnp.ones(2)).sum()))
    assert float(jnp.sum(wrapper.inner.kernel[...])) == pytest.approx(before)


class _Recorded(nnx.Module):
    """A module recording the class of `self` at every run of its `__call__`."""

    def __init__(self, rngs: nnx.Rngs) -> None:
        self.dense = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        _CALLED.append(type(self))
        return self.dense(x)


_CALLED: list[type] = []


def _scaled(m, x, scale):
    return jnp.sum(m(x)) * scale


@pytest.mark.parametrize("name", sorted(nnx_api.ARGUMENT_TRANSFORMS))
def test_an_argument_transform_hands_the_function_its_arguments_in_order(name: str) -> None:
    """`ARGUMENT_TRANSFORMS`: the function gets the arguments the transformed function is
    given, in order, a module argument as a module of its own class, whose `__call__` runs
    (the argument split and merged again, not replaced by another kind of object)."""
    m = _Recorded(nnx.Rngs(0))
    direct = _scaled(m, X, 2.0)
    _CALLED.clear()
    out = transform(name)(_scaled)(m, X, 2.0)
    assert _CALLED and all(c is _Recorded for c in _CALLED)
    if name in nnx_api.GRAD_LIKE:
        bias = out["dense"]["bias"][...]  # two rows of X, each scaled by 2.0
        assert type(out) is nnx.State and jnp.allclose(bias, 4.0)
        return
    value = out[0] if name in nnx_api.VALUE_AND_GRAD_LIKE else out
    assert jnp.allclose(value, direct)


@pytest.mark.parametrize("name", sorted(nnx_api.UNKEPT_LAYER_CALLS))
def test_an_unkept_layer_call_changes_no_python_attribute(name: str) -> None:
    """Calling an `UNKEPT_LAYER_CALLS` layer leaves its graph as it was (no Python
    attribute set, which `nnx.jit` would see as another graph), eagerly and traced:
    a jitted function given it traces once however often it is called."""
    make, data = UNKEPT_LAYERS[name]
    layer, x = make(nnx.Rngs(0)), data()
    before = nnx.graphdef(layer)
    layer(x)
    assert nnx.graphdef(layer) == before
    traces = []

    @nnx.jit
    def run(layer, x):
        traces.append(1)
        return layer(x)

    for _ in range(3):
        run(layer, x)
    assert len(traces) == 1 and nnx.graphdef(layer) == before


def test_a_python_attribute_set_in_a_call_is_seen_by_nnx_jit_as_another_graph() -> None:
    """Why a module whose `__call__` sets a Python attribute keeps the compiled loop
    unsafe: eagerly, `nnx.jit` traces again at every call (the counter counts each step);
    a loop compiled around the step would count once or fail (the carry's graph changes)."""

    class Counted(nnx.Module):
        def __init__(self) -> None:
            self.dense = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
            self.calls = 0

        def __call__(self, x):
            self.calls += 1
            return self.dense(x)

    m = Counted()

    @nnx.jit
    def step(m, x):
        return m(x)

    for _ in range(3):
        step(m, X)
    assert m.calls == 3

    @nnx.jit
    def looped(m, x):
        def body(_, m):
            step(m, x)
            return m

        return nnx.fori_loop(0, 3, body, m)

    with pytest.raises(TypeError, match="carry"):
        looped(m, X)


@pytest.mark.parametrize("name", sorted(nnx_api.UNKEPT_LAYER_CALLS))
def test_layer_attributes_are_every_attribute_a_layer_holds(name: str) -> None:
    """`LAYER_ATTRIBUTES`: every attribute a built `UNKEPT_LAYER_CALLS` layer holds but
    flax's own bookkeeping (`_pytree__*`), its hooks among them."""
    make, _ = UNKEPT_LAYERS[name]
    held = {a for a in vars(make(nnx.Rngs(0))) if not a.startswith("_pytree__")}
    assert held <= nnx_api.LAYER_ATTRIBUTES


def test_set_attributes_sets_a_layer_s_hook() -> None:
    """Why `set_attributes` voids the listed layers' calls: it sets any attribute of the
    submodules that have it, a hook run at every call included."""
    seen = []

    def dot(x, kernel, *args, **kwargs):
        seen.append(1)
        return jax.lax.dot_general(x, kernel, *args, **kwargs)

    layer = model()
    getattr(layer, nnx_api.SET_ATTRIBUTES)(dot_general=dot)
    layer(X)
    assert seen == [1]


class _Plain:
    def __init__(self, w):
        self.w = w


class _Holder(nnx.Module):
    def __init__(self, w):
        self.obj = _Plain(w)
        self.p = nnx.Param(jnp.zeros(3))


@pytest.mark.parametrize("name", sorted(nnx_api.STATICS_AS_IS))
def test_a_jit_shows_its_body_plain_attributes_as_they_are_and_copies_of_the_rest(
    name: str,
) -> None:
    """`STATICS_AS_IS`: a plain attribute is the caller's object, a module and a variable
    are copies; a variable moved onto another argument is written back, holding a new
    buffer; a plain leaf of an argument raises."""
    w = jnp.arange(3.0)
    holder, box = _Holder(w), _Holder(jnp.ones(3))
    seen = {}

    def probe(a, b):
        seen.update(obj=a.obj, module=a, variable=a.p)
        b.p = a.p

    old = holder.p.get_value()
    transform(name)(probe)(holder, box)
    assert seen["obj"] is holder.obj and seen["obj"].w is w
    assert seen["module"] is not holder and seen["variable"] is not holder.p
    assert box.p is holder.p and holder.p.get_value() is not old
    with pytest.raises(TypeError):
        transform(name)(lambda a, b: None)(holder, _Plain(w))
    with pytest.raises(TypeError):  # a variable's value is a leaf: a plain one raises too
        transform(name)(lambda a: None)(nnx.Param(_Plain(w)))


def _statics(obj) -> list:
    """The values the graphdef of `obj` keeps (its static attributes, at any depth)."""
    return [
        value.value for _, value in nnx.graphdef(obj).attributes if type(value).__name__ == "Static"
    ]


BUFFERLESS_BUILDS = {
    "flax.nnx.Linear": lambda r: nnx.Linear(3, 2, use_bias=False, dtype=jnp.float32, rngs=r),
    "flax.nnx.Conv": lambda r: nnx.Conv(
        3, 4, kernel_size=(3, 3), strides=(2, 2), padding="SAME", rngs=r
    ),
    "flax.nnx.LayerNorm": lambda r: nnx.LayerNorm(3, epsilon=1e-5, rngs=r),
    "flax.nnx.BatchNorm": lambda r: nnx.BatchNorm(3, momentum=0.9, epsilon=1e-5, rngs=r),
    "flax.nnx.Embed": lambda r: nnx.Embed(4, 3, rngs=r),
    "flax.nnx.Rngs": lambda r: nnx.Rngs(0, noise=1),
    "flax.nnx.metrics.Accuracy": lambda r: nnx.metrics.Accuracy(),
    "flax.nnx.metrics.Average": lambda r: nnx.metrics.Average("loss"),
}


@pytest.mark.parametrize("name", sorted(nnx_api.BUFFERLESS_STATICS | nnx_api.BUFFERLESS_BUILT))
def test_bufferless_layers_keep_nothing_carrying_a_buffer_outside_variables(name: str) -> None:
    built = BUFFERLESS_BUILDS[name](nnx.Rngs(0))
    assert type(built) is transform(name)
    statics = _statics(built) + _statics(nnx.Sequential(built))
    assert all(carries_no_buffer(v) for v in statics), statics


@pytest.mark.parametrize("name", sorted(nnx_api.GRAPH_COLLECTIONS))
def test_a_collection_holds_the_graph_objects_it_is_given_and_no_buffer_outside(
    name: str,
) -> None:
    average, accuracy = nnx.metrics.Average("loss"), nnx.metrics.Accuracy()
    built = transform(name)(loss=average, accuracy=accuracy)
    assert built.loss is average and built.accuracy is accuracy
    assert all(carries_no_buffer(v) for v in _statics(built)), _statics(built)
    leaves = jax.tree.leaves(nnx.state(built))
    assert leaves and all(isinstance(leaf, jax.Array) for leaf in leaves)


def test_a_plain_attribute_is_static_and_seen_to_carry_a_buffer() -> None:
    """The checks above see what carries a buffer: a plain object holding an array."""
    assert not all(carries_no_buffer(v) for v in _statics(_Holder(jnp.ones(3))))


@pytest.mark.parametrize("name", sorted(optax_api.BUFFERLESS_OPTIMIZERS))
def test_an_optimizer_of_a_bufferless_transformation_keeps_no_buffer_outside_variables(
    name: str,
) -> None:
    tx = getattr(optax, name.rsplit(".", 1)[1])(1e-3)
    assert carries_no_buffer(tx)
    for cls in sorted(nnx_api.OPTIMIZERS):
        built = transform(cls)(model(), tx, wrt=nnx.Param)
        assert all(carries_no_buffer(v) for v in _statics(built))
    assert not carries_no_buffer(getattr(optax, name.rsplit(".", 1)[1])(jnp.asarray(1e-3)))


@pytest.mark.parametrize("name", sorted(nnx_api.ARRAY_ATTRIBUTES))
def test_an_array_stored_as_a_module_attribute_is_a_leaf(name: str) -> None:
    holder = _Holder(jnp.ones(3))
    w = jnp.arange(3.0)
    holder.w = w
    seen = {}

    def probe(a):
        seen["w"] = a.w

    transform(name)(probe)(holder)
    assert isinstance(seen["w"], jax.core.Tracer) and holder.w is not w


def test_nnx_jit_returns_new_array_buffers_and_a_module_given_as_it_is() -> None:
    """`NEW_ARRAY_OUTPUTS`: an argument's or a global's array returned as it is comes
    back in a new buffer; a module argument returned comes back as the very object."""
    assert {"flax.nnx.jit"} == nnx_api.NEW_ARRAY_OUTPUTS
    kept = jnp.arange(4.0)
    x = jnp.ones(4)
    out = nnx.jit(lambda a: (a, kept, a * 2))(x)
    got = {pointer for leaf in out for pointer in pointers(leaf)}
    assert got.isdisjoint(pointers(x) | pointers(kept)) and len(got) == 3
    net = model()
    assert nnx.jit(lambda m: m)(net) is net


def test_nnx_value_and_grad_gives_the_value_as_an_array() -> None:
    """`overlays.PLAIN_VALUE_AND_GRADS`: with no `has_aux`, the value is the one array
    the function returns; the gradient, state of the argument's structure."""
    from autoopt.analysis import overlays

    assert nnx_api.VALUE_AND_GRAD_LIKE <= overlays.PLAIN_VALUE_AND_GRADS
    net = model()
    value, grads = nnx.value_and_grad(lambda m, x: jnp.mean(m(x) ** 2))(net, jnp.ones((2, 3)))
    assert isinstance(value, jax.Array) and value.shape == ()
    assert jax.tree.structure(grads) == jax.tree.structure(nnx.state(net, nnx.Param))
