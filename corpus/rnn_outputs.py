"""Elman RNN run over a batch of sine-wave sequences (forward pass only, random weights).

Hidden states for every time step are written into a preallocated output array.
"""

import jax
import jax.numpy as jnp
import numpy as np

T, BATCH, D_IN, HIDDEN = 200, 16, 4, 64


def init_rnn(key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "Wx": jax.random.normal(k1, (D_IN, HIDDEN)) / jnp.sqrt(D_IN),
        "Wh": jax.random.normal(k2, (HIDDEN, HIDDEN)) * (0.9 / jnp.sqrt(HIDDEN)),
        "b": jnp.zeros(HIDDEN),
        "Wo": jax.random.normal(k3, (HIDDEN, 1)) / jnp.sqrt(HIDDEN),
    }


def rnn_cell(params, h, x):
    return jnp.tanh(x @ params["Wx"] + h @ params["Wh"] + params["b"])


def run_rnn(params, xs):
    h = jnp.zeros((xs.shape[1], HIDDEN))
    out = jnp.zeros((xs.shape[0], xs.shape[1], HIDDEN))
    for t in range(xs.shape[0]):
        h = rnn_cell(params, h, xs[t])
        out = out.at[t].set(h)
    return out, h


def make_inputs():
    rng = np.random.default_rng(0)
    freqs = rng.uniform(0.05, 0.3, size=(BATCH, D_IN))
    phases = rng.uniform(0, 2 * np.pi, size=(BATCH, D_IN))
    t = np.arange(T)[:, None, None]
    return jnp.asarray(np.sin(freqs * t + phases), dtype=jnp.float32)  # (T, BATCH, D_IN)


def main():
    params = init_rnn(jax.random.PRNGKey(42))
    xs = make_inputs()
    hs, h_last = run_rnn(params, xs)
    preds = hs @ params["Wo"]
    return {"hidden": hs, "h_last": h_last, "preds": preds[..., 0]}


if __name__ == "__main__":
    print(main())
