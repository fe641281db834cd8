"""The JAX overlay: internally consistent, qualified names only, and its claims checked
against the installed jax where that is cheap."""

from __future__ import annotations

import functools
import inspect
import typing

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from autoopt.analysis import overlays
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from tests.analysis.overlays import leaves_equal, lookup, resolve

#: Spellings of older JAX releases (or of libraries not installed) the tables keep.
OLD_SPELLINGS = {"jax.pjit", "jax.xla_computation", "jax.numpy.DeviceArray",
                 "jax.ad_checkpoint.checkpoint"}  # fmt: skip
X = jnp.ones((2, 3), jnp.float32)


def call(f, first):
    """`f(first)`, or with the Python numbers it needs after it."""
    for rest in ((), (1,), (0.0, 1.0)):
        try:
            return f(first, *rest)
        except TypeError:
            continue
    raise TypeError(f)


def test_every_jit_spelling_is_a_tracing_transform() -> None:
    assert jax_api.JIT_SPELLINGS <= jax_api.TRACING_TRANSFORMS
    assert "jax.jit" in jax_api.JIT_SPELLINGS and "jax.lax.scan" in jax_api.TRACING_TRANSFORMS


def test_names_are_qualified() -> None:
    names = jax_api.TRACING_TRANSFORMS | jax_api.PURE_JAX | set(jax_api.SHAPE_ARGS)
    assert all("." in name for name in names)
    assert all(name.startswith("jax.") for name in names)


def test_option_positions_follow_the_data() -> None:
    assert set(jax_api.OPTION_POSITIONS.values()) == {1, 2}
    assert jax_api.OPTION_POSITIONS["sum"] == 1 and jax_api.OPTION_POSITIONS["take"] == 2


def test_side_effects_are_never_pure() -> None:
    impure = set(overlays.IMPURE_MODULES) | set(jax_api.IMPURE_JAX)
    assert not impure & jax_api.PURE_JAX
    assert {f"numpy.{n}" for n in ("copyto", "put", "place", "putmask",
        "fill_diagonal", "put_along_axis")} | {"numpy.random.shuffle", "numpy.add.at",
        "numpy.random.seed"} >= numpy_api.MUTATING_FUNCTIONS  # fmt: skip


def test_qualified_names_exist() -> None:
    names = (
        jax_api.TRACING_TRANSFORMS | jax_api.PURE_JAX | set(jax_api.IMPURE_JAX)
        | set(jax_api.SHAPE_ARGS) | jax_api.JAX_PYTHON_INTS | jax_api.FLOAT_CONSTRUCTORS
        | jax_api.CONVERSIONS | jax_api.DEVICE_COPIES | jax_api.HOST_COPIES
        | set(jax_api.STACKS) | jax_api.NEW_AXIS | jax_api.PASSING_TRANSFORMS | jax_api.GRADS
        | jax_api.VALUE_AND_GRADS | jax_api.TREE_MAPS | set(jax_api.REVERSE_MODE)
        | set(jax_api.CHECKPOINTS) | jax_api.ARRAY_ANNOTATIONS | jax_api.MODULES
        | jax_api.CALLING | jax_api.ARRAY_MAKERS
    )  # fmt: skip
    jax_names = {n for n in names if n.startswith("jax.")} - OLD_SPELLINGS
    assert [n for n in sorted(jax_names) if not resolve(n)] == []
    prefixes = jax_api.PURE_PREFIXES + jax_api.TRACEABLE_PREFIXES
    assert all(resolve(p.rstrip(".")) for p in prefixes)


