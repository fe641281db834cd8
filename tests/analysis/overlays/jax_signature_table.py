"""Derive `overlays/jax_signatures.SIGNATURES` from the installed jax.

`python -m tests.analysis.overlays.jax_signature_table` prints the table to paste into the
overlay; `test_jax_signatures.py` checks that the overlay equals what this derives.
"""

from __future__ import annotations

import importlib
import inspect
import re

from autoopt.analysis.overlays import jax_signatures as table

#: Every alternative of an annotation that declares array data (`None` aside).
_ARRAYISH = frozenset(
    {
        "ArrayLike", "Array", "RealArray", "IntegerArray", "np.ndarray", "float",
        "Sequence[ArrayLike]", "list[ArrayLike]", "Sequence[Array]", "DuckTypedArray",
        "SupportsShape", "SupportsNdim", "SupportsSize", "tuple[ArrayLike, ...]",
    }
)  # fmt: skip
_SPELLINGS = (
    (r"typing\.|collections\.abc\.", ""),
    (r"jax\.jaxlib\._jax\.Array|<class 'jax\.jaxlib\._jax\.Array'>", "Array"),
    (r"numpy\.ndarray", "np.ndarray"),
    (r"jax\._src\.DuckTypedArray", "DuckTypedArray"),
    (
        r"Union\[Array, np\.ndarray, numpy\.bool, numpy\.number, bool, int, float, complex"
        r"(, DuckTypedArray)?\]",
        "ArrayLike",
    ),
)


def _annotation(parameter: inspect.Parameter) -> str | None:
    value = parameter.annotation
    if value is inspect.Parameter.empty:
        return None
    text = value if isinstance(value, str) else str(value)
    for pattern, spelling in _SPELLINGS:
        text = re.sub(pattern, spelling, text)
    return text


def _alternatives(text: str) -> list[str]:
    """The top-level `|` alternatives of an annotation, `None` left out."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        if char == "|" and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p not in ("None", "NoneType")]


def traced(qual: str, parameter: inspect.Parameter) -> bool:
    """The parameter takes array data: annotated so, or listed as taking it; never a
    whole-number exponent."""
    if table.INTEGER_EXPONENTS.get(qual) == parameter.name:
        return False
    return f"{qual}:{parameter.name}" in table.TRACED_UNANNOTATED or annotated(parameter)


def annotated(parameter: inspect.Parameter) -> bool:
    """The parameter's annotation declares array data."""
    text = _annotation(parameter)
    alternatives = _alternatives(text) if text is not None else []
    return bool(alternatives) and all(a in _ARRAYISH for a in alternatives)


def _token(qual: str, parameter: inspect.Parameter) -> str:
    mark = {
        inspect.Parameter.VAR_POSITIONAL: "*",
        inspect.Parameter.KEYWORD_ONLY: ":",
        inspect.Parameter.VAR_KEYWORD: "**",
    }.get(parameter.kind, "")
    return f"{mark}{parameter.name}{'~' if traced(qual, parameter) else ''}"


def derive() -> dict[str, str]:
    """Every public function of the listed modules with a parameter that does not take
    array data, and its parameters (see the overlay's docstring for the spelling)."""
    out: dict[str, str] = {}
    for module_name in table.MODULES:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            function = getattr(module, name)
            if name.startswith("_") or isinstance(function, type) or not callable(function):
                continue
            try:
                signature = inspect.signature(function)
            except (TypeError, ValueError):
                continue
            qual = f"{module_name}.{name}"
            tokens = [_token(qual, p) for p in signature.parameters.values()]
            if any(not t.endswith("~") for t in tokens):
                out[qual] = " ".join(tokens)
    return out


if __name__ == "__main__":
    for key, value in derive().items():
        print(f"    {key!r}: {value!r},")
