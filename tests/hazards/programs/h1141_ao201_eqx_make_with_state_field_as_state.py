"""equinox: a module keeps one array both as a field and as the initial value of its
state (`self.w = w; self.index = eqx.nn.StateIndex(w)`); `eqx.nn.make_with_state`
puts that buffer in the model and in the state. Trap for AO201: donating both in one
`eqx.filter_jit` call donates it twice."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Running(eqx.Module):
    w: jax.Array
    index: eqx.nn.StateIndex

    def __init__(self):
        w = jnp.ones(3)
        self.w = w
        self.index = eqx.nn.StateIndex(w)

    def __call__(self, x, state):
        total = state.get(self.index) + x
        return self.w * total, state.set(self.index, total)


@eqx.filter_jit
def step(x, model, state):
    out, state = model(x, state)
    return eqx.tree_at(lambda m: m.w, model, model.w * 0.9), state, out


def main():
    model, state = eqx.nn.make_with_state(Running)()
    x = jnp.array([0.5, 1.0, 2.0])
    for _ in range(3):
        model, state, out = step(x, model, state)
    return out, model.w
