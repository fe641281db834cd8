"""Linear regression trained with `optax.contrib.madgrad(0.05)`, an optax optimizer whose
`init` keeps the params themselves in its state (`x0`, made by an identity
`jax.tree.map`). Trap for AO201: `init` of an optax optimizer does not always make new
buffers; at the first call `params` and a leaf of `opt_state` are one buffer, so
donating both donates it twice (XLA refuses the call)."""

import jax
import jax.numpy as jnp
import optax

TX = optax.contrib.madgrad(0.05)


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
