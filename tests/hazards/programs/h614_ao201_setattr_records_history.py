"""A trainer base class that records every value assigned to `state` through
`__setattr__` (a common "history" mixin). Trap for AO201 on attribute targets:
`self.state = ...` looks like a plain rebinding, but each assignment also keeps the
value in `self.history`, whose buffers a donated next step deletes."""

import jax
import jax.numpy as jnp


class Recorded:
    def __setattr__(self, name, value):
        if name == "state":
            self.__dict__.setdefault("history", []).append(value)
        object.__setattr__(self, name, value)


@jax.jit
def relax(state, source):
    return state + 0.25 * (jnp.roll(state, 1) + jnp.roll(state, -1) - 2 * state) + source


class Solver(Recorded):
    def __init__(self):
        self.state = jnp.zeros(6)

    def run(self, steps):
        source = jnp.array([0.0, 1.0, 0.0, 0.0, -1.0, 0.0])
        for _ in range(steps):
            self.state = relax(self.state, source)


def main():
    solver = Solver()
    solver.run(5)
    norms = [round(float(jnp.linalg.norm(s)), 5) for s in solver.history]
    print("norms", norms)
    return solver.state
