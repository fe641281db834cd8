"""PPO-style observation normalisation: the step calls a method of a running-stats
object that lives on the host. Trap for AO101: the object is not a JAX type, and its
statistics (updated every step) would be frozen."""

import jax.numpy as jnp
import numpy as np


class RunningMeanStd:
    def __init__(self, dim):
        self.mean = np.zeros(dim, np.float32)
        self.var = np.ones(dim, np.float32)
        self.count = 1e-4

    def update(self, x):
        batch_mean, batch_var, n = x.mean(0), x.var(0), x.shape[0]
        delta = batch_mean - self.mean
        total = self.count + n
        self.mean = self.mean + delta * n / total
        self.var = (
            self.var * self.count + batch_var * n + delta**2 * self.count * n / total
        ) / total
        self.count = total

    def normalize(self, x):
        return (x - self.mean) / np.sqrt(self.var + 1e-8)


def policy_logits(obs, weights, stats):
    return jnp.tanh(stats.normalize(obs) @ weights)


def main():
    rng = np.random.default_rng(6)
    stats = RunningMeanStd(3)
    weights = jnp.asarray(rng.normal(size=(3, 2)), jnp.float32)
    outs = []
    for _ in range(10):
        obs = rng.normal(1.0, 2.0, size=(8, 3)).astype(np.float32)
        stats.update(obs)
        outs.append(policy_logits(jnp.asarray(obs), weights, stats))
    return jnp.stack(outs)
