"""Facts about the JAX, NumPy and Python APIs that the analyses rely on, in one place.

Every entry is a qualified name (as `ImportMap.qualify` spells it) or a prefix of
one. A name missing from these tables is code autoopt cannot vouch for: the
analyses then treat it as unknown, never as pure or array-valued.
"""

from __future__ import annotations

#: Spellings that compile a function (decorator, `f = jit(g)`, `partial(jit, ...)`).
JIT_SPELLINGS = frozenset(
    {
        "jax.jit", "jax.pmap", "jax.pjit", "jax.experimental.pjit.pjit",
        "flax.nnx.jit", "flax.linen.jit", "equinox.filter_jit", "equinox.filter_pmap",
    }
)  # fmt: skip

#: Transforms that trace the functions handed to them (any argument position).
TRACING_TRANSFORMS = JIT_SPELLINGS | frozenset(
    {
        "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jvp", "jax.vjp", "jax.linearize",
        "jax.jacfwd", "jax.jacrev", "jax.hessian", "jax.checkpoint", "jax.remat",
        "jax.custom_jvp", "jax.custom_vjp", "jax.eval_shape", "jax.named_call",
        "jax.xla_computation",
        "jax.make_jaxpr", "jax.shard_map", "jax.experimental.shard_map.shard_map",
        "jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.cond",
        "jax.lax.switch", "jax.lax.map", "jax.lax.associative_scan", "jax.lax.custom_root",
        "jax.lax.custom_linear_solve", "jax.checkpoint_policies", "flax.linen.scan",
        "flax.linen.vmap", "flax.linen.remat", "flax.nnx.scan", "flax.nnx.vmap", "flax.nnx.remat",
        "flax.nnx.grad", "flax.nnx.value_and_grad", "equinox.filter_grad",
        "equinox.filter_value_and_grad", "equinox.filter_vmap",
    }
)  # fmt: skip

#: Functional JAX namespaces: their calls compute on arrays and touch nothing else.
PURE_PREFIXES = (
    "jax.numpy.", "jax.lax.", "jax.nn.", "jax.random.", "jax.scipy.", "jax.tree_util.",
    "jax.tree.", "jax.debug.", "jax.image.", "jax.ops.", "jax.dtypes.",
    "math.", "functools.partial", "operator.", "numpy.",
)  # fmt: skip
PURE_JAX = TRACING_TRANSFORMS | frozenset(
    {"jax.block_until_ready", "jax.device_put", "jax.ShapeDtypeStruct"}
)

#: Calls that are side effects (I/O, clocks, the OS) or host randomness.
IMPURE_MODULES = {
    "numpy.random": "draws host random numbers with numpy.random",
    "random": "draws host random numbers with the random module",
    "logging": "logs",
    "time": "reads the clock",
    "os": "calls the operating system",
    "sys": "touches interpreter state",
    "pickle": "does I/O",
    "json": "does I/O",
    "subprocess": "starts processes",
    "shutil": "touches files",
    "pathlib": "touches files",
    "numpy.copyto": "writes into an array in place",  # the reason names the call after it
    "numpy.save": "does I/O",
    "numpy.load": "does I/O",
    "numpy.savez": "does I/O",
}
IMPURE_JAX = {
    "jax.device_get": "copies to the host",
    "jax.debug.breakpoint": "stops",
    "jax.debug.callback": "calls back into Python",
    "jax.pure_callback": "calls back into Python",
    "jax.experimental.io_callback": "calls back into Python",
}

#: NumPy calls that write into their first argument.
MUTATING_NUMPY = frozenset(
    {"numpy.copyto", "numpy.put", "numpy.place", "numpy.putmask", "numpy.fill_diagonal",
     "numpy.random.shuffle", "numpy.put_along_axis", "numpy.add.at", "numpy.random.seed"}
)  # fmt: skip

#: Builtins that compute a value from their arguments and touch nothing else.
PURE_BUILTINS = frozenset(
    {
        "abs", "all", "any", "bool", "complex", "dict", "divmod", "enumerate", "filter",
        "float", "frozenset", "getattr", "hasattr", "int", "isinstance", "issubclass",
        "len", "list", "map", "max", "min", "pow", "range", "reversed", "round", "set",
        "slice", "sorted", "str", "sum", "tuple", "type", "zip",
    }
)  # fmt: skip
IO_BUILTINS = {"print": "prints", "open": "opens a file", "input": "reads input"}

#: Modules of the APIs above, however imported (`import jax.numpy as jnp`, `from jax import
#: lax`): `lax.add(...)` calls a function of the module, not a method that changes it. A
#: module autoopt does not know may keep state its functions change (`registry.add(f)`).
MODULES = frozenset(
    {
        "jax", "jax.numpy", "jax.lax", "jax.nn", "jax.random", "jax.scipy", "jax.scipy.linalg",
        "jax.scipy.special", "jax.scipy.stats", "jax.tree_util", "jax.tree", "jax.debug",
        "jax.image", "jax.ops", "jax.dtypes", "jax.numpy.linalg", "jax.numpy.fft",
        "jax.experimental", "jax.sharding", "numpy", "numpy.random", "numpy.linalg",
        "numpy.fft", "numpy.ma", "math", "operator",
    }
)  # fmt: skip

