"""Library knowledge as data: one module per library, the facts the analysis needs
about its API (what a call returns, whether it is pure, which transforms it is):
`jax` (and the libraries built on it), `numpy`, `python` (builtins and the standard
library). Anything a table does not list is unknown. The analysis never imports these
libraries. Below, the tables that join every library's."""

from __future__ import annotations

from autoopt.analysis.overlays import jax, numpy, python

#: Modules however imported (`import jax.numpy as jnp`, `from jax import lax`) whose
#: functions keep no state: `lax.add(...)` calls a function of the module, not a method
#: that changes it. A module autoopt does not know may keep state its functions change
#: (`registry.add(f)`).
MODULES = jax.MODULES | numpy.MODULES | python.MODULES
#: Prefixes of calls that compute on arrays or numbers and touch nothing else (save the
#: impure calls).
PURE_PREFIXES = jax.PURE_PREFIXES + python.PURE_PREFIXES + numpy.PURE_PREFIXES
#: Modules and calls that are side effects or host randomness -> what they do.
IMPURE_MODULES = {**numpy.IMPURE_CALLS, **python.IMPURE_MODULES}
