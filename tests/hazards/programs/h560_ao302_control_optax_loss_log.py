"""Control (issue 26 framework hazards): plain JAX + optax, where optimising is fine.

A jitted Adam step over a params dict built from fresh arrays, per-step
`float(loss)` collected into a list read only after the loop. Deferring the
reads (AO302) and donating the dead params/opt_state are both correct here.
"""

import jax
import jax.numpy as jnp
import numpy as np
import optax

STEPS = 40

optimizer = optax.adam(0.05)


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(200, 5)).astype(np.float32))
    y = x @ jnp.array([2.0, -1.0, 0.0, 0.5, 1.5]) - 0.7
    params = {"w": jnp.zeros(5), "b": jnp.zeros(())}
    opt_state = optimizer.init(params)
    losses = []
    for _ in range(STEPS):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        losses.append(float(loss))
    return {"losses": losses, "params": params}
