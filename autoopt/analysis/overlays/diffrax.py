"""Facts about diffrax that the value model relies on: what a solve and its helpers give.

Qualified names as `ImportMap.qualify` spells them. A name missing here is unknown.
"""

from __future__ import annotations

#: The solver, the parameter (name, position) of its initial state `y0`, the option that
#: says what it saves, and the attribute of its solution holding the saved states: a
#: pytree with `y0`'s structure, each leaf with a leading axis of saved times, where the
#: option is left out (the final state) or is a `SaveAt` of `SAVES_STATES` only.
SOLVE = "diffrax.diffeqsolve"
INITIAL_STATE = ("y0", 5)
SAVE_OPTION = "saveat"
SAVED_STATES = "ys"
#: The class of `saveat`, and its options that save states at some times: given only
#: these (at least one, none a literal `False` or `None`), the solution's `ys` is saved.
SAVE_AT = "diffrax.SaveAt"
SAVES_STATES = frozenset({"t0", "t1", "ts", "steps"})
#: Functions that, given arrays, return a tuple of this many new arrays.
ARRAY_TUPLES = {"diffrax.backward_hermite_coefficients": 4}
#: Every call the value model asks this overlay about.
CALLS = frozenset({SOLVE, SAVE_AT, *ARRAY_TUPLES})
