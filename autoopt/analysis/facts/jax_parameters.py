"""Arguments of a JAX call that must stay Python values under `jax.jit`.

From the library's signatures (`overlays/jax_signatures`): an argument whose parameter
does not take array data (`k` of `lax.top_k`, `deg` of `jnp.polyfit`, the exponent of
`jnp.power`), one no parameter matches, and a `*args` that may fill such a parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import libcst as cst

from autoopt.analysis.overlays import jax_signatures as table


@dataclass(frozen=True)
class Parameter:
    name: str
    traced: bool
    kind: str  # "" positional, "*" variable positional, ":" keyword-only, "**" keywords


@cache
def _parameters(qual: str) -> tuple[Parameter, ...] | None:
    spelled = table.SIGNATURES.get(qual)
    if spelled is None:
        return None
    out = []
    for token in spelled.split():
        kind = next((m for m in ("**", "*", ":") if token.startswith(m)), "")
        name = token[len(kind) :].removesuffix("~")
        out.append(Parameter(name, token.endswith("~"), kind))
    return tuple(out)


def python_arguments(qual: str, call: cst.Call) -> list[tuple[cst.BaseExpression, str]]:
    """The arguments of `call` (to the JAX function `qual`) that must be Python values,
    each with the parameter it fills (`*` where a starred argument may fill several);
    [] for a function the table does not list: it takes array data everywhere."""
    parameters = _parameters(qual)
    if parameters is None:
        return []
    positional = [p for p in parameters if p.kind in ("", "*")]
    by_name = {p.name: p for p in parameters if p.kind in ("", ":")}
    keywords = next((p for p in parameters if p.kind == "**"), None)
    out: list[tuple[cst.BaseExpression, str]] = []
    index = 0
    for arg in call.args:
        if arg.star:
            rest = positional[index:] if arg.star == "*" else list(by_name.values())
            if not rest or not all(p.traced for p in rest):
                out.append((arg.value, "*"))
            continue
        if arg.keyword is not None:
            parameter = by_name.get(arg.keyword.value, keywords)
        else:
            parameter = _positional(positional, index)
            index += 1
        if parameter is None or not parameter.traced:
            out.append((arg.value, parameter.name if parameter else "*"))
    return out


def _positional(positional: list[Parameter], index: int) -> Parameter | None:
    """The parameter the `index`-th positional argument fills (a `*args` fills the rest)."""
    if index < len(positional):
        return positional[index]
    last = positional[-1] if positional else None
    return last if last is not None and last.kind == "*" else None
