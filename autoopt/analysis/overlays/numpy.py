"""Facts about the NumPy API that the analyses rely on.

Qualified names as `ImportMap.qualify` spells them (`numpy.copyto`), or method names.
What jax.numpy and NumPy share by name (dtypes, elementwise functions, reductions,
constructors) is listed once, in `overlays/jax.py`. A name missing here is unknown:
never pure, never known to return a fresh array.
"""

from __future__ import annotations

#: NumPy calls that write into their first argument.
MUTATING_FUNCTIONS = frozenset(
    {"numpy.copyto", "numpy.put", "numpy.place", "numpy.putmask", "numpy.fill_diagonal",
     "numpy.random.shuffle", "numpy.put_along_axis", "numpy.add.at", "numpy.random.seed"}
)  # fmt: skip
#: Array methods that change the array they are called on (`sort` is listed with Python's;
#: `byteswap(True)` swaps in place).
MUTATING_METHODS = frozenset({"fill", "resize", "put", "itemset", "partition", "setfield",
                              "byteswap"})  # fmt: skip
#: NumPy calls that return a new array, sharing no memory with their arguments (`array`:
#: unless given `copy=`).
NEW_ARRAY_CALLS = frozenset(
    f"numpy.{f}"
    for f in ("zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
              "full_like", "array", "copy", "arange", "eye", "identity", "linspace")
)  # fmt: skip
#: NumPy's ufuncs -> how many inputs they take: the positional arguments after those are
#: outputs (`np.multiply(a, b, out)` writes `out`).
UFUNC_INPUTS = {
    **dict.fromkeys(
        ("abs", "absolute", "acos", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan",
         "arctanh", "asin", "asinh", "atan", "atanh", "bitwise_count", "bitwise_invert",
         "bitwise_not", "cbrt", "ceil", "conj", "conjugate", "cos", "cosh", "deg2rad", "degrees",
         "exp", "exp2", "expm1", "fabs", "floor", "frexp", "invert", "isfinite", "isinf",
         "isnan", "isnat", "log", "log10", "log1p", "log2", "logical_not", "modf", "negative",
         "positive", "rad2deg", "radians", "reciprocal", "rint", "sign", "signbit", "sin",
         "sinh", "spacing", "sqrt", "square", "tan", "tanh", "trunc"),
        1,
    ),
    **dict.fromkeys(
        ("add", "arctan2", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or",
         "bitwise_right_shift", "bitwise_xor", "copysign", "divide", "divmod", "equal",
         "float_power", "floor_divide", "fmax", "fmin", "fmod", "gcd", "greater",
         "greater_equal", "heaviside", "hypot", "lcm", "ldexp", "left_shift", "less",
         "less_equal", "logaddexp", "logaddexp2", "logical_and", "logical_or", "logical_xor",
         "matmul", "matvec", "maximum", "minimum", "mod", "multiply", "nextafter", "not_equal",
         "pow", "power", "remainder", "right_shift", "subtract", "true_divide", "vecdot",
         "vecmat"),
        2,
    ),
}  # fmt: skip
#: Functions of OUT_MODULES other than ufuncs that take `out` by position -> its index.
OUT_POSITIONS = {
    **dict.fromkeys(("fix", "isneginf", "isposinf"), 1),
    **dict.fromkeys(
        ("all", "amax", "amin", "any", "argmax", "argmin", "around", "choose", "concat",
         "concatenate", "dot", "max", "median", "min", "nanargmax", "nanargmin", "nanmax",
         "nanmedian", "nanmin", "outer", "ptp", "round", "stack"),
        2,
    ),
    **dict.fromkeys(
        ("clip", "compress", "cumprod", "cumsum", "mean", "nancumprod", "nancumsum", "nanmean",
         "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar", "percentile",
         "prod", "quantile", "std", "sum", "take", "var"),
        3,
    ),
    "is_busday": 4, "busday_count": 5, "trace": 5, "busday_offset": 6,
    **{f"fft.{n}": 4 for n in ("fft", "fft2", "fftn", "hfft", "ifft", "ifft2", "ifftn", "ihfft",
                               "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftn")},
}  # fmt: skip
#: Modules whose every function taking `out` by position is a ufunc or in OUT_POSITIONS
#: (named after `numpy.` there): a call of another function of theirs writes only its
#: `out=` keyword (and what MUTATING_FUNCTIONS writes).
OUT_MODULES = frozenset({"numpy", "numpy.fft", "numpy.linalg", "numpy.random"})
#: Every method of a NumPy array (the public ones).
ARRAY_METHODS = frozenset(
    {"all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "byteswap", "choose",
     "clip", "compress", "conj", "conjugate", "copy", "cumprod", "cumsum", "diagonal", "dot",
     "dump", "dumps", "fill", "flatten", "getfield", "item", "itemset", "max", "mean", "min",
     "nonzero", "partition", "prod", "put", "ravel", "repeat", "reshape", "resize", "round",
     "searchsorted", "setfield", "setflags", "sort", "squeeze", "std", "sum", "swapaxes",
     "take", "to_device", "tobytes", "tofile", "tolist", "trace", "transpose", "var", "view"}
)  # fmt: skip
#: Array methods that take `out` by position -> its index after the array.
METHOD_OUT_POSITIONS = {
    **dict.fromkeys(("all", "any", "argmax", "argmin", "choose", "dot", "max", "min", "round"), 1),
    **dict.fromkeys(
        ("clip", "compress", "cumprod", "cumsum", "mean", "prod", "std", "sum", "take", "var"), 2
    ),
    "trace": 4,
}  # fmt: skip
#: Ufunc methods (`np.add.reduce`) that take `out` by position -> its index (`at` writes
#: its first argument).
UFUNC_METHOD_OUT = {"reduce": 3, "accumulate": 3, "reduceat": 4}
#: Functions that change their first argument in place when told not to copy -> the
#: position of their `copy` (`np.nan_to_num(x, copy=False)`).
COPY_POSITIONS = {"numpy.nan_to_num": 1}
#: NumPy functions that call the function they are given.
CALLING_FUNCTIONS = frozenset(
    {"numpy.apply_along_axis", "numpy.apply_over_axes", "numpy.vectorize", "numpy.frompyfunc",
     "numpy.piecewise", "numpy.fromfunction"}
)  # fmt: skip
#: NumPy calls that are side effects or host randomness -> what they do.
IMPURE_CALLS = {
    "numpy.random": "draws host random numbers with numpy.random",
    "numpy.copyto": "writes into an array in place",  # the reason names the call after it
    "numpy.save": "does I/O",
    "numpy.load": "does I/O",
    "numpy.savez": "does I/O",
}
#: NumPy's functions compute on arrays, except those listed as impure or mutating.
PURE_PREFIXES = ("numpy.",)
#: NumPy's packages that read no JAX or XLA setting of the environment when imported.
ENV_BLIND_MODULES = frozenset({"numpy"})
#: NumPy's modules: their functions keep no state.
MODULES = frozenset({"numpy", "numpy.random", "numpy.linalg", "numpy.fft", "numpy.ma"})

