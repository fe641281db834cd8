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

#: The solve is an `equinox.filter_jit` function: it runs, at most once per static part of
#: its arguments (hashed, kept by the jit's cache), on tracers of their array leaves,
#: keeps no reference to them once it returns, and gives new arrays for the array leaves
#: of its solution. Its parameters that may be given by position, in order, then the
#: keyword-only options that, given data, run no code of the program: `SaveAt`'s
#: objects (`SAVE_AT` given only `SAVES_STATES`).
SOLVE_PARAMETERS = ("terms", "solver", "t0", "t1", "dt0", "y0", "args")
SOLVE_OPTIONS = frozenset({SAVE_OPTION})
#: The one of `SOLVE_PARAMETERS` that may be left out (None, handed to the vector field).
SOLVE_ARGS = "args"
#: The term whose one argument, the vector field, the solve calls as `f(t, y, args)` on
#: those tracers (`args` the solve's, None where left out), nothing else of the program's
#: code, and whose result it computes on as a pytree of `y`'s structure.
ODE_TERM = "diffrax.ODETerm"
VECTOR_FIELD = "vector_field"
#: Explicit Runge-Kutta solvers that, built with no argument, hold no array and no
#: function of the program's: their steps only evaluate the terms.
PLAIN_SOLVERS = frozenset(
    {"diffrax.Euler", "diffrax.Heun", "diffrax.Midpoint", "diffrax.Ralston",
     "diffrax.Bosh3", "diffrax.Tsit5", "diffrax.Dopri5", "diffrax.Dopri8"}
)  # fmt: skip
#: Attributes of a solution saved by `SaveAt` of `SAVES_STATES` from data: arrays, a
#: pytree of them of `y0`'s structure, None, or a dict of arrays (`stats`).
SOLUTION_DATA = frozenset({"t0", "t1", "ts", "ys", "stats"})
