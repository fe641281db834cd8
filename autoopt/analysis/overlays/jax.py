"""Facts about the JAX API (jax, jax.numpy, jax.lax, jax.nn, jax.random, ...) that the
analyses rely on; the libraries built on it have overlays of their own (`optax`,
`flax_linen`, `flax_nnx`, `flax_training`, `equinox`, `haiku`), joined in `overlays`.

Every entry is a qualified name (as `ImportMap.qualify` spells it), a prefix of one, or
the last part of a name (a function of jax.numpy, a method of an array). What jax.numpy
and NumPy share by name (dtypes, elementwise functions, reductions, constructors) is
listed here once, for both. A name missing from these tables is code autoopt cannot
vouch for: the analyses then treat it as unknown, never as pure or array-valued.
"""

from __future__ import annotations

#: Spellings that compile a function (decorator, `f = jit(g)`, `partial(jit, ...)`).
JIT_SPELLINGS = frozenset({"jax.jit", "jax.pmap", "jax.pjit", "jax.experimental.pjit.pjit"})

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
        "jax.lax.custom_linear_solve", "jax.checkpoint_policies",
    }
)  # fmt: skip

#: Methods of `jax.custom_vjp` and `jax.custom_jvp` functions that register their
#: derivative rules, which then run when the function is differentiated.
CUSTOM_RULE_METHODS = frozenset({"defvjp", "defjvp", "defjvps"})

#: Transforms whose transformed function, called, returns new buffers wherever the
#: function handed to it returns values it computes from its arguments (a layer's call
#: of `overlays/equinox.py`, `FRESH_CALLS`), but never a value that function returns as
#: it is (`jax.vmap(lambda x: x)(xs)` is `xs`; with `out_axes=None` a captured array
#: comes back as it is) -> the options that keep it so.
FRESH_MAPS = {"jax.vmap": frozenset({"in_axes"})}

#: Functional JAX namespaces: their calls compute on arrays and touch nothing else.
PURE_PREFIXES = (
    "jax.numpy.", "jax.lax.", "jax.nn.", "jax.random.", "jax.scipy.", "jax.tree_util.",
    "jax.tree.", "jax.debug.", "jax.image.", "jax.ops.", "jax.dtypes.",
)  # fmt: skip
#: JAX calls outside those namespaces that are pure.
PURE_JAX = TRACING_TRANSFORMS | frozenset(
    {"jax.block_until_ready", "jax.device_put", "jax.ShapeDtypeStruct"}
)

#: JAX calls that are side effects -> what they do.
IMPURE_JAX = {
    "jax.device_get": "copies to the host",
    "jax.debug.breakpoint": "stops",
    "jax.debug.callback": "calls back into Python",
    "jax.pure_callback": "calls back into Python",
    "jax.experimental.io_callback": "calls back into Python",
}

#: JAX calls that stage a host effect into the computation they are traced in: it runs
#: every time the computation runs, so again when `jax.checkpoint` recomputes the body,
#: and once per example, grouped by statement, under `jax.vmap` -> what it does.
TRACED_EFFECTS = {
    "jax.debug.print": "prints from the trace",
    "jax.debug.callback": "calls back into Python from the trace",
    "jax.debug.breakpoint": "stops in the debugger from the trace",
    "jax.pure_callback": "calls back into Python from the trace",
    "jax.experimental.io_callback": "calls back into Python from the trace",
}

#: JAX's modules: their functions keep no state.
MODULES = frozenset(
    {
        "jax", "jax.numpy", "jax.lax", "jax.nn", "jax.random", "jax.scipy", "jax.scipy.linalg",
        "jax.scipy.special", "jax.scipy.stats", "jax.tree_util", "jax.tree", "jax.debug",
        "jax.image", "jax.ops", "jax.dtypes", "jax.numpy.linalg", "jax.numpy.fft",
        "jax.experimental", "jax.sharding",
    }
)  # fmt: skip