#: Narrow NumPy floats, and the Python numbers below which NumPy 1 keeps them.
NARROW_FLOATS = {"float16": 65504.0, "float32": 3.4e38}
#: Generator methods (`rng.normal`) -> the position of their `size`.
RNG_SIZE = {"random": 0, "standard_normal": 0, "normal": 2, "uniform": 2, "integers": 2}
#: Generator methods -> the dtype of their result (None: platform dependent).
RNG_DTYPE = {"random": "float64", "standard_normal": "float64", "normal": "float64",
             "uniform": "float64", "integers": None}  # fmt: skip
#: Methods of arrays and Generators whose result is a new object.
FRESH_METHODS = frozenset(
    {"item", "tolist", "normal", "uniform", "integers", "random", "standard_normal",
     "randn", "rand", "randint", "permutation", "exponential", "poisson", "binomial",
     "mean", "std", "var", "sum", "max", "min", "prod", "argmax", "argmin", "any", "all"}
)  # fmt: skip
#: Array methods that neither keep a reference to the array nor change it in place.
READING_METHODS = frozenset({"astype", "reshape", "sum", "mean", "max", "min", "prod", "clip",
                             "copy", "any", "all"})  # fmt: skip
#: NumPy functions whose result may be their argument itself, or that resize it.
MAY_RETURN_ITSELF = frozenset(
    {"asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "array", "require",
     "resize"}
)  # fmt: skip