def test_jax_numpy_names_exist() -> None:
    names = (
        jax_api.FRESH_FUNCTIONS | jax_api.FRESH_CONSTRUCTORS | jax_api.SHAPED_CONSTRUCTORS
        | jax_api.LISTED_CONSTRUCTORS | jax_api.STRONG_CONSTRUCTORS | set(jax_api.DTYPE_POSITIONS)
        | jax_api.MULTI_RESULTS | jax_api.ALWAYS_INEXACT | jax_api.BINARY | jax_api.REDUCTIONS
        | jax_api.DYNAMIC_SHAPE
    )  # fmt: skip
    assert [n for n in sorted(names) if not hasattr(jnp, n)] == []
    # jax.nn's logsumexp is listed, though only jax.numpy names are looked up there
    options = set(jax_api.OPTION_POSITIONS) - {"logsumexp"}
    assert [n for n in sorted(options) if not resolve(f"jax.numpy.{n}")] == []
    results = jax_api.BOOL_RESULTS | jax_api.INT_RESULTS
    assert all(hasattr(jnp, n) or hasattr(jax.random, n) for n in results)


def _numpy_function(name: str):
    return functools.reduce(getattr, name.split("."), jnp)


@pytest.mark.parametrize("name", sorted(jax_api.ARRAY_FUNCTIONS))
def test_array_functions_return_one_array(name: str) -> None:
    """Annotated `-> jax.Array` by the library, or one of its ufuncs."""
    function = _numpy_function(name)
    hints = typing.get_type_hints(function) if not isinstance(function, jnp.ufunc) else {}
    assert isinstance(function, jnp.ufunc) or hints["return"] is jax.Array


def test_functions_left_out_are_not_one_array() -> None:
    """What the value model must not call an array: lists, tuples, Python values."""
    x = jnp.arange(6.0)
    assert isinstance(jnp.split(x, 2), list) and isinstance(jnp.array_split(x, 4), list)
    assert isinstance(jnp.unstack(x.reshape(2, 3)), tuple)
    assert isinstance(jnp.linalg.eigh(jnp.eye(2)), tuple)
    assert jnp.shape(x) == (6,) and jnp.ndim(x) == 1
    left_out = {"split", "array_split", "unstack", "linalg.eigh", "shape", "ndim", "where"}
    assert not left_out & jax_api.ARRAY_FUNCTIONS


@pytest.mark.parametrize("name", sorted(jax_api.ARRAY_UNLESS_KEYWORD))
def test_array_unless_keyword(name: str) -> None:
    keyword = jax_api.ARRAY_UNLESS_KEYWORD[name]
    args = {"linspace": (0.0, 1.0, 5), "average": (jnp.arange(4.0),)}[name]
    assert isinstance(getattr(jnp, name)(*args), jax.Array)
    assert isinstance(getattr(jnp, name)(*args, **{keyword: True}), tuple)


def test_array_with_arguments() -> None:
    assert jax_api.ARRAY_WITH_ARGUMENTS == {"where": 3}
    condition = jnp.arange(4) > 1
    assert isinstance(jnp.where(condition, 1.0, 0.0), jax.Array)
    assert isinstance(jnp.where(condition), tuple)


@pytest.mark.parametrize("name", sorted(jax_api.SCALAR_TYPES | jax_api.DTYPES))
def test_scalar_types_make_arrays(name: str) -> None:
    assert isinstance(getattr(jnp, name)(1), jax.Array)


CONCRETE_CALLS = {
    "bincount": lambda x, **kw: jnp.bincount(x, **kw),
    "delete": lambda x, **kw: jnp.delete(jnp.arange(6.0), x[:1], **kw),
    "roots": lambda x, **kw: jnp.roots(x.astype(float) + 1.0, **kw),
    "nonzero": lambda x, **kw: jnp.nonzero(x, **kw)[0],
}


@pytest.mark.parametrize("name", sorted(CONCRETE_CALLS))
def test_concrete_unless_keyword(name: str) -> None:
    """Under jit, the call fails without the keyword and runs with it."""
    keyword, value = jax_api.CONCRETE_UNLESS[name]
    given = {keyword: {"True": True, "False": False, None: 4}[value]}
    call, x = CONCRETE_CALLS[name], jnp.array([1, 2, 0, 1])
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(call)(x)
    assert isinstance(jax.jit(lambda x: call(x, **given))(x), jax.Array)


