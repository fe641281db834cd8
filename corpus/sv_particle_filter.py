"""Bootstrap particle filter for a stochastic-volatility model.

Outside-team style: keys split every step with `jax.random.split(key, 3)`, the
particle cloud is a plain array, the filtered means are collected in a list of
device values, the effective sample size as Python floats.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_PARTICLES = 256
T = 200
PHI = 0.95
SIGMA = 0.25
BETA = 0.6


def simulate_observations(seed=0):
    rng = np.random.default_rng(seed)
    x = 0.0
    ys = []
    for _ in range(T):
        x = PHI * x + SIGMA * rng.normal()
        ys.append(BETA * np.exp(x / 2) * rng.normal())
    return np.array(ys, dtype=np.float32)


def transition(key, particles):
    noise = jax.random.normal(key, particles.shape)
    return PHI * particles + SIGMA * noise


def log_likelihood(y, particles):
    var = BETA**2 * jnp.exp(particles)
    return -0.5 * (jnp.log(2 * jnp.pi * var) + y**2 / var)


def resample(key, particles, logw):
    idx = jax.random.categorical(key, logw, shape=(N_PARTICLES,))
    return particles[idx]


def main():
    ys = simulate_observations()
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    particles = jax.random.normal(sub, (N_PARTICLES,)) * (SIGMA / np.sqrt(1 - PHI**2))
    means = []
    ess = []
    loglik = 0.0
    for t in range(T):
        key, k_move, k_res = jax.random.split(key, 3)
        particles = transition(k_move, particles)
        logw = log_likelihood(ys[t], particles)
        top = jnp.max(logw)
        w = jnp.exp(logw - top)
        loglik = loglik + top + jnp.log(jnp.mean(w))
        w = w / jnp.sum(w)
        means.append(jnp.sum(w * particles))
        ess.append(float(1.0 / jnp.sum(w**2)))
        particles = resample(k_res, particles, logw)
    return {
        "means": jnp.stack(means),
        "ess": np.array(ess, dtype=np.float32),
        "loglik": loglik,
        "particles": particles,
    }


if __name__ == "__main__":
    print(main())
