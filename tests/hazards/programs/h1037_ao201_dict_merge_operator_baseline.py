"""The baseline for an ablation is written `baseline = params | {"tag": 0}` (a new dict
with an extra entry). `|` makes a new dict, but its values are the parameter arrays
themselves. Trap for AO201: donating `params` deletes `baseline["w"]`, evaluated after
training."""

import jax
import jax.numpy as jnp


def predict(p, x):
    return x @ p["w"] + p["b"]


@jax.jit
def fit_step(params, x, y):
    g = jax.grad(lambda p: jnp.mean((predict(p, x) - y) ** 2))(params)
    return jax.tree.map(lambda a, b: a - 0.1 * b, params, g)


def main():
    x = jnp.linspace(0.0, 2.0, 10).reshape(5, 2)
    y = x @ jnp.array([0.7, -0.3]) + 1.0
    params = {"w": jnp.zeros(2), "b": jnp.array(0.0)}
    baseline = params | {"tag": 0}
    for _ in range(10):
        params = fit_step(params, x, y)
    gain = jnp.mean((predict(baseline, x) - y) ** 2) - jnp.mean((predict(params, x) - y) ** 2)
    return params, gain
