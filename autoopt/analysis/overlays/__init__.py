"""Library knowledge as data: one module per library, the facts the analysis needs
about its API (what a call returns, whether it is pure, which transforms it is):
`jax`, `numpy`, `python` (builtins and the standard library), and the libraries built
on jax: `optax`, `flax_linen`, `flax_nnx`, `flax_training`, `equinox`, `haiku`, `evosax`,
`diffrax`; `absl`, whose `app.run` runs a script's entry; and `sklearn`, its data splits.
Anything a table does not list is unknown. The analysis never imports these
libraries. Below, the tables that join every library's."""

from __future__ import annotations

from autoopt.analysis.overlays import (
    equinox,
    evosax,
    flax_linen,
    flax_nnx,
    flax_training,
    haiku,
    jax,
    numpy,
    optax,
    python,
)

#: Modules however imported (`import jax.numpy as jnp`, `from jax import lax`) whose
#: functions keep no state: `lax.add(...)` calls a function of the module, not a method
#: that changes it. A module autoopt does not know may keep state its functions change
#: (`registry.add(f)`).
MODULES = jax.MODULES | numpy.MODULES | python.MODULES
#: Prefixes of calls that compute on arrays or numbers and touch nothing else (save the
#: impure calls).
PURE_PREFIXES = jax.PURE_PREFIXES + python.PURE_PREFIXES + numpy.PURE_PREFIXES
#: Modules and calls that are side effects or host randomness -> what they do.
IMPURE_MODULES = {
    **numpy.IMPURE_CALLS,
    **python.IMPURE_MODULES,
    "flax.nnx.update": flax_nnx.MUTATING["flax.nnx.update"],
}

