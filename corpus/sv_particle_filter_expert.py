"""Expert version of sv_particle_filter.py: the whole filter is one jitted `lax.scan`."""

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


@jax.jit
def run_filter(key, particles, ys):
    def step(carry, y):
        key, particles, loglik = carry
        key, k_move, k_res = jax.random.split(key, 3)
        particles = transition(k_move, particles)
        logw = log_likelihood(y, particles)
        top = jnp.max(logw)
        w = jnp.exp(logw - top)
        loglik = loglik + top + jnp.log(jnp.mean(w))
        w = w / jnp.sum(w)
        mean = jnp.sum(w * particles)
        ess = 1.0 / jnp.sum(w**2)
        particles = resample(k_res, particles, logw)
        return (key, particles, loglik), (mean, ess)

    init = (key, particles, jnp.float32(0.0))
    (_, particles, loglik), (means, ess) = jax.lax.scan(step, init, ys)
    return particles, loglik, means, ess


def main():
    ys = jax.device_put(simulate_observations())
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    particles = jax.random.normal(sub, (N_PARTICLES,)) * (SIGMA / np.sqrt(1 - PHI**2))
    particles, loglik, means, ess = run_filter(key, particles, ys)
    return {
        "means": means,
        "ess": np.asarray(ess),
        "loglik": loglik,
        "particles": particles,
    }


if __name__ == "__main__":
    print(main())