def test_shared_with_numpy() -> None:
    shared = (jax_api.FRESH_FUNCTIONS | jax_api.MULTI_RESULTS | jax_api.ALWAYS_INEXACT
              | set(jax_api.DTYPE_POSITIONS) | jax_api.SHAPED_CONSTRUCTORS)  # fmt: skip
    assert [n for n in sorted(shared) if not hasattr(np, n)] == []
    assert all(hasattr(np, n) or hasattr(jax.nn, n) for n in jax_api.ELEMENTWISE)
    assert all(hasattr(np, n) or hasattr(__import__("math"), n) for n in jax_api.SCALAR_CONSTANTS)


@pytest.mark.parametrize("name", sorted(jax_api.REDUCTIONS))
def test_reductions_drop_the_axis_and_keep_the_dtype(name: str) -> None:
    out = getattr(jnp, name)(X, axis=0)
    assert out.shape == (3,) and out.dtype == X.dtype
    host = getattr(np, name)(np.ones((2, 3), np.float32), axis=0)
    assert host.shape == (3,) and host.dtype == np.float32


@pytest.mark.parametrize("name", sorted(jax_api.REDUCTION_METHODS))
def test_reduction_methods(name: str) -> None:
    assert getattr(X, name)(axis=0).shape == (3,)
    assert getattr(X, name)().dtype == X.dtype


@pytest.mark.parametrize("name", sorted(jax_api.ELEMENTWISE | jax_api.SHAPE_KEEPING))
def test_elementwise_keep_shape_and_floating_dtype(name: str) -> None:
    f = getattr(jnp, name, None) or getattr(jax.nn, name)
    x = X
    if name == "cumsum":  # flattens an argument of two axes or more without `axis=`
        assert call(f, X).shape == (X.size,)
        x = X[0]
    out = call(f, x)
    assert out.shape == x.shape and out.dtype == x.dtype


@pytest.mark.parametrize("name", sorted(jax_api.ALWAYS_INEXACT))
def test_always_inexact(name: str) -> None:
    ints = [0, 1]  # within the domain of every listed function (arcsin, arccos, log, ...)
    assert jnp.issubdtype(getattr(jnp, name)(jnp.array(ints)).dtype, jnp.inexact)
    assert np.issubdtype(getattr(np, name)(np.array(ints[1:])).dtype, np.inexact)


def test_binary_and_multi_results() -> None:
    assert all(getattr(jnp, n)(X, X).shape == X.shape for n in jax_api.BINARY)
    assert isinstance(jnp.divmod(X, 2.0), tuple) and isinstance(jnp.split(X, 2), list)


def test_dtypes() -> None:
    assert all(jnp.dtype(n).name == n for n in jax_api.DTYPES)
    assert all(jnp.issubdtype(jnp.dtype(n), jnp.floating) for n in jax_api.FLOAT_DTYPES)
    assert all(jnp.issubdtype(jnp.dtype(n), jnp.complexfloating) for n in jax_api.COMPLEX_DTYPES)
    assert all(np.issubdtype(getattr(np, n), np.floating) for n in jax_api.FLOAT_ALIASES)
    # NumPy 2 dropped `float_` and `complex_`; `bfloat16` is JAX's alone
    spelled = [n for n in jax_api.DTYPE_NAMES if hasattr(jnp, n) or hasattr(np, n)]
    assert set(jax_api.DTYPE_NAMES) - set(spelled) <= {"float_", "complex_"}


def test_constructors() -> None:
    assert all(getattr(jnp, n)((2, 3), *((0.0,) if n == "full" else ())).shape == (2, 3)
               for n in jax_api.SHAPED_CONSTRUCTORS)  # fmt: skip
    for qual in jax_api.FLOAT_CONSTRUCTORS:
        assert getattr(jnp, qual.rsplit(".", 1)[1])(3).dtype == jnp.zeros(3).dtype
    for name, at in jax_api.DTYPE_POSITIONS.items():
        first = (2,) if name in jax_api.SHAPED_CONSTRUCTORS else X
        args = [*[first, 1.0][:at], jnp.int8]
        assert getattr(jnp, name)(*args).dtype == jnp.int8, name
    assert not any(call(getattr(jnp, n), 2).weak_type for n in jax_api.STRONG_CONSTRUCTORS)


