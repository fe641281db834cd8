"""What diffrax's solve and helpers give on the value lattice (`overlays/diffrax.py`).

`diffeqsolve(...)` is a solution object whose `ys` is proven a JAX array where `y0` is
one and `saveat` is left out or a `SaveAt` of the options that save states (a name
bound to one counts: the value model gives it as such an object);
`backward_hermite_coefficients(ts, ys)` of arrays is a tuple of arrays.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from autoopt.analysis.overlays import diffrax as diffrax_api
from autoopt.analysis.values.lattice import ARRAY, UNKNOWN, Kind, Value, arrays_in

#: `Kind.OBJECT` details: a `SaveAt` that saves states; a solution whose `ys` is an array.
SAVES_STATES = "diffrax-saves-states"
ARRAY_STATES = "diffrax-array-states"

ValueOf = Callable[[cst.BaseExpression], Value]


def call_value(qual: str, call: cst.Call, value_of: ValueOf) -> Value:
    """The value of a call of `qual`, one of `overlays/diffrax.py` `CALLS`."""
    if any(arg.star for arg in call.args):
        return UNKNOWN
    if qual == diffrax_api.SAVE_AT:
        return Value(Kind.OBJECT, detail=SAVES_STATES) if _saves_states(call) else UNKNOWN
    if qual == diffrax_api.SOLVE:
        return _solution(call, value_of)
    given = [value_of(arg.value) for arg in call.args]
    return arrays_in("tuple") if given and all(v.kind is Kind.ARRAY for v in given) else UNKNOWN


def attribute_value(base: Value, attr: str) -> Value | None:
    """`sol.ys` of a solution whose saved states are proven an array; None otherwise."""
    if base.kind is Kind.OBJECT and base.detail == ARRAY_STATES:
        return ARRAY if attr == diffrax_api.SAVED_STATES else UNKNOWN
    return None


def _saves_states(call: cst.Call) -> bool:
    """`SaveAt(ts=ts)`, `SaveAt(t1=True)`: keywords of `SAVES_STATES` only, at least one,
    none a literal `False` or `None`."""
    keywords = [arg.keyword.value for arg in call.args if arg.keyword is not None]
    if not call.args or len(keywords) != len(call.args):
        return False
    off = any(type(a.value) is cst.Name and a.value.value in ("False", "None") for a in call.args)
    return set(keywords) <= diffrax_api.SAVES_STATES and not off


def _solution(call: cst.Call, value_of: ValueOf) -> Value:
    name, position = diffrax_api.INITIAL_STATE
    y0 = _argument(call, name, position)
    saveat = _argument(call, diffrax_api.SAVE_OPTION, None)
    if y0 is None or value_of(y0).kind is not Kind.ARRAY:
        return UNKNOWN
    if saveat is not None and value_of(saveat).detail != SAVES_STATES:
        return UNKNOWN
    return Value(Kind.OBJECT, detail=ARRAY_STATES)


def _argument(call: cst.Call, name: str, position: int | None) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    positional = [a.value for a in call.args if a.keyword is None]
    if position is None or position >= len(positional):
        return None
    return positional[position]
