"""optax lookahead: the params are wrapped with `optax.LookaheadParams.init_synced(p)`,
whose fast and slow weights are the same arrays at the start. Trap for AO201: donating
the lookahead params donates each buffer twice (fast and slow) in the first call."""

import jax
import jax.numpy as jnp
import optax

opt = optax.lookahead(optax.sgd(0.2), sync_period=2, slow_step_size=0.5)


@jax.jit
def step(lparams, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum((p["w"] - x) ** 2))(lparams.fast)
    updates, opt_state = opt.update(grads, opt_state, lparams)
    return optax.apply_updates(lparams, updates), opt_state


def main():
    params = {"w": jnp.array([1.0, -2.0])}
    lparams = optax.LookaheadParams.init_synced(params)
    opt_state = opt.init(lparams)
    x = jnp.array([0.5, 0.5])
    for _ in range(4):
        lparams, opt_state = step(lparams, opt_state, x)
    return lparams.slow, lparams.fast
