"""Target network for a TD update, "copied" with `jax.tree.map(lambda p: p, params)`,
which returns the same arrays. Trap for AO201: the target tree aliases the online
parameters that the step donates."""

import jax
import jax.numpy as jnp


def q_values(params, obs):
    return jnp.tanh(obs @ params["w"]) @ params["v"]


@jax.jit
def td_step(params, target, obs, rewards):
    def loss(p):
        td_target = rewards + 0.9 * jnp.max(q_values(target, obs), axis=1)
        return jnp.mean((jnp.max(q_values(p, obs), axis=1) - td_target) ** 2)

    grads = jax.grad(loss)(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    obs = jnp.linspace(-1.0, 1.0, 20).reshape(5, 4)
    rewards = jnp.arange(5, dtype=jnp.float32) / 5.0
    params = {"w": jnp.full((4, 6), 0.1), "v": jnp.full((6, 2), 0.2)}
    target = jax.tree.map(lambda p: p, params)
    for step in range(10):
        params = td_step(params, target, obs, rewards)
        if step % 5 == 4:
            target = jax.tree.map(lambda p: p, params)
    return params, target
