"""Environment replay with named observation buffers: `env_step` writes the next
observation into `buffers["obs"]` (with `out=`), while the policy transfers `obs`, the
same array under its own name. Trap for AO301: `obs` changes through the dict that
aliases it, inside a helper."""

import jax.numpy as jnp
import numpy as np

PHASES = np.arange(4.0)


def env_step(buffers, t):
    np.cos(PHASES * t, out=buffers["obs"])
    return float(t % 3)


def policy(w, obs):
    return jnp.tanh(obs @ w)


def main():
    obs = np.zeros(4)
    buffers = {"obs": obs}
    w = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    actions, rewards = [], []
    for t in range(12):
        reward = env_step(buffers, t)
        rewards.append(reward)
        action = policy(w, jnp.asarray(obs))
        actions.append(action)
    return jnp.stack(actions), rewards
