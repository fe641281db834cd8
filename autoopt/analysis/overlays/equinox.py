"""Facts about equinox that the analyses rely on.

equinox's transforms take any pytree: array leaves are traced (or differentiated,
batched), every other leaf is static. Qualified names as `ImportMap.qualify` spells them.
A name missing here is unknown.
"""

from __future__ import annotations

#: Transforms that compile the function, with jit's semantics for its array leaves and
#: every non-array leaf static (hashed into the cache key): no `static_argnums` spelling.
JIT_LIKE = frozenset({"equinox.filter_jit", "equinox.filter_pmap"})
#: Jits whose wrapper keeps the compilations it makes (once per static part and array
#: types): `filter_jit` only; `filter_pmap` is left unknown.
CACHING_JITS = frozenset({"equinox.filter_jit"})
#: Transforms that give the gradient (of the first argument's floating array leaves).
GRAD_LIKE = frozenset({"equinox.filter_grad"})
#: Transforms that give the value and the gradient.
VALUE_AND_GRAD_LIKE = frozenset({"equinox.filter_value_and_grad"})
#: Transforms that batch the function over the array leaves.
VMAP_LIKE = frozenset({"equinox.filter_vmap"})
#: Transforms that recompute the function's residuals in the backward pass.
REMAT_LIKE = frozenset({"equinox.filter_checkpoint"})
#: Every transform that traces the functions handed to it.
TRANSFORMS = JIT_LIKE | GRAD_LIKE | VALUE_AND_GRAD_LIKE | VMAP_LIKE | REMAT_LIKE
#: The checkpoint AO601 writes around a layer: `filter_checkpoint(layer)(x)` traces the
#: layer's array leaves and the arguments' (every other leaf is static), gradients and
#: outputs equal to `layer(x)`'s.
REMAT = "equinox.filter_checkpoint"
#: Layers a module's `__call__` may apply inside `filter_checkpoint` with the same
#: outputs and gradients (`Dropout`'s mask comes from the key it is given).
REMAT_PURE = frozenset(
    {"equinox.nn.Linear", "equinox.nn.MLP", "equinox.nn.Conv2d", "equinox.nn.LayerNorm",
     "equinox.nn.MultiheadAttention", "equinox.nn.Dropout", "equinox.nn.Embedding"}
)  # fmt: skip
#: Transforms whose function, called, keeps no reference to its arguments once it
#: returns (no cache of static parts, unlike `filter_jit`): `filter_grad(f)(model, x)`.
UNKEPT_CALLS = GRAD_LIKE | VALUE_AND_GRAD_LIKE | VMAP_LIKE | REMAT_LIKE

#: jit-like transforms -> their one donation option, `donate=`, which donates the array
#: leaves of every argument (`"all"`) or of all but the first (`"all-except-first"`);
#: `"warn"` and `"warn-except-first"` donate likewise and warn when XLA cannot;
#: `"none"`, the default, donates nothing.
DONATE_OPTION = {"equinox.filter_jit": "donate", "equinox.filter_pmap": "donate"}
#: `filter_jit` donates only the array leaves (JAX and NumPy arrays) of the arguments its
#: mode donates; every other leaf (a function, a number, an optimizer's functions) is
#: static and kept as it is.
DONATES_ONLY_ARRAYS = frozenset({"equinox.filter_jit"})
#: Jits whose outputs' array leaves are new buffers, even an argument's or a global's
#: array returned as it is; every other leaf comes back as the trace made it (a number
#: or function argument, the very object).
FRESH_ARRAY_OUTPUTS = frozenset({"equinox.filter_jit"})
#: The values of `donate=` -> whether they donate the first argument; `"none"` is absent.
DONATE_MODES = {"all": True, "warn": True, "all-except-first": False, "warn-except-first": False}
#: The mode that keeps the first argument from donation, the first as
#: `inspect.Signature.bind` places it (passed by position or by keyword): a tuple there
#: keeps every array in it (equinox's advice for donating only some arguments).
KEEPS_FIRST = "all-except-first"