def test_methods_and_attributes() -> None:
    methods = (jax_api.ARRAY_METHODS | jax_api.READ_METHODS | jax_api.SYNC_METHODS
               | jax_api.TO_PYTHON_METHODS | jax_api.VALUE_METHODS)  # fmt: skip
    assert [m for m in sorted(methods) if not (hasattr(X, m) or hasattr(jnp, m))] == []
    assert all(isinstance(getattr(X, a), jax.Array) for a in jax_api.ARRAY_ATTRS)
    assert all(hasattr(X.at[0], m) for m in jax_api.AT_METHODS)

    @jax.jit
    def static(x):
        assert all(not isinstance(getattr(x, a), jax.core.Tracer) for a in jax_api.STATIC_ATTRS)
        return x

    static(X)


def test_callbacks_call_their_function_on_the_host() -> None:
    seen = []
    jax.debug.callback(lambda v: seen.append(float(v)), jnp.float32(2.0))
    jax.effects_barrier()
    assert seen == [2.0]
    assert jax_api.TRACING_TRANSFORMS | jax_api.TREE_MAPS <= jax_api.CALLING


def test_tree_maps_and_grads() -> None:
    assert all(resolve(q) for q in jax_api.TREE_MAPS | jax_api.GRADS | jax_api.VALUE_AND_GRADS)
    value, grad = jax.value_and_grad(jnp.sum)(X)
    assert value.shape == () and grad.shape == X.shape


def test_memory_settings_are_the_gpu_allocator_options() -> None:
    """jaxlib reads each of them for the options of its GPU client, and no JAX option
    (`jax.config`) has their name."""
    from jaxlib import xla_client

    options = inspect.getsource(xla_client.generate_pjrt_gpu_plugin_options)
    assert all(f"os.getenv('{name}'" in options for name in jax_api.MEMORY_ENV)
    assert not any(hasattr(jax.config, name.lower()) for name in jax_api.MEMORY_ENV)
    assert all(name.startswith(jax_api.ENV_PREFIXES) for name in jax_api.MEMORY_ENV)
    assert {"jax", "jaxlib"} == jax_api.ENV_CONSUMERS


def test_traced_effects_exist() -> None:
    assert [n for n in sorted(jax_api.TRACED_EFFECTS) if not resolve(n)] == []
    assert set(jax_api.TRACED_EFFECTS) <= {*jax_api.IMPURE_JAX, "jax.debug.print"}


def test_a_traced_effect_runs_again_when_checkpoint_recomputes_its_body() -> None:
    calls: list[int] = []

    def body(x):
        jax.debug.callback(lambda _v: calls.append(1), x)
        return jnp.sin(x)

    jax.grad(body)(1.0)
    jax.effects_barrier()
    once = len(calls)
    jax.grad(jax.checkpoint(body))(1.0)
    jax.effects_barrier()
    assert (once, len(calls) - once) == (1, 2)
    assert jax.make_jaxpr(body)(1.0).effects


#: Context managers older JAX releases had (removed in jax 0.10).
_OLD_CONFIG_WRITERS = {"jax.experimental.enable_x64", "jax.experimental.disable_x64"}


def test_config_writers_exist() -> None:
    import importlib

    for qual in jax_api.CONFIG_WRITERS - _OLD_CONFIG_WRITERS:
        module, _, name = qual.rpartition(".")
        owner = jax.config if module == "jax.config" else importlib.import_module(module)
        assert callable(getattr(owner, name)), qual
    with jax.enable_x64(True):  # the new spelling changes the configuration it claims
        assert jax.config.jax_enable_x64
    assert not jax.config.jax_enable_x64


def _concrete(name: str, x64: bool) -> str:
    """A dtype name of the table as jax makes it: the defaults by the x64 setting."""
    return {"float": "float64" if x64 else "float32", "int": "int64" if x64 else "int32"}.get(
        name, name
    )


