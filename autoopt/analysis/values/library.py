"""What JAX, NumPy and Python library calls and attributes give, on the value lattice.

`attribute_value(qual)` for a module attribute read without a call (`jnp.float32`,
`np.pi`), `call_value(qual, call, shape)` for a call of an imported function, and
`method_value(base, method, call)` for the methods of arrays whose type is known.
Shapes and dtypes are kept only where the call spells them out: `jnp.zeros((4, 3))`,
`jnp.arange(5)`, `x.reshape(8, 3)`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values.array_type import DEFAULT_FLOAT, DEFAULT_INT
from autoopt.analysis.values.lattice import (
    ARRAY,
    CALLABLE,
    CONST_SCALAR,
    HOST,
    NONE,
    PYTREE,
    SCALAR,
    UNKNOWN,
    Kind,
    Value,
    typed_value,
)


def attribute_value(qual: str) -> Value:
    """A module attribute read without a call: `jnp.float32`, `np.pi`, `jax.numpy`."""
    last = qual.rsplit(".", 1)[-1]
    if last in jax_api.DTYPE_NAMES:
        return Value(Kind.DTYPE, constant=True)
    if last in jax_api.SCALAR_CONSTANTS and qual.startswith(("numpy.", "math.", "jax.numpy.")):
        return CONST_SCALAR
    if last == "newaxis":
        return NONE
    if "." not in qual or qual in ("jax.numpy", "jax.lax", "jax.random", "jax.nn", "numpy.random"):
        return Value(Kind.MODULE, constant=True)
    if qual in nnx_api.IMPORTED_MODULES:
        return Value(Kind.MODULE, constant=True)
    if qual in overlays.TRACING_TRANSFORMS or qual.startswith(overlays.PURE_PREFIXES):
        return CALLABLE
    return UNKNOWN


#: What a name given to a constructor is bound to where the constructor runs (its one
#: binding, an assignment), or None where that is not proven.
Binding = Callable[[cst.Name], cst.BaseExpression | None]


def constructed_class(
    qualify: Callable[[cst.BaseExpression], str | None],
    call: cst.Call,
    binding: Binding | None = None,
) -> str | None:
    """The library class of the object `call` constructs (`optax.adam(...)` ->
    `optax.GradientTransformation`), or None. A combinator (`optax.chain`) is known only
    when each argument is such a constructor call, written in place: a transformation
    the user wrote may have an `update` that is not pure. A constructor whose options an
    overlay lists (`overlays.CONSTRUCTOR_OPTIONS`: an evosax strategy) is known only when
    given those, each function option a pure library function (`binding` reads a name's)."""
    qual = qualify(call.func) or ""
    cls = overlays.CONSTRUCTED_CLASSES.get(qual)
    if cls is not None and qual in overlays.CONSTRUCTOR_OPTIONS:
        return cls if _known_options(qualify, call, qual, binding) else None
    if cls is None or qual not in overlays.COMBINATORS:
        return cls
    parts = [a.value for a in call.args if not a.star and a.keyword is None]
    known = len(parts) == len(call.args) and all(
        type(p) is cst.Call and constructed_class(qualify, p) is not None for p in parts
    )
    return cls if known else None


def _known_options(
    qualify: Callable[[cst.BaseExpression], str | None],
    call: cst.Call,
    qual: str,
    binding: Binding | None,
) -> bool:
    """`call` gives the constructor `qual` its data options (the first ones by position)
    and, by keyword, function options that are pure library functions."""
    data = overlays.CONSTRUCTOR_OPTIONS[qual]
    for index, arg in enumerate(call.args):
        if arg.star:
            return False
        if arg.keyword is None:
            if index >= len(data):
                return False
        elif arg.keyword.value in overlays.FUNCTION_OPTIONS:
            if not pure_function(qualify, arg.value, binding):
                return False
        elif arg.keyword.value not in data:
            return False
    return True


def pure_function(
    qualify: Callable[[cst.BaseExpression], str | None],
    expr: cst.BaseExpression,
    binding: Binding | None = None,
) -> bool:
    """`expr` is a library function the overlays list pure (`overlays.PURE_FUNCTIONS`),
    a call of a maker of one wrapping such a function, or a name bound to either."""
    if type(expr) is cst.Name and qualify(expr) is None:
        bound = binding(expr) if binding is not None else None
        return bound is not None and pure_function(qualify, bound)
    if type(expr) is not cst.Call:
        return qualify(expr) in overlays.PURE_FUNCTIONS
    first = expr.args[0] if expr.args else None
    return (
        qualify(expr.func) in overlays.FUNCTION_MAKERS
        and first is not None
        and first.keyword is None
        and not first.star
        and pure_function(qualify, first.value, binding)
        and not any(a.star for a in expr.args)
    )


def call_value(qual: str, call: cst.Call, made: str | None = None) -> Value:
    """The value of a call to an imported function (`made`: the library class of the
    object it constructs, `constructed_class`)."""
    last = qual.rsplit(".", 1)[-1]
    if qual in jax_api.JAX_PYTHON_INTS or qual.startswith("math."):
        return SCALAR
    if qual == "jax.device_get":
        return HOST  # a NumPy array (or a pytree of them)
    if qual in ("jax.numpy.shape",):
        return Value(Kind.SHAPE)
    if qual in ("jax.numpy.ndim", "jax.numpy.size"):
        return SCALAR
    if qual in ("jax.numpy.dtype", "jax.numpy.result_type", "numpy.dtype"):
        return Value(Kind.DTYPE)
    if qual in overlays.TRACING_TRANSFORMS:
        return Value(Kind.CALLABLE, detail="arrays")
    if qual in ("jax.tree_util.tree_map", "jax.tree.map", "jax.device_put"):
        return PYTREE
    if qual.startswith("jax.numpy."):
        return _numpy_value(qual.removeprefix("jax.numpy."), call)
    if qual.startswith(("jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.")):
        return Value(Kind.ARRAY, detail=_element_type(last))
    if qual in overlays.ARRAY_CALLS:
        return ARRAY
    if qual in ("numpy.random.default_rng", "numpy.random.Generator", "numpy.random.RandomState"):
        return Value(Kind.OBJECT, detail="numpy-rng")
    if made is not None:
        return Value(Kind.OBJECT, detail=made)
    if qual in overlays.CONSTRUCTED_CLASSES:
        return UNKNOWN  # a combinator of transformations the overlays do not vouch for
    if qual in overlays.ARRAYS_RESULTS:
        return PYTREE
    if qual.startswith("numpy."):
        if last in jax_api.DTYPE_NAMES:
            return HOST
        return Value(Kind.HOST_ARRAY, detail=_element_type(last))
    return UNKNOWN


def numpy_returns_array(name: str, call: cst.Call) -> bool:
    """`jax.numpy.<name>(...)` returns one array (`jax_api.ARRAY_FUNCTIONS`)."""
    if name in jax_api.ARRAY_WITH_ARGUMENTS:
        given = [a for a in call.args if not a.star]
        return len(given) == len(call.args) == jax_api.ARRAY_WITH_ARGUMENTS[name]
    keyword = jax_api.ARRAY_UNLESS_KEYWORD.get(name)
    if keyword is not None:
        return not any(a.keyword is not None and a.keyword.value == keyword for a in call.args)
    return name in jax_api.ARRAY_FUNCTIONS or name in jax_api.SCALAR_TYPES | jax_api.DTYPES


def _numpy_value(name: str, call: cst.Call) -> Value:
    """A jax.numpy call: an array, a list or tuple of arrays, or not known."""
    if numpy_returns_array(name, call):
        return Value(Kind.ARRAY, detail=_element_type(name.rsplit(".", 1)[-1]))
    if name in jax_api.MULTI_RESULTS or name == "unstack":
        return PYTREE
    return UNKNOWN


def converted(qual: str, call: cst.Call, source: Value) -> Value:
    """`np.array([3, 17])`, `jnp.asarray(ids)` with one argument (no dtype): integer
    literals give ints, and a converted array keeps its element type; `jnp.asarray(x,
    jnp.float32)`, `dtype=jnp.float32`: the written dtype."""
    made = call_value(qual, call)
    written = [a.value for a in call.args[1:] if a.keyword is None or a.keyword.value == "dtype"]
    if written and not any(a.star for a in call.args):
        return typed_value(made.kind, dtype=_dtype_name(written[0]))
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return made
    element = "int" if _int_literals(call.args[0].value) else None
    if source.kind in (Kind.ARRAY, Kind.HOST_ARRAY):
        element = source.detail
    return Value(made.kind, detail=element) if element else made


def _int_literals(expr: cst.BaseExpression) -> bool:
    """A non-empty list or tuple of integer literals (negated or nested included)."""
    if type(expr) is cst.List or type(expr) is cst.Tuple:
        items = [e.value for e in expr.elements if type(e) is not cst.StarredElement]
        return bool(items) and len(items) == len(expr.elements) and all(map(_int_literals, items))
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus:
        return type(expr.expression) is cst.Integer
    return type(expr) is cst.Integer


def sliced_shape(shape: tuple[int, ...] | None, expr: cst.Subscript) -> tuple[int, ...] | None:
    """`shape[1:]` of a known shape, for literal bounds."""
    (element,) = expr.slice if len(expr.slice) == 1 else (None,)
    part = element.slice if element is not None else None
    if shape is None or type(part) is not cst.Slice or part.step is not None:
        return None
    bounds = [_int(b) for b in (part.lower, part.upper)]
    if any(b is False for b in bounds):
        return None
    return shape[bounds[0] : bounds[1]]


def _int(expr: cst.BaseExpression | None) -> int | bool | None:
    """A literal integer bound, None for an absent one, False for anything else."""
    if expr is None:
        return None
    if type(expr) is cst.Integer:
        return int(expr.value)
    if type(expr) is cst.UnaryOperation and type(expr.expression) is cst.Integer:
        return -int(expr.expression.value) if type(expr.operator) is cst.Minus else False
    return False


def constructed(call: cst.Call, shape_value: Value) -> Value:
    """`jnp.zeros((4, 3))`, `jnp.ones(3, jnp.float32)`: a literal shape and the dtype, the
    written one or DEFAULT_FLOAT, JAX's default float (float32, or float64 under x64: the same
    for every array built this way in one run)."""
    args = [a for a in call.args if not a.star]
    shape = _literal_shape(args[0].value) or shape_value.shape
    dtypes = [a.value for a in args[1:] if a.keyword is None or a.keyword.value == "dtype"]
    dtype = _dtype_name(dtypes[0]) if dtypes else DEFAULT_FLOAT
    return typed_value(Kind.ARRAY, shape, dtype)


def arange(stop: cst.BaseExpression) -> Value:
    """`jnp.arange(24.0)`: 24 default floats; `jnp.arange(5)`: 5 default ints."""
    if type(stop) is cst.Integer:
        return typed_value(Kind.ARRAY, (int(stop.value),), DEFAULT_INT, detail="int")
    if type(stop) is cst.Float and float(stop.value).is_integer():
        return typed_value(Kind.ARRAY, (int(float(stop.value)),), DEFAULT_FLOAT)
    return ARRAY  # `jnp.arange(n)`: ints or floats, as `n` is


def astyped(base: Value, call: cst.Call) -> Value:
    """`x.astype(np.float32)`: an array of the same kind with the written dtype (any
    other spelling: the dtype is unknown)."""
    args = [
        a for a in call.args if not a.star and (a.keyword is None or a.keyword.value == "dtype")
    ]
    dtype = _dtype_name(args[0].value) if len(args) == 1 == len(call.args) else None
    return typed_value(base.kind, dtype=dtype)


def reshaped(base: Value, call: cst.Call) -> Value:
    """`x.reshape(8, 3)` / `x.reshape((8, 3))` of a known shape with as many elements."""
    args = [a.value for a in call.args if a.keyword is None and not a.star]
    shape = _literal_shape(args[0]) if len(args) == 1 else _literal_shape(cst.Tuple([]))
    if len(args) > 1 and all(type(a) is cst.Integer for a in args):
        shape = tuple(int(a.value) for a in args if type(a) is cst.Integer)
    if shape is None or base.shape is None or math.prod(shape) != math.prod(base.shape):
        return ARRAY
    return typed_value(Kind.ARRAY, shape, base.dtype)


def _literal_shape(expr: cst.BaseExpression) -> tuple[int, ...] | None:
    if type(expr) is cst.Integer:
        return (int(expr.value),)
    if type(expr) is cst.Tuple and all(type(e.value) is cst.Integer for e in expr.elements):
        return tuple(int(e.value.value) for e in expr.elements if type(e.value) is cst.Integer)
    return None


def _dtype_name(expr: cst.BaseExpression) -> str | None:
    last = expr.attr.value if type(expr) is cst.Attribute else None
    return last if last in jax_api.DTYPE_NAMES else None


def _element_type(last: str) -> str | None:
    if last in jax_api.BOOL_RESULTS:
        return "bool"
    if last in jax_api.INT_RESULTS:
        return "int"
    return None