#: Calls that compute on their arguments and touch nothing else.
PURE_CALLS = frozenset(
    {"equinox.apply_updates", "equinox.filter", "equinox.partition", "equinox.combine",
     "equinox.is_array", "equinox.is_inexact_array", "equinox.tree_at"}
)  # fmt: skip
#: Calls -> the argument whose pytree structure the result has (`filter` and
#: `partition` put None, an empty subtree, in place of the leaves they drop).
SAME_STRUCTURE: dict[str, tuple[int, ...]] = {
    "equinox.apply_updates": (0,),
    "equinox.combine": (0,),
    "equinox.tree_at": (1,),
}
#: Calls -> the argument whose very pytree structure the result has, node classes and
#: static fields included (`apply_updates` maps over the updates, which must have the
#: model's structure, and changes leaves only): a method of the result is its class's.
KEEPS_CLASSES = {"equinox.apply_updates": 0}
#: Calls -> the arguments (by position) such that, where every array leaf of those is 0-d,
#: so is every array leaf of the result (`apply_updates` adds an update to each leaf).
LEAF_SHAPES_FROM: dict[str, tuple[int, ...]] = {"equinox.apply_updates": (0, 1)}
#: Calls whose result may hold the very buffers of an argument -> which and when:
#: `apply_updates` keeps a leaf of the model whose update is None, `filter` and
#: `partition` keep the leaves they select, `tree_at` every leaf it does not replace.
ALIASING = {
    "equinox.apply_updates": "keeps the leaves of its first argument whose update is None",
    "equinox.filter": "keeps the selected leaves of its first argument",
    "equinox.partition": "keeps the leaves of its first argument",
    "equinox.combine": "keeps the leaves of its arguments",
    "equinox.tree_at": "keeps the leaves of its second argument it does not replace",
    "equinox.nn.State": "holds the initial states its model argument keeps, the very buffers",
}
#: Base classes that make a class an immutable pytree of its fields: an object's field
#: cannot be set once `__init__` returns, and `__init__` sets nothing but fields.
MODULE_BASES = frozenset({"equinox.Module"})
#: Bases whose subclass that declares its fields (annotated names with no value) and
#: defines no `__init__` gets one taking a parameter per field, in the order the body
#: declares them, by position or by keyword, and storing each argument in its field as
#: given (`facts/declared_fields.py`).
FIELD_INIT_BASES = frozenset({"equinox.Module"})
#: Jits that hand their function new containers: a `Module`, tuple, list or dict argument
#: is rebuilt around tracers of its array leaves, so the function never sees the caller's
#: containers, only its other leaves (numbers, functions, plain objects) as they are.
REBUILT_ARGUMENTS = frozenset({"equinox.filter_jit"})
#: Layers none of whose fields, at any depth, is a mutable object or holds a buffer, but
#: their arrays and what they are given: each other value in them (static fields included)
#: is an argument they were given but `key`, as it is, a tuple of their own layers, or a
#: number, a boolean, a string, None or a callable of jax or equinox (a default
#: activation).
SEALED_LAYERS = frozenset({"equinox.nn.Linear", "equinox.nn.MLP"})
#: Layer constructors whose array leaves are new buffers (weights drawn from `key`,
#: never the key itself), none twice, whatever their sizes and flags (kept as static
#: fields), unless given the array of `HELD_ARGUMENTS` (`Embedding(weight=w)` keeps `w`).
FRESH_RESULTS = frozenset(
    {"equinox.nn.Linear", "equinox.nn.MLP", "equinox.nn.Conv2d", "equinox.nn.LayerNorm",
     "equinox.nn.Embedding", "equinox.nn.GRUCell", "equinox.nn.LSTMCell",
     "equinox.nn.ConvTranspose2d"}
)  # fmt: skip
#: Layers of `FRESH_RESULTS` whose call, given JAX arrays, returns new buffers only,
#: computed from the input and the layer's leaves (none of them, none twice), and keeps
#: none of its arguments -> the options (keyword, position) whose functions the call runs
#: (`MLP`'s activations: a function of the program's may return an array it holds). A
#: layer built without them, or given functions of JAX there (a JAX function of a new
#: array gives a new array, or that one), is fresh when called. `LayerNorm` is left out:
#: given a state, its call returns that state as it is.
FRESH_CALLS: dict[str, tuple[tuple[str, int], ...]] = {
    "equinox.nn.Linear": (),
    "equinox.nn.MLP": (("activation", 4), ("final_activation", 5)),
    "equinox.nn.Conv2d": (),
    "equinox.nn.GRUCell": (),
}

#: Layers with no array anywhere, given arguments that hold none: their sizes and flags
#: are static fields, their other leaves the class's own (`init`, a number; `operation`,
#: a `lax` function).
ARRAYLESS_LAYERS = frozenset(
    {"equinox.nn.MaxPool1d", "equinox.nn.MaxPool2d", "equinox.nn.MaxPool3d",
     "equinox.nn.AvgPool1d", "equinox.nn.AvgPool2d", "equinox.nn.AvgPool3d"}
)  # fmt: skip
#: Layers -> the argument (keyword, position) whose array they keep as their own leaf.
HELD_ARGUMENTS = {"equinox.nn.Embedding": ("weight", 2)}
#: Layers whose array leaves are new buffers, none twice, and what their arguments other
#: than `KEY_ARGUMENT` hold, as given (`SpectralNorm(layer, ...)` wraps `layer`; a value
#: given for a field that is not static, `BatchNorm(axis_name=...)`, stays a leaf); the
#: initial values of their states (`StateIndex`) are among those new buffers.
HOLDING_LAYERS = frozenset({"equinox.nn.BatchNorm", "equinox.nn.SpectralNorm"})
#: The argument layers draw their weights from and keep none of.
KEY_ARGUMENT = "key"
#: Constructors whose object nothing else keeps (no registry, no cache), nor any of
#: their arguments: dropped, it is freed.
UNKEPT_OBJECTS = FRESH_RESULTS | HOLDING_LAYERS
#: Calls `f(make)` returning a function that calls `make(*args, **kwargs)` once and
#: returns `(model, state)`: the object made, its initial states moved out into an
#: `eqx.nn.State` (the very buffers), so that the array leaves of the pair are those of
#: the object made, each as often; nothing else keeps a reference to them.
SPLIT_MAKERS = frozenset({"equinox.nn.make_with_state"})
