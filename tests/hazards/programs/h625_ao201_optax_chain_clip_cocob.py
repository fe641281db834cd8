"""Linear regression trained with `optax.chain(optax.clip_by_global_norm(1.0),
optax.contrib.cocob())`: gradient clipping chained before COCOB, whose state keeps
`init_particles`. Trap for AO201: the wrapped optimizer's `init` keeps the params
themselves in its state, so at the first call `params` and a leaf of `opt_state` are one
buffer; donating both donates it twice (XLA refuses)."""

import jax
import jax.numpy as jnp
import optax

TX = optax.chain(optax.clip_by_global_norm(1.0), optax.contrib.cocob())


@jax.jit
def train_step(params, opt_state, x, y):
    def loss(p):
        return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    updates, opt_state = TX.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, value


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    y = x @ jnp.array([2.0, -1.0]) + 0.5
    params = {"w": jnp.full(2, 0.1), "b": jnp.zeros(())}
    opt_state = TX.init(params)
    losses = []
    for _ in range(8):
        params, opt_state, value = train_step(params, opt_state, x, y)
        losses.append(value)
    print("losses", [round(float(v), 5) for v in losses])
    return params
