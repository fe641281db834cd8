"""Bootstrap confidence band for a robust (Huber) line fit to data with outliers.

Each replicate resamples the data with its own PRNG key and refits; the loop body is just
"resample, fit, keep", and the replicates are stacked at the end.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_POINTS = 200
N_REPLICATES = 400
N_IRLS = 8
DELTA = 1.0


def resample(key, x, y):
    idx = jnp.floor(jax.random.uniform(key, (x.shape[0],)) * x.shape[0]).astype(jnp.int32)
    return x[idx], y[idx]


def weighted_line(x, y, w):
    sw, swx, swy = w.sum(), (w * x).sum(), (w * y).sum()
    slope = (sw * (w * x * y).sum() - swx * swy) / (sw * (w * x * x).sum() - swx**2)
    return jnp.stack([(swy - slope * swx) / sw, slope])


def huber_line(x, y):
    coef = weighted_line(x, y, jnp.ones_like(x))
    for _ in range(N_IRLS):  # iteratively reweighted least squares
        residual = jnp.abs(y - coef[0] - coef[1] * x)
        coef = weighted_line(x, y, jnp.where(residual <= DELTA, 1.0, DELTA / residual))
    return coef


def main():
    rng = np.random.default_rng(0)
    x = rng.uniform(-3, 3, size=N_POINTS)
    y = 1.5 * x - 0.7 + 0.4 * rng.normal(size=N_POINTS)
    outliers = rng.random(N_POINTS) < 0.08
    y[outliers] += rng.normal(scale=8.0, size=outliers.sum())
    x, y = jnp.asarray(x, dtype=jnp.float32), jnp.asarray(y, dtype=jnp.float32)

    keys = jax.random.split(jax.random.PRNGKey(0), N_REPLICATES)
    fits = []
    for i in range(N_REPLICATES):
        xb, yb = resample(keys[i], x, y)
        fits.append(huber_line(xb, yb))
    fits = jnp.stack(fits)

    return {
        "full_fit": huber_line(x, y),
        "replicates": fits,
        "slope_interval": jnp.percentile(fits[:, 1], jnp.array([2.5, 97.5])),
    }


if __name__ == "__main__":
    print(main())
