"""Facts about optax that the analyses rely on.

An optimizer is a `GradientTransformation`, a pair of pure functions: `init(params)`
gives the optimizer state, `update(updates, state, params)` the transformed updates and
the next state. Qualified names as `ImportMap.qualify` spells them; methods by the class
that defines them (`optax.GradientTransformation.update`). A name missing here is unknown.
"""

from __future__ import annotations

#: Constructors of a `GradientTransformation` (they build functions, compute nothing).
OPTIMIZERS = frozenset(
    {
        "optax.sgd", "optax.adam", "optax.adamw", "optax.adagrad", "optax.rmsprop",
        "optax.lamb", "optax.lion", "optax.chain", "optax.clip", "optax.clip_by_global_norm",
        "optax.scale", "optax.scale_by_adam", "optax.adabelief", "optax.add_decayed_weights",
    }
)  # fmt: skip
#: Constructors whose transformation, given only numbers or a schedule holding no buffer
#: (no array), holds in its functions only those values and optax's own functions: no
#: buffer.
BUFFERLESS_OPTIMIZERS = frozenset(
    {"optax.sgd", "optax.adam", "optax.adamw", "optax.clip", "optax.clip_by_global_norm"}
)
#: Combinators whose transformation, given such transformations by position, holds them
#: (in a tuple) and optax's own functions: no buffer.
BUFFERLESS_CHAINS = frozenset({"optax.chain"})
#: Schedule constructors whose function, given only numbers, holds those numbers and
#: optax's own functions: no buffer.
BUFFERLESS_SCHEDULES = frozenset(
    {"optax.constant_schedule", "optax.linear_schedule", "optax.cosine_decay_schedule",
     "optax.polynomial_schedule"}
)  # fmt: skip
#: Joins of schedules -> the parameters of the lists they keep (by keyword, and the
#: position each takes): their function holds those two lists, and nothing else of its
#: own; given lists written in place, of such schedules and of numbers, it holds no
#: buffer (nothing else holds those lists, so nothing changes them).
SCHEDULE_JOINS = {"optax.join_schedules": (("schedules", 0), ("boundaries", 1))}
#: Loss functions: given arrays, each returns one JAX array computed from them alone
#: (per example; `.mean()` of it is an array's method). `optax.X` is `optax.losses.X`.
LOSSES = frozenset(
    f"optax{module}.{name}"
    for module in ("", ".losses")
    for name in (
        "softmax_cross_entropy", "softmax_cross_entropy_with_integer_labels",
        "sigmoid_binary_cross_entropy", "l2_loss", "squared_error", "huber_loss",
        "log_cosh", "cosine_distance", "cosine_similarity", "hinge_loss",
    )
)  # fmt: skip
#: Calls that compute on their arguments and touch nothing else.
PURE_CALLS = OPTIMIZERS | LOSSES | {"optax.apply_updates"}
#: Constructors of a learning-rate schedule: a function of the step count that holds the
#: numbers it is given.
SCHEDULES = frozenset(
    {
        "optax.constant_schedule", "optax.linear_schedule", "optax.exponential_decay",
        "optax.cosine_decay_schedule", "optax.piecewise_constant_schedule",
        "optax.warmup_cosine_decay_schedule", "optax.warmup_exponential_decay_schedule",
        "optax.join_schedules",
    }
)  # fmt: skip
#: Constructors whose object nothing else keeps (no registry, no cache).
UNKEPT_OBJECTS = OPTIMIZERS | SCHEDULES
#: Methods of optax's classes that are pure functions of their arguments.
PURE_METHODS = frozenset(
    {"optax.GradientTransformation.init", "optax.GradientTransformation.update"}
)
#: Classes whose objects are immutable and hashable, named tuples of functions: jit may
#: keep one as a static argument (it compiles once per object, which it never changes).
STATIC_CLASSES = frozenset({"optax.GradientTransformation"})
#: Constructors -> the class of the object they return (an optimizer, whose methods
#: `PURE_METHODS` lists).
RETURNS = dict.fromkeys(OPTIMIZERS, "optax.GradientTransformation")
#: Classes whose objects are pytrees with no array leaf: a `GradientTransformation` is a
#: named tuple of its two functions; an attribute read from one (`opt.update`, a field, or
#: a method bound to it) holds no array either.
NO_ARRAY_CLASSES = frozenset({"optax.GradientTransformation"})
#: Calls and methods whose result, given arrays, is a pytree whose leaves are arrays
#: (updates, optimizer states, parameters).
ARRAYS_RESULTS = PURE_METHODS | {"optax.apply_updates"}
#: Calls and methods -> the argument whose pytree structure the result has (a tuple: one
#: per element of the tuple returned; `optax.apply_updates(params, updates)` is shaped
#: like `params`, `update(updates, state, params)` gives `(like updates, like state)`).
SAME_STRUCTURE: dict[str, tuple[int, ...]] = {
    "optax.apply_updates": (0,),
    "optax.GradientTransformation.update": (0, 1),
}
#: Methods -> the arguments such that, where no node of those has aux data (dicts,
#: lists, tuples, named tuples, None), no node of the result has: an optimizer's state is
#: tuples, named tuples and None around pytrees shaped like the parameters.
AUX_FREE_GIVEN: dict[str, tuple[int, ...]] = {"optax.GradientTransformation.init": (0,)}
#: Calls and methods whose array leaves are new buffers, none of an argument's and none
#: twice: `init(params)` of an optimizer made by one of `OPTIMIZERS` (zeros like
#: `params`, a count, or an empty state: `sgd` without momentum, `scale`).
FRESH_RESULTS = frozenset({"optax.apply_updates", "optax.GradientTransformation.init"})
#: Constructors whose optimizer runs the optimizers it is given: its `init` makes new
#: buffers only where each of theirs does (a user's transformation may return `params`).
COMBINATORS = frozenset({"optax.chain"})
#: optax's modules: their functions keep no state.
MODULES = frozenset({"optax"})
#: Calls and methods -> the arguments (by position) such that, where every array leaf of
#: those is 0-d, so is every array leaf of the result: an optimizer of `OPTIMIZERS` keeps
#: states and updates shaped like the parameters and updates, with 0-d counts.
LEAF_SHAPES_FROM: dict[str, tuple[int, ...]] = {
    "optax.GradientTransformation.init": (0,),
    "optax.GradientTransformation.update": (0, 1, 2),
    "optax.apply_updates": (0, 1),
}
