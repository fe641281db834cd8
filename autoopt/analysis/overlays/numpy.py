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
#: Array methods that change the array they are called on (`sort` is listed with Python's).
MUTATING_METHODS = frozenset({"fill", "resize", "put", "itemset"})
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