#: Scalar types and dtypes, as the last part of a qualified name (`jnp.float32`); `bool`
#: is left out: it is also the builtin's name.
DTYPE_NAMES = frozenset(
    {
        "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
        "float_", "int_", "complex_", "double", "single", "half",
    }
)  # fmt: skip
#: Functions that convert a Python number to an array -> the position of their dtype
#: argument (also given as `dtype=`).
CONVERSION_DTYPE_POSITIONS = {
    "jax.numpy.asarray": 1, "jax.numpy.array": 1, "jax.numpy.full": 2,
    "jax.numpy.full_like": 2, "jax.lax.convert_element_type": 1, "numpy.asarray": 1,
    "numpy.array": 1, "numpy.full": 2, "numpy.full_like": 2,
}  # fmt: skip
#: Of those, the ones whose dtype, when none is given, is another array's.
LIKE_CONVERSIONS = frozenset({"jax.numpy.full_like", "numpy.full_like"})
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
#: Array methods, and jax.numpy functions called as attributes (`jnp.tile`), whose
#: arguments after the array are shapes, axes or counts.
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

#: Array-returning functions whose result is a bool array (last part of the name).
BOOL_RESULTS = frozenset(
    {"isnan", "isfinite", "isinf", "logical_and", "logical_or", "logical_not", "logical_xor",
     "greater", "less", "equal", "not_equal", "greater_equal", "less_equal", "isclose",
     "bernoulli", "signbit", "isin", "all", "any"}
)  # fmt: skip
#: Array-returning functions whose result is an integer array (last part of the name).
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

#: Array methods whose arguments are Python values (shapes, axes, dtypes).
VALUE_METHODS = SHAPE_METHODS | {"astype", "view"}
#: Array methods that wait for the device: they hand the value to the host.
SYNC_METHODS = frozenset({"item", "tolist", "block_until_ready"})
#: Array attributes that are Python values under tracing too (shape, not data).
STATIC_ATTRS = frozenset({"shape", "ndim", "dtype", "size"})
#: Array attributes that are arrays.
ARRAY_ATTRS = frozenset({"T", "real", "imag", "mT"})
#: Array attributes of the array's own kind: ARRAY_ATTRS, and `x.at`, indexed like `x`.
SAME_KIND_ATTRS = ARRAY_ATTRS | {"at"}
#: Array methods that return an array.
ARRAY_METHODS = frozenset(
    {
        "sum", "mean", "max", "min", "prod", "std", "var", "reshape", "ravel", "flatten",
        "astype", "dot", "squeeze", "transpose", "clip", "cumsum", "cumprod", "round",
        "conj", "argmax", "argmin", "all", "any",
    }
)  # fmt: skip
#: Array methods that read the array without changing it (with Python's READ_METHODS,
#: what a method of an array or a container may call and leave it as it was).
READ_METHODS = frozenset(
    {"astype", "reshape", "ravel", "flatten", "copy", "mean", "sum", "std", "var", "min",
     "max", "transpose", "dot", "item", "tolist", "any", "all", "argmax", "argmin",
     "squeeze", "clip", "round", "cumsum", "prod", "swapaxes", "view", "nonzero", "tobytes",
     "block_until_ready"}
)  # fmt: skip
#: `.at[i]` update methods (`x.at[i].set(v)`).
AT_METHODS = frozenset({"set", "add", "multiply", "mul", "divide", "min", "max", "power"})
#: Type annotations that declare a JAX array.
ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "jax.numpy.DeviceArray"})