@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")
@pytest.mark.parametrize("x64", [False, True])
def test_absorbed_dtypes_promote_to_the_accumulators(x64: bool) -> None:
    with jax.enable_x64(x64):
        for acc, pieces in jax_api.ABSORBS.items():
            want = jnp.zeros(2, _concrete(acc, x64)).dtype
            for piece in pieces:
                got = jnp.concatenate([jnp.zeros(2, want), jnp.zeros(2, _concrete(piece, x64))])
                assert got.dtype == want, (acc, piece)


@pytest.mark.parametrize("name", sorted(jax_api.STATIC_OPTIONS))
def test_jit_options_are_the_signature_s(name: str) -> None:
    assert resolve(name)
    parameters = inspect.signature(jax.jit).parameters
    options = (*jax_api.STATIC_OPTIONS[name], *jax_api.DONATE_OPTIONS[name])
    assert all(o in parameters for o in options)
    assert set(jax_api.DONATE_OPTIONS[name]) == jax_api.DONATION_OPTIONS


def test_jit_static_and_donate_options_do_what_they_say() -> None:
    static, donate = jax_api.STATIC_OPTIONS["jax.jit"][1], jax_api.DONATE_OPTIONS["jax.jit"][1]
    step = jax.jit(lambda s, n: s * n, **{static: ("n",), donate: ("s",)})
    s = jnp.ones(3)
    assert float(step(s, 2).sum()) == 6.0 and s.is_deleted()


@pytest.mark.parametrize("name", sorted(jax_api.CACHING_JITS))
def test_a_caching_jit_built_once_traces_once(name: str) -> None:
    traces = []

    def f(x):
        traces.append(1)
        return x * 2.0

    wrapped = {"jax.jit": jax.jit, "jax.pmap": jax.pmap}[name](f)
    x = jnp.ones((1, 3))
    assert leaves_equal(wrapped(x), wrapped(x + 0.0))
    assert traces == [1]


def test_the_joined_jit_tables_name_jits() -> None:
    jits = overlays.JIT_SPELLINGS
    assert jits >= overlays.OPTION_JITS and jits >= overlays.CACHING_JITS
    assert set(overlays.JIT_STATIC_OPTIONS) <= set(overlays.JIT_DONATE_OPTIONS)
    assert jits >= overlays.NON_ARRAYS_STATIC and jits >= overlays.UPDATES_MODULES
    assert not set(overlays.JIT_DONATE_OPTIONS) & set(overlays.JIT_DONATE_MODES)


def _aligned(n: int) -> np.ndarray:
    """A float32 NumPy array of `n` threes whose data is 4096-byte aligned (what the CPU
    client may alias rather than copy)."""
    raw = np.empty(n * 4 + 4096, np.uint8)
    start = (-raw.ctypes.data) % 4096
    out = raw[start : start + n * 4].view(np.float32)
    out[:] = 3.0
    return out


@pytest.mark.parametrize("n", [8, 1 << 12, 1 << 20])
def test_donating_a_numpy_argument_leaves_it_as_it_was(n: int) -> None:
    """`DEVICE_COPIED`: a donated NumPy argument keeps its values (jit donates the device
    copy), through `jax.jit` and through `eqx.filter_jit(donate="all")`."""
    import equinox as eqx

    assert "numpy.ndarray" in jax_api.DEVICE_COPIED
    host = _aligned(n)
    out = jax.jit(lambda a: a * 2 + 1, donate_argnums=0)(host)
    assert float(out[0]) == 7.0 and bool((host == 3.0).all())
    other = _aligned(n)
    pair = eqx.filter_jit(lambda a, b: (a + 1, b * 2), donate="all")(host, other)
    assert float(pair[0][0]) == 4.0 and bool((host == 3.0).all()) and bool((other == 3.0).all())


@pytest.mark.parametrize("index", [np.arange(4), np.array([2, 0]), jnp.arange(4), np.ones(4, bool)])
def test_indexing_by_an_array_makes_a_new_buffer(index) -> None:
    """`INDEX_COPIES`: `a[i]`, `i` an array, is a new buffer: donating it leaves `a`."""
    assert {"numpy.ndarray", "jax.Array"} == jax_api.INDEX_COPIES
    device = jnp.arange(4.0)
    taken = device[index]
    jax.jit(lambda t: t + 1, donate_argnums=0)(taken)
    assert taken.is_deleted() and not device.is_deleted()
    assert float(device.sum()) == 6.0
    host = np.arange(4.0)
    copied = host[np.asarray(index)]
    copied[...] = -1.0
    assert float(host.sum()) == 6.0


