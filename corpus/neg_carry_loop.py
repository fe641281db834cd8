"""Sequential Bayesian estimation of 32 sensor biases from a stream of noisy readings.

Conjugate Gaussian updates: each reading refines the posterior left by the previous one.
"""

import jax.numpy as jnp
import numpy as np

N_SENSORS = 32
N_READINGS = 120
NOISE_VAR = 0.25


def posterior_update(belief, reading):
    mean, var = belief[0], belief[1]
    gain = var / (var + NOISE_VAR)
    new_mean = mean + gain * (reading - mean)
    new_var = (1.0 - gain) * var
    return jnp.stack([new_mean, new_var])


def main():
    rng = np.random.default_rng(0)
    true_bias = rng.normal(0.0, 1.0, size=N_SENSORS)
    readings = true_bias + np.sqrt(NOISE_VAR) * rng.normal(size=(N_READINGS, N_SENSORS))
    readings = jnp.asarray(readings, dtype=jnp.float32)

    belief = jnp.stack([jnp.zeros(N_SENSORS), 4.0 * jnp.ones(N_SENSORS)])  # prior N(0, 4)
    beliefs = []
    for i in range(N_READINGS):
        belief = posterior_update(belief, readings[i])
        beliefs.append(belief)
    beliefs = jnp.stack(beliefs)  # (N_READINGS, 2, N_SENSORS)

    err = jnp.abs(beliefs[:, 0, :] - jnp.asarray(true_bias, dtype=jnp.float32)).mean(axis=1)
    return {"beliefs": beliefs, "mean_abs_error": err}


if __name__ == "__main__":
    print(main())
