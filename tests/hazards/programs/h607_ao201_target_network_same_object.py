"""A DQN-style update whose target network starts as the online network itself,
`target = online` (no copy), and is refreshed the same way every 4 steps. Trap for
AO201: the step is called with one buffer as the donated-looking `online` and as
`target`; donating `online` deletes the target (or XLA refuses the call)."""

import jax
import jax.numpy as jnp


@jax.jit
def td_step(online, target, obs, rewards):
    def loss(w):
        q = obs @ w
        q_next = jnp.max(obs @ target, axis=1, keepdims=True)
        return jnp.mean((q - (rewards + 0.9 * q_next)) ** 2)

    value, g = jax.value_and_grad(loss)(online)
    return online - 0.05 * g, value


def main():
    obs = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    rewards = jnp.array([[1.0], [0.0], [0.5], [-1.0]])
    online = jnp.full((3, 2), 0.1)
    target = online
    for t in range(8):
        online, value = td_step(online, target, obs, rewards)
        if t % 4 == 3:
            target = online
        print(t, round(float(value), 5))
    return online, target
