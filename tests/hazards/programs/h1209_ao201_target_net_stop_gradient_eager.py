"""A DQN-style loop that makes its target network with `jax.lax.stop_gradient(params)`
outside jit, meaning to freeze a copy. Eagerly `stop_gradient` returns the same arrays.
Trap for AO201: donating `params` deletes the target network, read by every later step
and at the end."""

import jax
import jax.numpy as jnp


@jax.jit
def td_step(params, target, obs, rew):
    def loss_fn(p):
        q = obs @ p["w"]
        tq = rew + 0.9 * jnp.max(obs @ target["w"], axis=-1, keepdims=True)
        return jnp.mean((q - tq) ** 2)

    grads = jax.grad(loss_fn)(params)
    return jax.tree.map(lambda p, g: p - 0.05 * g, params, grads)


def main():
    params = {"w": jnp.array([[0.1, 0.2], [0.3, -0.1], [0.0, 0.4]])}
    obs = jnp.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]])
    rew = jnp.array([[1.0], [0.0]])
    target = jax.lax.stop_gradient(params)
    for i in range(6):
        params = td_step(params, target, obs, rew)
        if i == 2:
            target = jax.lax.stop_gradient(params)
    return params["w"], target["w"]