@pytest.mark.parametrize("name", sorted(jax_api.DEVICE_KEPT_DTYPES))
def test_jit_copies_a_numpy_array_of_a_kept_dtype_exactly(name: str) -> None:
    """`DEVICE_KEPT_DTYPES`: the device copy a jit makes keeps the dtype and every value."""
    host = (np.arange(6) % 3 + 0.5).astype(getattr(np, name))
    out = jax.jit(lambda a: a)(host)
    assert out.dtype == host.dtype and np.array_equal(np.asarray(out), host)


@pytest.mark.parametrize("name", ["float64", "int64"])
def test_jit_narrows_a_numpy_array_of_another_dtype(name: str) -> None:
    """Why float64 and int64 are not in `DEVICE_KEPT_DTYPES` (without x64)."""
    assert name not in jax_api.DEVICE_KEPT_DTYPES
    if not jax.config.jax_enable_x64:
        assert jax.jit(lambda a: a)(np.zeros(3, getattr(np, name))).dtype != np.dtype(name)


def test_random_calls_keep_no_argument_and_unpack_new_buffers() -> None:
    import sys

    key = jax.random.PRNGKey(0)
    calls = {"jax.random.split": (key, 3), "jax.random.fold_in": (key, 7)}
    before = sys.getrefcount(key)
    assert set(calls) == set(jax_api.KEEPS_NO_ARGUMENT)
    for name, args in calls.items():
        f = getattr(jax.random, name.rsplit(".", 1)[1])
        params = list(inspect.signature(f).parameters)
        assert params[: len(jax_api.KEEPS_NO_ARGUMENT[name])] == list(
            jax_api.KEEPS_NO_ARGUMENT[name]
        )
        out = f(*args)
        assert out is not key and not any(a is out for a in args)
        assert out.unsafe_buffer_pointer() != key.unsafe_buffer_pointer()
    assert sys.getrefcount(key) == before  # nothing kept a reference
    assert overlays.KEEPS_NO_ARGUMENT["jax.random.split"] == ("key", "num")
    for name in jax_api.UNPACKS_FRESH:
        parts = list(getattr(jax.random, name.rsplit(".", 1)[1])(key, 3))
        pointers = {p.unsafe_buffer_pointer() for p in parts}
        assert len(pointers) == 3 and key.unsafe_buffer_pointer() not in pointers


def test_random_views_return_their_argument_s_buffer() -> None:
    raw = jax.random.PRNGKey(0)
    data = jax.random.key_data(raw)
    assert data.unsafe_buffer_pointer() == raw.unsafe_buffer_pointer()
    wrapped = jax.random.wrap_key_data(data)
    assert jax.random.key_data(wrapped).unsafe_buffer_pointer() == data.unsafe_buffer_pointer()
    assert {"jax.random.key_data", "jax.random.wrap_key_data"} == jax_api.RANDOM_VIEWS


@pytest.mark.parametrize("name", sorted(jax_api.NON_DONATING_CALLS))
def test_non_donating_calls_leave_their_argument_alive(name: str) -> None:
    x = jnp.arange(4.0)
    lookup(name)(x)
    assert not x.is_deleted() and float(x.sum()) == 6.0


@pytest.mark.parametrize(
    "name",
    ["jax.numpy.sin", "jax.lax.neg", "jax.nn.relu", "jax.scipy.special.erf", "jax.random.split"],
)
def test_functions_under_the_non_donating_prefixes_leave_their_argument_alive(name: str) -> None:
    assert name.startswith(jax_api.NON_DONATING_PREFIXES)
    x = jax.random.key(0) if name == "jax.random.split" else jnp.arange(4.0)
    lookup(name)(x)
    assert not x.is_deleted()


def test_the_non_donating_prefixes_are_jax_modules() -> None:
    for prefix in jax_api.NON_DONATING_PREFIXES:
        assert inspect.ismodule(lookup(prefix.rstrip(".")))


