"""Target network for a small value-iteration learner: the target parameters are
"frozen" with `jax.tree.map(jnp.asarray, params)`, which hands back the same arrays.
The online parameters are updated by a jitted step every iteration; the target is
read after the loop."""

import jax
import jax.numpy as jnp


def td_loss(params, s, r, s_next, target):
    v = jnp.tanh(s @ params["w"] + params["b"])
    v_next = jnp.tanh(s_next @ target["w"] + target["b"])
    return jnp.mean((r + 0.9 * v_next - v) ** 2)


@jax.jit
def learn(params, s, r, s_next, target):
    g = jax.grad(td_loss)(params, s, r, s_next, target)
    return jax.tree.map(lambda p, d: p - 0.1 * d, params, g)


def main():
    s = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    s_next = jnp.roll(s, 1, axis=0)
    r = jnp.arange(6.0) / 6.0
    params = {"w": jnp.array([0.3, -0.2]), "b": jnp.array(0.05)}
    target = jax.tree.map(jnp.asarray, params)
    for _ in range(15):
        params = learn(params, s, r, s_next, target)
    return params, target
