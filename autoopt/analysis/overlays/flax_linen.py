"""Facts about flax.linen that the analyses rely on.

A linen module is an immutable description; its arrays live in the variables that
`init` returns and `apply` takes, so both are pure functions of their arguments. Its
lifted transforms take a module class or method. Qualified names as `ImportMap.qualify`
spells them; methods by the class that defines them. A name missing here is unknown.
"""

from __future__ import annotations

#: Lifted transforms that compile a module's method.
JIT_LIKE = frozenset({"flax.linen.jit"})
#: Lifted transforms that batch a module.
VMAP_LIKE = frozenset({"flax.linen.vmap"})
#: Lifted transforms that run a module as a `lax.scan` body.
SCAN_LIKE = frozenset({"flax.linen.scan"})
#: Lifted transforms that recompute a module's residuals in the backward pass.
REMAT_LIKE = frozenset({"flax.linen.remat", "flax.linen.checkpoint"})
#: Every transform that traces the functions handed to it.
TRANSFORMS = JIT_LIKE | VMAP_LIKE | SCAN_LIKE | REMAT_LIKE

#: Methods that are pure functions of their arguments: `init(rngs, *args)` gives the
#: variables, `apply(variables, *args)` the output (and, with `mutable=`, the changed
#: collections, returned rather than written).
PURE_METHODS = frozenset({"flax.linen.Module.init", "flax.linen.Module.apply"})
#: Methods whose array leaves are new buffers, none of an argument's and none twice
#: (variables made by flax's initializers), on a module class deriving from
#: `MODULE_BASES`.
FRESH_RESULTS = frozenset({"flax.linen.Module.init"})
#: Base classes of linen modules (immutable dataclasses; `setup` fields are not state).
MODULE_BASES = frozenset({"flax.linen.Module"})