#: Floating dtypes, by the name `jnp.dtype(d).name` gives.
FLOAT_DTYPES = frozenset({"float16", "bfloat16", "float32", "float64"})
#: Complex dtypes, by that name.
COMPLEX_DTYPES = frozenset({"complex64", "complex128"})
#: Every dtype by that name: unlike DTYPE_NAMES, with `bool` and without NumPy's aliases.
DTYPES = (
    frozenset({"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})
    | FLOAT_DTYPES
    | COMPLEX_DTYPES
)
#: NumPy's other names of floating scalar types (`np.single` is float32).
FLOAT_ALIASES = frozenset({"single", "double", "half"})

#: jax.numpy and NumPy functions that return a tuple or list of arrays.
MULTI_RESULTS = frozenset(
    {
        "divmod", "frexp", "modf", "nonzero", "unique", "unique_all", "unique_counts",
        "unique_inverse", "histogram", "histogram2d", "histogramdd", "meshgrid", "split",
        "array_split", "hsplit", "vsplit", "dsplit", "unravel_index", "tril_indices",
        "triu_indices", "diag_indices", "mask_indices", "broadcast_arrays", "atleast_1d",
        "atleast_2d", "atleast_3d", "ix_", "gradient", "where", "polyfit", "indices",
    }
)  # fmt: skip
#: jax.numpy functions (name after `jax.numpy.`, with `linalg.` and `fft.`) that return
#: one array: those the library annotates `-> Array`, and its ufuncs. Any other is not
#: proven an array (`jnp.split` gives a list, `jnp.unstack` a tuple, `jnp.shape` a tuple
#: of ints).
ARRAY_FUNCTIONS = frozenset(
    {
        "abs", "absolute", "acos", "acosh", "add", "all", "allclose", "amax", "amin",
        "angle", "any", "append", "apply_along_axis", "apply_over_axes", "arange", "arccos",
        "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "argmin",
        "argpartition", "argsort", "argwhere", "around", "array", "array_equal",
        "array_equiv", "asarray", "asin", "asinh", "astype", "atan", "atan2", "atanh",
        "bartlett", "bincount", "bitwise_and", "bitwise_count", "bitwise_invert",
        "bitwise_left_shift", "bitwise_not", "bitwise_or", "bitwise_right_shift",
        "bitwise_xor", "blackman", "block", "broadcast_to", "cbrt", "ceil", "choose",
        "clip", "column_stack", "compress", "concat", "concatenate", "conj", "conjugate",
        "convolve", "copy", "copysign", "corrcoef", "correlate", "cos", "cosh",
        "count_nonzero", "cov", "cumprod", "cumsum", "cumulative_prod", "cumulative_sum",
        "deg2rad", "degrees", "delete", "diag", "diagflat", "diagonal", "diff", "digitize",
        "divide", "dot", "dstack", "ediff1d", "einsum", "empty", "empty_like", "equal",
        "exp", "exp2", "expand_dims", "expm1", "extract", "eye", "fabs", "fft.fft",
        "fft.fft2", "fft.fftfreq", "fft.fftn", "fft.fftshift", "fft.hfft", "fft.ifft",
        "fft.ifft2", "fft.ifftn", "fft.ifftshift", "fft.ihfft", "fft.irfft", "fft.irfft2",
        "fft.irfftn", "fft.rfft", "fft.rfft2", "fft.rfftfreq", "fft.rfftn", "fill_diagonal",
        "flatnonzero", "flip", "fliplr", "flipud", "float_power", "floor", "floor_divide",
        "fmax", "fmin", "fmod", "from_dlpack", "frombuffer", "fromfunction", "fromstring",
        "full", "full_like", "gcd", "geomspace", "greater", "greater_equal", "hamming",
        "hanning", "heaviside", "histogram_bin_edges", "hstack", "hypot", "i0", "identity",
        "imag", "inner", "insert", "interp", "invert", "isclose", "iscomplex", "isfinite",
        "isin", "isinf", "isnan", "isreal", "kaiser", "kron", "lcm", "ldexp", "left_shift",
        "less", "less_equal", "lexsort", "linalg.cholesky", "linalg.det", "linalg.diagonal",
        "linalg.eigvals", "linalg.eigvalsh", "linalg.inv", "linalg.matmul",
        "linalg.matrix_norm", "linalg.matrix_power", "linalg.matrix_rank",
        "linalg.matrix_transpose", "linalg.multi_dot", "linalg.norm", "linalg.outer",
        "linalg.pinv", "linalg.solve", "linalg.svdvals", "linalg.tensordot",
        "linalg.tensorinv", "linalg.tensorsolve", "linalg.trace", "linalg.vecdot",
        "linalg.vector_norm", "load", "log", "log10", "log1p", "log2", "logaddexp",
        "logaddexp2", "logical_and", "logical_not", "logical_or", "logical_xor", "logspace",
        "matmul", "matrix_transpose", "matvec", "max", "maximum", "mean", "median", "min",
        "minimum", "mod", "moveaxis", "multiply", "nan_to_num", "nanargmax", "nanargmin",
        "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmedian", "nanmin",
        "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar", "negative",
        "nextafter", "not_equal", "ones", "ones_like", "outer", "packbits", "pad",
        "partition", "percentile", "permute_dims", "piecewise", "place", "poly", "polyadd",
        "polyder", "polyint", "polymul", "polysub", "polyval", "positive", "pow", "power",
        "prod", "ptp", "put", "put_along_axis", "quantile", "rad2deg", "radians", "ravel",
        "ravel_multi_index", "real", "reciprocal", "remainder", "repeat", "reshape",
        "resize", "right_shift", "rint", "roll", "rollaxis", "roots", "rot90", "round",
        "searchsorted", "select", "setdiff1d", "setxor1d", "sign", "signbit", "sin", "sinc",
        "sinh", "sort", "sort_complex", "spacing", "sqrt", "square", "squeeze", "stack",
        "std", "subtract", "sum", "swapaxes", "take", "take_along_axis", "tan", "tanh",
        "tensordot", "tile", "trace", "transpose", "trapezoid", "tri", "tril", "trim_zeros",
        "triu", "true_divide", "trunc", "union1d", "unique_values", "unpackbits", "unwrap",
        "vander", "var", "vdot", "vecdot", "vecmat", "vstack", "zeros", "zeros_like"
    }
)  # fmt: skip
#: jax.numpy functions that return one array unless the keyword is given
#: (`jnp.linspace(..., retstep=True)` gives a pair).
ARRAY_UNLESS_KEYWORD = {"linspace": "retstep", "average": "returned"}
#: jax.numpy functions that return one array when given this many arguments
#: (`jnp.where(c, x, y)`; `jnp.where(c)` gives a tuple of index arrays).
ARRAY_WITH_ARGUMENTS = {"where": 3}
#: jax.numpy scalar types, called as functions (`jnp.float32(0.5)`): arrays.
SCALAR_TYPES = frozenset({"bool_", "int_", "float_", "complex_"})
#: jax.numpy functions that need concrete values under jit unless the keyword is given
#: with the value (None: any value): `jnp.bincount(x)` sizes its result by `x.max()`.
CONCRETE_UNLESS = {
    **dict.fromkeys(DYNAMIC_SHAPE, ("size", None)),
    "bincount": ("length", None),
    "delete": ("assume_unique_indices", "True"),
    "roots": ("strip_zeros", "False"),
}
#: jax.numpy and NumPy functions whose result holds no buffer of their arguments.
FRESH_FUNCTIONS = frozenset(
    {"zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
     "arange", "linspace", "eye", "identity", "array", "copy", "exp", "log", "sin", "cos",
     "tanh", "sqrt", "square", "matmul", "dot", "mean", "std", "var", "stack", "sum", "max",
     "min", "prod", "abs", "where", "maximum", "minimum", "clip", "argmax", "argmin",
     "logaddexp", "log1p", "expm1"}
)  # fmt: skip
#: jax.numpy constructors that always return a new buffer (safe to donate): unlike
#: FRESH_FUNCTIONS, only constructors, and `tile` and `repeat` of any argument.
FRESH_CONSTRUCTORS = frozenset(
    {
        "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
        "arange", "eye", "identity", "linspace", "array", "copy", "tile", "repeat",
    }
)  # fmt: skip
#: Constructors whose first argument is the shape.
SHAPED_CONSTRUCTORS = frozenset({"zeros", "ones", "empty", "full"})
#: Constructors of the default float from a shape: SHAPED_CONSTRUCTORS but `full`, whose
#: dtype is the fill value's.
FLOAT_CONSTRUCTORS = frozenset({"jax.numpy.zeros", "jax.numpy.ones", "jax.numpy.empty"})
#: Constructors that take the elements as a list.
LISTED_CONSTRUCTORS = frozenset({"array", "asarray"})
#: jax.numpy constructors whose result is never weakly typed.
STRONG_CONSTRUCTORS = frozenset({"zeros", "ones", "empty", "eye", "identity", "arange", "linspace"})
#: Constructors and conversions -> the position of their `dtype`; without one the
#: result is the default float (zeros, ones, empty) or has the dtype of the source.
DTYPE_POSITIONS = {"zeros": 1, "ones": 1, "empty": 1, "full": 2, "asarray": 1, "array": 1,
                   "zeros_like": 1, "ones_like": 1, "empty_like": 1, "full_like": 2}  # fmt: skip
#: Conversions to an array that keep the element type when no dtype is given.
CONVERSIONS = frozenset({"numpy.array", "numpy.asarray", "jax.numpy.array", "jax.numpy.asarray"})
#: Calls that copy an array to the device.
DEVICE_COPIES = frozenset({"jax.numpy.asarray", "jax.numpy.array", "jax.device_put"})
#: Calls that, given one value, return one JAX array (or raise): never a pytree of them.
ARRAY_MAKERS = frozenset({"jax.numpy.asarray", "jax.numpy.array"})
#: Calls that copy an array to the host.
HOST_COPIES = frozenset({"numpy.asarray", "numpy.array", "jax.device_get"})
#: Calls that stack a list of arrays into one.
STACKS = ("jax.numpy.stack", "jax.numpy.array", "jax.numpy.asarray")
#: The `None` of indexing that adds an axis.
NEW_AXIS = frozenset({"jax.numpy.newaxis", "numpy.newaxis"})

#: Elementwise functions (jax.numpy, numpy, jax.nn) whose result has the type of their
#: floating first argument when any other arguments are Python numbers.
ELEMENTWISE = frozenset(
    {"sin", "cos", "tan", "tanh", "sinh", "cosh", "exp", "expm1", "log", "log1p", "sqrt",
     "abs", "absolute", "square", "negative", "sign", "floor", "ceil", "round", "rint",
     "clip", "relu", "sigmoid", "gelu", "softplus", "silu", "elu", "leaky_relu", "arctan",
     "arcsin", "arccos", "reciprocal", "cbrt", "nan_to_num", "mod", "remainder", "fmod",
     "copy", "exp2", "log2", "log10"}
)  # fmt: skip
#: Functions (jax.numpy, jax.nn) whose result has the shape and dtype of their floating
#: first argument when the other arguments are Python numbers; read by plans/carry.py,
#: ELEMENTWISE by plans/carry_types.py: this one also has reorderings, cumulative sums,
#: softmax and `*_like`, and lacks the modulo ones, `rint`, `exp2`, `log2` and `log10`.
SHAPE_KEEPING = frozenset(
    {"sin", "cos", "tan", "tanh", "sinh", "cosh", "exp", "expm1", "log", "log1p", "sqrt",
     "abs", "absolute", "square", "negative", "sign", "floor", "ceil", "round", "roll",
     "clip", "relu", "sigmoid", "gelu", "softplus", "silu", "elu", "leaky_relu",
     "arctan", "arcsin", "arccos", "reciprocal", "cbrt", "fliplr", "flipud", "flip",
     "nan_to_num", "conj", "softmax", "log_softmax", "cumsum", "zeros_like", "ones_like",
     "empty_like", "copy"}
)  # fmt: skip
#: jax.numpy and NumPy functions whose result is floating (or complex) for any input.
ALWAYS_INEXACT = frozenset(
    {"exp", "expm1", "exp2", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "sinh",
     "cosh", "tanh", "arcsin", "arccos", "arctan", "sqrt", "cbrt"}
)  # fmt: skip
#: Elementwise functions of two arrays.
BINARY = frozenset({"add", "subtract", "multiply", "divide", "maximum", "minimum"})
#: Reductions that are also array methods (`x.sum()`): of a float array, a float.
REDUCTION_METHODS = frozenset({"sum", "mean", "max", "min", "prod"})
#: Reductions by function name, keeping the input's dtype: REDUCTION_METHODS and the
#: functions `amax` and `amin`, which arrays have no method of.
REDUCTIONS = REDUCTION_METHODS | {"amax", "amin"}

#: JAX namespaces whose functions trace like the eager calls they replace.
TRACEABLE_PREFIXES = (
    "jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.tree_util.",
    "jax.tree.",
)  # fmt: skip
#: Transforms whose immediate call `T(f)(a, b)` calls `f` with those arguments, traced
#: (`jax.grad` and `jax.value_and_grad` differentiate the first one, keeping its structure).
PASSING_TRANSFORMS = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.jit", "jax.checkpoint", "jax.remat"}
)
#: Transforms whose immediate call `T(f)(a, b)` calls `f` with slices of the mapped
#: arguments (the others as given): each parameter is of its argument's kind (an array
#: for an array, a pytree for a pytree), not of its shape.
BATCHING_TRANSFORMS = frozenset({"jax.vmap"})
#: Transforms that give the gradient alone.
GRADS = frozenset({"jax.grad"})
#: Transforms that give the value and the gradient.
VALUE_AND_GRADS = frozenset({"jax.value_and_grad"})
#: Functions that map a function over the leaves of pytrees.
TREE_MAPS = frozenset({"jax.tree_util.tree_map", "jax.tree.map"})
#: JAX calls that call a Python function they are given: on the host (callbacks), or
#: to trace it (transforms, tree maps).
CALLING = TRACING_TRANSFORMS | TREE_MAPS | frozenset(
    {"jax.debug.callback", "jax.pure_callback", "jax.experimental.io_callback",
     "jax.tree_util.tree_reduce", "jax.tree.reduce", "jax.tree_util.Partial",
     "jax.lax.reduce", "jax.lax.reduce_window", "jax.custom_gradient",
     "jax.closure_convert", "jax.linear_transpose"}
)  # fmt: skip
#: JAX calls that call the function they are given (their first argument) on the very
#: values they are given, as the call runs: tree maps and reductions over the leaves,
#: host callbacks. (Any function given as `is_leaf=` runs on every node of a tree.)
EAGER_CALLERS = TREE_MAPS | frozenset(
    {"jax.tree_util.tree_map_with_path", "jax.tree.map_with_path", "jax.tree_util.tree_reduce",
     "jax.tree.reduce", "jax.debug.callback", "jax.pure_callback",
     "jax.experimental.io_callback"}
)  # fmt: skip
#: JAX namespaces whose functions never donate an argument: donation is an option of a
#: jit's wrapper, and a function one of them is given (`lax.scan`'s body) is traced,
#: where no call donates.
NON_DONATING_PREFIXES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.")
#: Other JAX calls that never donate their arguments.
NON_DONATING_CALLS = frozenset({"jax.device_put", "jax.device_get", "jax.block_until_ready"})
#: jax's jits -> their options naming static arguments (by position, by name).
STATIC_OPTIONS = {"jax.jit": ("static_argnums", "static_argnames")}
#: jax's jits -> their options naming donated arguments (by position, by name).
DONATE_OPTIONS = {"jax.jit": ("donate_argnums", "donate_argnames")}
#: Options of `jax.jit` that only donate arguments.
DONATION_OPTIONS = frozenset(DONATE_OPTIONS["jax.jit"])
#: Array types that an index array selects from by copying (advanced indexing: a NumPy
#: copy, a JAX gather): `a[i]`, `i` an array of them, is a new buffer, never `a`'s.
INDEX_COPIES = frozenset({"numpy.ndarray", "jax.Array"})
#: NumPy dtypes a jit's device copy keeps, with or without `JAX_ENABLE_X64` (a float64
#: or int64 NumPy array becomes float32 or int32 without it).
DEVICE_KEPT_DTYPES = frozenset(
    {"bool_", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "float32",
     "complex64", "single", "half"}
)  # fmt: skip
#: Argument types a jit copies to the device on every call: donating one donates that
#: copy, and the caller's array keeps its values (a NumPy array, even where the CPU
#: client could alias its memory).
DEVICE_COPIED = frozenset({"numpy.ndarray"})
#: Jits whose wrapper keeps the compilations it makes: built once, it compiles once per
#: argument type and every later call reuses that.
CACHING_JITS = frozenset({"jax.jit", "jax.pmap"})
#: The containers (`Value.container`) whose pytree nodes hold no object in their aux
#: data but a dict's keys: `jax.jit` hands its body every other node's aux data (a
#: `flax.struct` field with `pytree_node=False`, an `eqx.field(static=True)`, a
#: registered class's aux data) as the caller's very objects.
AUX_FREE_CONTAINERS = frozenset({"tuple", "list", "dict"})
#: Bases of a class whose objects, the class registered as nothing else, are pytree
#: nodes with no aux data (None): a named tuple is flattened to its fields alone.
AUX_FREE_RECORD_BASES = frozenset({"typing.NamedTuple"})
#: Decorators that register a class as a pytree, by how their name ends.
PYTREE_DECORATORS = ("struct.dataclass", "chex.dataclass", "register_pytree_node_class")
#: Decorators that make an immutable pytree class of fields (flax).
FROZEN_DECORATORS = frozenset({"flax.struct.dataclass"})
#: Transforms that differentiate in reverse mode (they keep the forward pass's residuals).
REVERSE_MODE = ("jax.grad", "jax.value_and_grad", "jax.vjp", "jax.jacrev")
#: Spellings of `jax.checkpoint`.
CHECKPOINTS = ("jax.checkpoint", "jax.remat", "jax.ad_checkpoint.checkpoint")

#: Environment variables (or their prefixes) that JAX and XLA read when jax is imported.
ENV_PREFIXES = ("XLA_PYTHON_CLIENT_", "XLA_CLIENT_", "XLA_FLAGS", "JAX_")
#: Of those, the only settings known to change how much memory is allocated and how,
#: never what the program computes or prints (jaxlib reads them for the GPU client).
#: Every other one may: `JAX_LOG_COMPILES` and `JAX_EXPLAIN_CACHE_MISSES` log,
#: `JAX_DEBUG_NANS` raises, `JAX_ENABLE_X64` and `XLA_FLAGS` change results.
MEMORY_ENV = frozenset(
    {"XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_CLIENT_MEM_FRACTION",
     "XLA_PYTHON_CLIENT_ALLOCATOR"}
)  # fmt: skip
#: Top-level packages that read those settings, which is what the settings are for.
ENV_CONSUMERS = frozenset({"jax", "jaxlib"})

#: Calls that change JAX's global configuration, and with it what later JAX calls give
#: (`jax_enable_x64` changes the dtype `jnp.asarray` of a float64 buffer returns).
CONFIG_WRITERS = frozenset(
    {"jax.config.update", "jax.config.parse_flags_with_absl", "jax.enable_x64",
     "jax.experimental.enable_x64", "jax.experimental.disable_x64"}
)  # fmt: skip

_UNSIGNED = ("bool", "uint8", "uint16")
_SMALL_INTS = (*_UNSIGNED, "int8", "int16")
_INTS = (*_SMALL_INTS, "int32", "uint32", "int64", "uint64", "int")
_HALF = (*_INTS, "bfloat16", "float16")
#: dtype of an array -> the dtypes of (strongly typed) arrays that promote with it to
#: that same dtype (`jnp.result_type(acc, piece) == acc`), under either setting of
#: `jax_enable_x64`; "float" and "int" are JAX's default float and int, which that
#: setting makes 32- or 64-bit, so they absorb only what both widths absorb.
ABSORBS: dict[str, frozenset[str]] = {
    "bool": frozenset({"bool"}),
    "uint8": frozenset({"bool", "uint8"}),
    "uint16": frozenset(_UNSIGNED),
    "uint32": frozenset({*_UNSIGNED, "uint32"}),
    "int8": frozenset({"bool", "int8"}),
    "int16": frozenset({"bool", "uint8", "int8", "int16"}),
    "int32": frozenset({*_SMALL_INTS, "int32"}),
    "int": frozenset({*_SMALL_INTS, "int32", "int"}),
    "bfloat16": frozenset({*_INTS, "bfloat16"}),
    "float16": frozenset({*_INTS, "float16"}),
    "float32": frozenset({*_HALF, "float32"}),
    "float": frozenset({*_HALF, "float32", "float"}),
    "float64": frozenset({*_HALF, "float32", "float64", "float"}),
    "complex64": frozenset({*_HALF, "float32", "complex64"}),
    "complex128": frozenset({*_HALF, "float32", "float64", "float", "complex64", "complex128"}),
}

#: Calls that keep no reference to their arguments once they return and return none of
#: them -> the parameters that keep this so, in order (`overlays.KEEPS_NO_ARGUMENT`):
#: `jax.random.split(key, num)` and `fold_in(key, data)` compute new keys.
KEEPS_NO_ARGUMENT = {
    "jax.random.split": ("key", "num"),
    "jax.random.fold_in": ("key", "data"),
}
#: Calls whose result, unpacked into targets (`k, sub = jax.random.split(k)`), gives
#: each target a new buffer of its own, none an argument's.
UNPACKS_FRESH = frozenset({"jax.random.split"})
#: jax.random functions that return their argument's buffer (a raw key's data is the
#: key itself; a typed key wraps the data it is given): no new buffer.
RANDOM_VIEWS = frozenset({"jax.random.key_data", "jax.random.wrap_key_data"})
