"""Framework hazard (issue 26): a library API that returns one array twice.

`optax.LookaheadParams.init_synced(params)` builds the lookahead pair with `fast` and
`slow` both set to the same arrays (documented: "initialize ... with the same values").
The jitted step consumes and returns the pair; donating it donates each buffer twice
in the first call.
"""

import jax
import jax.numpy as jnp
import numpy as np
import optax

STEPS = 30

optimizer = optax.lookahead(optax.sgd(0.05, momentum=0.5), sync_period=5, slow_step_size=0.5)


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params.fast, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(128, 6)).astype(np.float32))
    y = x @ jnp.arange(1.0, 7.0) + 0.1
    params = optax.LookaheadParams.init_synced(jnp.zeros(6))
    opt_state = optimizer.init(params)
    losses = []
    for _ in range(STEPS):
        params, opt_state, loss = step(params, opt_state, x, y)
        losses.append(loss)
    return {"losses": jnp.stack(losses), "slow": params.slow, "fast": params.fast}
