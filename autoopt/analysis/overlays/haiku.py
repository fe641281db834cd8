"""Facts about haiku that the analyses rely on.

`hk.transform(f)` gives a `Transformed`, a pair of pure functions: `init(rng, *args)`
gives the parameters and `apply(params, rng, *args)` the output. Its transforms are
meant for use inside a transformed function. Qualified names as `ImportMap.qualify`
spells them; methods by the class that defines them. A name missing here is unknown.
"""

from __future__ import annotations

#: Transforms that batch the function.
VMAP_LIKE = frozenset({"haiku.vmap"})
#: Transforms that run the function as a `lax.scan` body.
SCAN_LIKE = frozenset({"haiku.scan"})
#: Transforms that recompute the function's residuals in the backward pass.
REMAT_LIKE = frozenset({"haiku.remat"})
#: Every transform that traces the functions handed to it.
TRANSFORMS = VMAP_LIKE | SCAN_LIKE | REMAT_LIKE

#: Calls that keep the function handed to them as written and run it later inside their
#: own frame (parameters, state, rng): haiku refuses a function already jitted there, so
#: a jit is never added on it.
WRAPS_FUNCTION = frozenset({"haiku.transform", "haiku.transform_with_state"})
#: Calls that build pure functions from impure ones (they trace nothing themselves).
PURE_CALLS = frozenset({"haiku.transform", "haiku.transform_with_state", "haiku.without_apply_rng"})
#: Calls that transform a function into a `Transformed` whose `apply` (and `init`)
#: runs that function, as written, in haiku's frame: pure where the function is.
TRANSFORMING = frozenset({"haiku.transform", "haiku.transform_with_state"})
#: Modules whose construction inside a transformed function and whose call compute on
#: their arguments and on the parameters `hk.get_parameter` gives in haiku's frame alone
#: (no state, no rng drawn, nothing kept outside it).
LAYERS = frozenset({"haiku.Linear", "haiku.nets.MLP", "haiku.Conv2D", "haiku.LayerNorm"})
#: Methods that are pure functions of their arguments.
PURE_METHODS = frozenset({"haiku.Transformed.init", "haiku.Transformed.apply"})
#: Methods whose array leaves are new buffers, none of an argument's and none twice
#: (parameters and state made by haiku's initializers).
FRESH_RESULTS = frozenset({"haiku.Transformed.init", "haiku.TransformedWithState.init"})
#: Methods whose result is a pytree (a dict, or a tuple of two) whose leaves are JAX
#: arrays, where the function transformed makes its parameters and state with haiku's
#: initializers given constants (an initializer of the user's may return a NumPy array,
#: kept as it is).
ARRAYS_RESULTS = frozenset({"haiku.Transformed.init", "haiku.TransformedWithState.init"})
#: Methods whose result's pytree nodes are dicts alone (a tuple of two such for
#: `TransformedWithState`): parameters and state by module name, then by parameter name.
AUX_FREE_RESULTS = frozenset({"haiku.Transformed.init", "haiku.TransformedWithState.init"})
#: Constructors -> the class of the object they return, whose methods the tables list.
RETURNS = {
    "haiku.transform": "haiku.Transformed",
    "haiku.transform_with_state": "haiku.TransformedWithState",
}
#: Calls given one object of a class `RETURNS` lists that return an object of that class
#: with the very `init` of the one given (`hk.without_apply_rng` changes only `apply`).
SAME_INIT = frozenset({"haiku.without_apply_rng"})
#: Layers -> the argument (keyword, position) that is an array they keep as a parameter
#: as it is: `hk.Embed(embedding_matrix=t)` makes `t` itself its parameter.
ARRAY_PARAMETERS = {"haiku.Embed": ("embedding_matrix", 2)}