def test_custom_rule_methods_register_rules_that_run_under_differentiation() -> None:
    """`CUSTOM_RULE_METHODS`: each is a method of a `custom_vjp` or `custom_jvp` function,
    and the rule it registers runs (reading a global at that time) when differentiated."""
    vjp, jvp = jax.custom_vjp(lambda x: x), jax.custom_jvp(lambda x: x)
    owners = {m: [f for f in (vjp, jvp) if hasattr(f, m)] for m in jax_api.CUSTOM_RULE_METHODS}
    assert all(owners.values())
    scale = [2.0]
    vjp.defvjp(lambda x: (x, None), lambda _, g: (g * scale[0],))
    jvp.defjvp(lambda p, t: (p[0], t[0] * scale[0]))
    assert float(jax.grad(vjp)(1.0)) == 2.0 and float(jax.grad(jvp)(1.0)) == 2.0
    scale[0] = 3.0
    assert float(jax.grad(vjp)(1.0)) == 3.0 and float(jax.grad(jvp)(1.0)) == 3.0


@pytest.mark.parametrize("name", sorted(jax_api.ARRAY_MAKERS))
def test_array_makers_return_one_jax_array(name: str) -> None:
    make = lookup(name)
    for given in (np.ones(3), [1.0, 2.0], 3, jnp.ones(2), (np.ones(2), np.ones(2))):
        assert isinstance(make(given), jax.Array)
    with pytest.raises((TypeError, ValueError)):
        make({"w": jnp.ones(2)})  # a pytree is no array: it raises, never gives a pytree


def test_host_copies_hold_no_array_of_an_array_but_may_hold_other_objects() -> None:
    """`HOST_COPIES` of a JAX array is a NumPy array of numbers; of a dict, `np.asarray`
    makes a 0-d object array holding the dict itself, and `jax.device_get` returns a
    leaf that is no array as it is (`facts/aliases.py` links them weakly)."""
    assert {"numpy.asarray", "numpy.array", "jax.device_get"} == jax_api.HOST_COPIES
    w = jnp.ones(3)
    for convert in (np.asarray, np.array, jax.device_get):
        copied = convert(w)
        assert type(copied) is np.ndarray and copied.dtype == np.float32
    params = {"w": w}
    for convert in (np.asarray, np.array):
        assert convert(params).dtype == object and convert(params).item() is params
    assert jax.device_get(params)["w"] is not w

    class Box:
        def __init__(self, held: jax.Array) -> None:
            self.held = held

    box = Box(w)
    assert jax.device_get(box) is box


class _Plain:
    """Hashed by identity: a valid static argument."""


def test_a_jit_body_sees_a_static_argument_as_the_callers_object() -> None:
    """`facts/jit_arguments.py`: a static argument is the caller's very object in the body,
    which may store what it holds on another; any other argument must be arrays."""
    holder, box = _Plain(), _Plain()
    holder.w = jnp.arange(3.0)

    @functools.partial(jax.jit, static_argnums=(0, 1))
    def probe(holder, box, x):
        box.kept = holder.w
        return x + 1.0

    probe(holder, box, jnp.ones(3))
    assert box.kept is holder.w
    with pytest.raises(TypeError):
        jax.jit(lambda h, x: x)(holder, jnp.ones(3))


def test_a_map_is_fresh_only_where_its_function_computes() -> None:
    """`FRESH_MAPS`: `jax.vmap` hands back an input its function returns as it is, and a
    captured array under `out_axes=None`; what the function computes comes back new."""
    xs, held = jnp.ones((4, 3)), jnp.arange(3.0)
    assert set(jax_api.FRESH_MAPS) == {"jax.vmap"} and resolve("jax.vmap")
    assert set(inspect.signature(jax.vmap).parameters) >= jax_api.FRESH_MAPS["jax.vmap"]
    assert jax.vmap(lambda x: x)(xs) is xs
    assert jax.vmap(lambda x: held, out_axes=None)(xs) is held
    for out in (jax.vmap(lambda x: held * x)(xs), jax.vmap(lambda x: x + 1.0, in_axes=0)(xs)):
        found = out.unsafe_buffer_pointer()
        assert found not in {xs.unsafe_buffer_pointer(), held.unsafe_buffer_pointer()}