#: Transforms giving `(value, gradient)` for a function returning one scalar array and
#: no `has_aux`: the value that array (a JAX array), the gradient the structure of the
#: argument it is taken for.
PLAIN_VALUE_AND_GRADS = jax.VALUE_AND_GRADS | flax_nnx.VALUE_AND_GRAD_LIKE
#: Spellings that compile a function, in any library (`jax.jit`, `eqx.filter_jit`, ...).
JIT_SPELLINGS = jax.JIT_SPELLINGS | equinox.JIT_LIKE | flax_nnx.JIT_LIKE | flax_linen.JIT_LIKE
#: Jits whose static and donated arguments autoopt reads and writes, in their own
#: spelling -> their options naming static arguments (`jax.jit`, `nnx.jit`).
JIT_STATIC_OPTIONS = jax.STATIC_OPTIONS | flax_nnx.STATIC_OPTIONS
#: Those jits -> their options naming donated arguments (`donate_argnums`, ...).
JIT_DONATE_OPTIONS = jax.DONATE_OPTIONS | flax_nnx.DONATE_OPTIONS
#: Jits that donate by mode instead -> the option (`eqx.filter_jit(donate="all")`).
JIT_DONATE_MODES = equinox.DONATE_OPTION
#: Jits that make every non-array leaf of every argument static (no option names them).
NON_ARRAYS_STATIC = equinox.JIT_LIKE
#: Jits that write a module argument's state back into it, in place, on every call.
UPDATES_MODULES = flax_nnx.UPDATES_MODULES
#: The jits whose options autoopt reads and writes: a donation is added in their spelling.
OPTION_JITS = frozenset(JIT_DONATE_OPTIONS) | frozenset(JIT_DONATE_MODES)
#: Jits whose wrapper keeps the compilations it makes, in any library: built once, it
#: compiles once per argument type.
CACHING_JITS = jax.CACHING_JITS | equinox.CACHING_JITS | flax_nnx.CACHING_JITS
#: Calls, in any library, that keep a function as written to run it in their own frame:
#: a jit is never added on a function handed to one.
WRAPS_FUNCTION = haiku.WRAPS_FUNCTION
#: Transforms, in any library, that trace the functions handed to them.
TRACING_TRANSFORMS = (
    jax.TRACING_TRANSFORMS
    | equinox.TRANSFORMS
    | flax_nnx.TRANSFORMS
    | flax_linen.TRANSFORMS
    | haiku.TRANSFORMS
)
#: Library layers whose instance, built in place and called (`nn.Dense(3)(x)`), computes
#: on its variables and arguments only: those each library's overlay tests the same under
#: recomputation (`REMAT_PURE`), and haiku's pure modules (`haiku.LAYERS`).
PURE_LAYER_CALLS = flax_linen.REMAT_PURE | equinox.REMAT_PURE | haiku.LAYERS
#: Transforms, in any library, that differentiate a function in reverse mode.
REVERSE_MODE = (
    frozenset(jax.REVERSE_MODE)
    | equinox.GRAD_LIKE
    | equinox.VALUE_AND_GRAD_LIKE
    | flax_nnx.GRAD_LIKE
    | flax_nnx.VALUE_AND_GRAD_LIKE
)
#: Qualified calls, outside the pure prefixes, that compute on their arguments and
#: touch nothing else.
PURE_CALLS = (
    jax.PURE_JAX
    | TRACING_TRANSFORMS
    | optax.PURE_CALLS
    | equinox.PURE_CALLS
    | flax_nnx.PURE_CALLS
    | flax_nnx.JAX_FUNCTIONS
    | flax_nnx.POOLING
    | flax_training.PURE_CALLS
    | haiku.PURE_CALLS
    | haiku.LAYERS
    | evosax.PURE_CALLS
)
#: Calls, outside JAX's own modules, whose result, given arrays, is one JAX array.
ARRAY_CALLS = optax.LOSSES
#: Calls, in any library, whose result holds the very buffers of an argument -> which.
ALIASING = {**equinox.ALIASING, **flax_nnx.ALIASING}
#: Calls, in any library, that keep no reference to their arguments once they return and
#: return none of them -> the parameters that keep this so, in order.
KEEPS_NO_ARGUMENT = {**flax_training.KEEPS_NO_ARGUMENT, **jax.KEEPS_NO_ARGUMENT}
#: Calls whose result, unpacked, gives each target a new buffer of its own.
UNPACKS_FRESH = jax.UNPACKS_FRESH
#: Constructors, in any library, whose object nothing else keeps (it may hold what it is
#: given): `nnx.Linear(...)`, `nnx.Optimizer(...)`, `optax.adam(...)`.
UNKEPT_OBJECTS = flax_nnx.UNKEPT_OBJECTS | optax.UNKEPT_OBJECTS | equinox.UNKEPT_OBJECTS
#: Classes, in any library, read as values (filters, types): they hold no array.
CLASSES = flax_nnx.VARIABLE_TYPES
#: Constructors of library objects, in any library -> the class of the object returned.
CONSTRUCTED_CLASSES = {**optax.RETURNS, **evosax.RETURNS}
#: Constructors known only when given the options listed -> their data options, in order
#: (`values/library.py`): the function options they may be given are `FUNCTION_OPTIONS`,
#: each a pure library function (`PURE_FUNCTIONS`) or a `FUNCTION_MAKERS` call of one.
CONSTRUCTOR_OPTIONS = evosax.OPTIONS
FUNCTION_OPTIONS = evosax.FUNCTION_OPTIONS
PURE_FUNCTIONS = evosax.PURE_FUNCTIONS
FUNCTION_MAKERS = evosax.FUNCTION_MAKERS
#: Classes, in any library, whose objects jit may keep as static arguments: immutable,
#: hashable, changed by nothing.
STATIC_CLASSES = optax.STATIC_CLASSES | evosax.STATIC_CLASSES
#: Methods (`class.method`), in any library, that are pure functions of their receiver
#: and arguments.
PURE_METHODS = optax.PURE_METHODS | evosax.PURE_METHODS
#: Classes whose objects hold no array leaf (a jit with equinox's filtering keeps them
#: static, never donates them).
NO_ARRAY_CLASSES = optax.NO_ARRAY_CLASSES
#: Calls and methods (`class.method`), in any library, whose result, given arrays, is a
#: pytree of arrays (haiku's `init`: of a transformed function with sealed code, which
#: `facts/fresh.py` proves).
ARRAYS_RESULTS = optax.ARRAYS_RESULTS | haiku.ARRAYS_RESULTS | evosax.ARRAYS_RESULTS
#: Methods (`class.method`), in any library, whose result's pytree nodes hold no aux
#: data but a dict's keys (haiku's `init`: dicts of dicts).
AUX_FREE_RESULTS = haiku.AUX_FREE_RESULTS
#: Attributes (`class.attribute`) of library objects that hold a pytree of arrays (or
#: Python numbers): `es.default_params` of an evosax strategy.
ARRAYS_ATTRIBUTES = evosax.ARRAYS_ATTRIBUTES
#: Calls and methods (`class.method`), in any library, whose array leaves are new
#: buffers, none of an argument's and none twice.
FRESH_RESULTS = (
    optax.FRESH_RESULTS | haiku.FRESH_RESULTS | flax_linen.FRESH_RESULTS | equinox.FRESH_RESULTS
)
#: Constructors of library objects -> their class, for the methods `FRESH_RESULTS` lists
#: (kept apart from `CONSTRUCTED_CLASSES`, which the value model reads).
OBJECT_CLASSES = {**optax.RETURNS, **haiku.RETURNS}
#: Constructors whose object's `FRESH_RESULTS` methods are fresh only where those of
#: every object they are given are (`optax.chain`).
COMBINATORS = optax.COMBINATORS
#: Calls given one library object that return one of its class with its very `init`.
SAME_INIT = haiku.SAME_INIT
#: Methods (`class.method`) of the objects `OBJECT_CLASSES` and linen modules make that
#: are pure functions of their arguments: they keep no reference to them.
PURE_OBJECT_METHODS = optax.PURE_METHODS | haiku.PURE_METHODS | flax_linen.PURE_METHODS