#: Scalar types and dtypes, as the last part of a qualified name (`jnp.float32`).
DTYPE_NAMES = frozenset(
    {
        "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
        "float_", "int_", "complex_", "double", "single", "half",
    }
)  # fmt: skip
#: Module constants that are plain Python floats.
SCALAR_CONSTANTS = frozenset({"pi", "e", "inf", "nan", "euler_gamma", "tau"})

#: jax.numpy / jax.random functions -> indexes (and keywords) of their shape-like args.
SHAPE_ARGS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "jax.numpy.zeros": ((0,), ("shape",)),
    "jax.numpy.ones": ((0,), ("shape",)),
    "jax.numpy.empty": ((0,), ("shape",)),
    "jax.numpy.full": ((0,), ("shape",)),
    "jax.numpy.eye": ((0, 1), ("N", "M")),
    "jax.numpy.identity": ((0,), ("n",)),
    "jax.numpy.arange": ((0, 1, 2), ("start", "stop", "step")),
    "jax.numpy.linspace": ((2,), ("num",)),
    "jax.numpy.reshape": ((1,), ("shape", "newshape")),
    "jax.numpy.broadcast_to": ((1,), ("shape",)),
    "jax.numpy.tile": ((1,), ("reps",)),
    "jax.numpy.tri": ((0, 1), ("N", "M")),
    "jax.random.normal": ((1,), ("shape",)),
    "jax.random.uniform": ((1,), ("shape",)),
    "jax.random.bernoulli": ((2,), ("shape",)),
    "jax.random.randint": ((1,), ("shape",)),
    "jax.random.split": ((1,), ("num",)),
    "jax.random.permutation": ((), ()),
    "jax.random.choice": ((2,), ("shape",)),
    "jax.nn.one_hot": ((1,), ("num_classes",)),
}
SHAPE_METHODS = frozenset({"reshape", "broadcast_to", "repeat", "tile", "transpose", "swapaxes"})

#: Keywords whose value must be a Python value in any JAX or NumPy call or array method.
PYTHON_KEYWORDS = frozenset(
    {
        "axis", "axes", "axis1", "axis2", "shape", "newshape", "num", "dtype", "size",
        "keepdims", "ord", "k", "kind", "mode", "precision", "num_classes", "length",
        "total_repeat_length", "indices_are_sorted", "unique_indices", "order", "side",
        "method", "reverse", "unroll", "dimension", "dimension_numbers", "padding",
        "window_strides", "fill_value", "ddof", "bins", "decimals", "norm", "n",
    }
)  # fmt: skip

#: jax.numpy functions (name after `jax.numpy.`) -> the first positional argument that is
#: an axis or another Python-valued option rather than array data.
OPTION_POSITIONS = {
    **dict.fromkeys(
        ("sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "cumsum",
         "cumprod", "any", "all", "sort", "argsort", "median", "nansum", "nanmean", "nanmax",
         "nanmin", "squeeze", "expand_dims", "flip", "moveaxis", "swapaxes", "transpose",
         "concatenate", "stack", "split", "array_split", "repeat", "tile", "pad", "diff",
         "tril", "triu", "rot90", "round", "zeros_like", "ones_like", "empty_like", "ptp",
         "count_nonzero", "average", "logsumexp", "linalg.norm", "unstack", "atleast_1d"),
        1,
    ),
    **dict.fromkeys(
        ("take", "roll", "tensordot", "take_along_axis", "full_like", "percentile", "quantile",
         "diagonal", "trace", "insert", "delete", "append"),
        2,
    ),
}  # fmt: skip

#: jax.numpy functions whose output shape depends on the data (jit needs `size=`).
DYNAMIC_SHAPE = frozenset(
    {"nonzero", "argwhere", "flatnonzero", "unique", "compress", "extract", "union1d",
     "intersect1d", "setdiff1d", "setxor1d", "trim_zeros"}
)  # fmt: skip

#: Array-returning functions whose result dtype is known (last part of the name).
BOOL_RESULTS = frozenset(
    {"isnan", "isfinite", "isinf", "logical_and", "logical_or", "logical_not", "logical_xor",
     "greater", "less", "equal", "not_equal", "greater_equal", "less_equal", "isclose",
     "bernoulli", "signbit", "isin", "all", "any"}
)  # fmt: skip
INT_RESULTS = frozenset(
    {"arange", "argmax", "argmin", "argsort", "searchsorted", "randint", "permutation",
     "digitize", "bincount", "floor_divide", "indices", "tril_indices", "triu_indices",
     "lexsort", "argpartition", "categorical"}
)  # fmt: skip

#: Array methods that hand the value to Python (a device-to-host sync).
TO_PYTHON_METHODS = frozenset({"item", "tolist", "__array__", "__bool__", "__int__", "__index__"})
#: Calls that return Python numbers describing a device or process, not arrays.
JAX_PYTHON_INTS = frozenset(
    {"jax.device_count", "jax.local_device_count", "jax.process_index", "jax.process_count"}
)