@pytest.mark.parametrize("container", sorted(jax_api.AUX_FREE_CONTAINERS))
def test_a_container_of_arrays_keeps_no_object_in_its_aux_data(container: str) -> None:
    """`facts/jit_arguments.py`: a tuple, list or dict of arrays (string keys) hands a
    jit's body no object of the caller's but tracers."""
    arrays = [jnp.ones(2), jnp.zeros(2)]
    value = {"tuple": tuple(arrays), "list": arrays, "dict": dict(zip("ab", arrays, strict=True))}[
        container
    ]
    kind, aux = jax.tree_util.tree_structure(value).node_data()  # type: ignore[misc]
    assert kind.__name__ == container
    assert aux is None or aux == ["a", "b"]


def _flax_record(obj: object) -> object:
    from flax import struct

    @struct.dataclass
    class Record:
        x: jax.Array
        obj: object = struct.field(pytree_node=False)

    return Record(jnp.ones(3), obj)


def _equinox_module(obj: object) -> object:
    import equinox as eqx

    class Carrier(eqx.Module):
        x: jax.Array
        obj: object = eqx.field(static=True)

    return Carrier(jnp.ones(3), obj)


class _Pair:
    def __init__(self, x: jax.Array, obj: object) -> None:
        self.x, self.obj = x, obj


jax.tree_util.register_pytree_node(
    _Pair, lambda p: ((p.x,), p.obj), lambda obj, xs: _Pair(xs[0], obj)
)


def _registered(obj: object) -> object:
    return _Pair(jnp.ones(3), obj)


@pytest.mark.parametrize("make", [_flax_record, _equinox_module, _registered])
def test_a_jit_body_sees_a_pytree_s_aux_data_as_the_callers_object(make) -> None:
    """`facts/jit_arguments.py`: a pytree argument that is not static (a `flax.struct`
    field with `pytree_node=False`, an `eqx.field(static=True)`, a registered class's aux
    data) hands the body its aux data as the caller's very objects, which the body may
    store what one holds on."""
    holder, box = _Plain(), _Plain()
    holder.w = jnp.arange(3.0)

    @jax.jit
    def probe(source, target):
        target.obj.kept = source.obj.w
        return source.x + target.x

    probe(make(holder), make(box))
    assert box.kept is holder.w


class _State(typing.NamedTuple):
    params: dict
    count: jax.Array


class _Registered(typing.NamedTuple):
    x: jax.Array
    w: jax.Array


class _Hold:
    def __init__(self, w: jax.Array) -> None:
        self.w = w


jax.tree_util.register_pytree_node(
    _Registered, lambda p: ((p.x,), _Hold(p.w)), lambda hold, xs: _Registered(xs[0], hold.w)
)


def test_a_named_tuple_has_no_aux_data_unless_registered() -> None:
    """`AUX_FREE_RECORD_BASES` (`facts/aux_free.py`): a `typing.NamedTuple` is a node
    whose aux data is None, and a jit's body given one sees tracers alone; registered as
    a pytree of its own, its aux data is what the registration makes (the caller's array
    here), which is why the module must not register it."""
    assert {"typing.NamedTuple"} == jax_api.AUX_FREE_RECORD_BASES
    state = _State({"w": jnp.ones(2)}, jnp.zeros(()))
    kind, aux = jax.tree_util.tree_structure(state).node_data()  # type: ignore[misc]
    assert kind is _State and aux is None
    seen = []

    @jax.jit
    def probe(value):
        seen.extend(jax.tree.leaves(value))
        return value

    probe(state)
    assert all(isinstance(leaf, jax.core.Tracer) for leaf in seen)
    registered = _Registered(jnp.ones(2), jnp.arange(2.0))
    kind, aux = jax.tree_util.tree_structure(registered).node_data()  # type: ignore[misc]
    assert kind is _Registered and aux.w is registered.w
