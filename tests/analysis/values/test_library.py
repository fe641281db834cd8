"""What library calls and attributes give on the value lattice."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.values.lattice import UNKNOWN, Kind, Value
from autoopt.analysis.values.library import (
    arange,
    attribute_value,
    call_value,
    constructed_class,
    reshaped,
)


@pytest.mark.parametrize(
    ("qual", "value"),
    [
        ("jax.numpy.float32", Value(Kind.DTYPE, constant=True)),
        ("numpy.pi", Value(Kind.SCALAR, constant=True)),
        ("jax.numpy", Value(Kind.MODULE, constant=True)),
        ("jax.numpy.newaxis", Value(Kind.NONE, constant=True)),
        ("jax.grad", Value(Kind.CALLABLE)),
        ("mylib.thing", UNKNOWN),
    ],
)
def test_attribute_value(qual: str, value: Value) -> None:
    assert attribute_value(qual) == value


@pytest.mark.parametrize(
    ("qual", "kind", "detail"),
    [
        ("jax.numpy.sin", Kind.ARRAY, None),
        ("jax.numpy.argmax", Kind.ARRAY, "int"),
        ("jax.numpy.isnan", Kind.ARRAY, "bool"),
        ("numpy.sin", Kind.HOST_ARRAY, None),
        ("numpy.random.default_rng", Kind.OBJECT, "numpy-rng"),
        ("jax.device_count", Kind.SCALAR, None),
        ("jax.jit", Kind.CALLABLE, "arrays"),
        ("jax.tree_util.tree_map", Kind.PYTREE, None),
        ("requests.get", Kind.UNKNOWN, None),
    ],
)
def test_call_value(qual: str, kind: Kind, detail: str | None) -> None:
    value = call_value(qual, cst.parse_expression("f(x)"))  # type: ignore[arg-type]
    assert (value.kind, value.detail) == (kind, detail)


def test_arange_and_reshape_keep_known_shapes() -> None:
    floats = arange(cst.parse_expression("24.0"))
    assert (floats.shape, floats.dtype) == ((24,), "float")
    call = cst.parse_expression("x.reshape(8, 3)")
    assert reshaped(floats, call).shape == (8, 3)  # type: ignore[arg-type]
    bad = cst.parse_expression("x.reshape(5, 5)")
    assert reshaped(floats, bad).shape is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        ("optax.adam(1e-3)", "optax.GradientTransformation"),
        (
            "optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))",
            "optax.GradientTransformation",
        ),
        # a transformation the user wrote may have an impure `update`: the chain is unknown
        ("optax.chain(my_transform(), optax.adam(1e-3))", None),
        ("optax.chain(clip, optax.adam(1e-3))", None),
        ("optax.chain(*parts)", None),
        ("my_transform()", None),
    ],
)
def test_constructed_class_vouches_for_a_chain_only_of_known_parts(
    code: str, cls: str | None
) -> None:
    def qualify(node: cst.BaseExpression) -> str | None:
        if type(node) is cst.Attribute and type(node.value) is cst.Name:
            return f"{node.value.value}.{node.attr.value}"
        return None

    call = cst.parse_expression(code)
    assert type(call) is cst.Call
    assert constructed_class(qualify, call) == cls
    made = call_value(qualify(call.func) or "", call, constructed_class(qualify, call))
    assert (made.kind is Kind.OBJECT) is (cls is not None)


_STRATEGY = "evosax.algorithms.base.EvolutionaryAlgorithm"
_NAMES = {
    "ES": "evosax.algorithms.SimpleES",
    "BBOB": "evosax.problems.BBOBProblem",
    "standardize": "evosax.core.fitness_shaping.standardize_fitness_shaping_fn",
    "add_weight_decay": "evosax.core.fitness_shaping.add_weight_decay",
    "optax.adam": "optax.adam",
}
#: Names bound before the constructor runs (`binding`), by their one assignment.
_BOUND = {
    "shaping": "add_weight_decay(standardize, weight_decay=0.01)",
    "mine": "make_shaping()",
}


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        ("ES(population_size=8, solution=x)", _STRATEGY),
        ("ES(8, x)", _STRATEGY),
        ("ES(population_size=8, solution=x, fitness_shaping_fn=standardize)", _STRATEGY),
        ("ES(8, x, fitness_shaping_fn=add_weight_decay(standardize, 0.1))", _STRATEGY),
        ("ES(8, x, fitness_shaping_fn=shaping)", _STRATEGY),
        ("BBOB(fn_name='sphere', num_dims=2, seed=0)", "evosax.problems.Problem"),
        ("ES(8, x, standardize)", None),  # a third positional: an option not data
        ("ES(8, x, optimizer=optax.adam(0.1))", None),  # an option not followed
        ("ES(8, x, metrics_fn=my_metrics)", None),  # a function of the program's own
        ("ES(8, x, fitness_shaping_fn=mine)", None),  # bound to what code not seen made
        ("ES(8, x, fitness_shaping_fn=unbound)", None),  # no one binding
        ("ES(8, x, fitness_shaping_fn=add_weight_decay(my_fn, 0.1))", None),
        ("ES(*args)", None),
        ("ES(8, x, **options)", None),
    ],
)
def test_constructed_class_vouches_for_evosax_objects_given_known_options(
    code: str, cls: str | None
) -> None:
    def qualify(node: cst.BaseExpression) -> str | None:
        code = cst.Module([]).code_for_node(node)
        return _NAMES.get(code)

    def binding(name: cst.Name) -> cst.BaseExpression | None:
        bound = _BOUND.get(name.value)
        return cst.parse_expression(bound) if bound else None

    call = cst.parse_expression(code)
    assert type(call) is cst.Call
    assert constructed_class(qualify, call, binding) == cls
