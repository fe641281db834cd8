"""A `fit` function that accepts a per-epoch callback; the caller passes
`lambda t: kept.append(t.state)` to collect the states for a plot. Trap for AO201 on
a trainer's attribute: the callback (code outside the class) keeps `self.state`, whose
buffer the next donated step deletes; the collected states are read at the end."""

import jax
import jax.numpy as jnp


@jax.jit
def epoch_step(state, data):
    centre = jnp.mean(data, axis=0)
    return state + 0.5 * (centre - state)


class KMeansLike:
    def __init__(self):
        self.state = jnp.zeros(2)

    def fit(self, data, epochs, callback=None):
        for _ in range(epochs):
            self.state = epoch_step(self.state, data)
            if callback is not None:
                callback(self)


def main():
    kept = []
    model = KMeansLike()
    data = jnp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 0.0]])
    model.fit(data, 5, callback=lambda t: kept.append(t.state))
    path = jnp.stack(kept)
    print("path", [round(float(v), 4) for v in path[:, 0]])
    return path, model.state
