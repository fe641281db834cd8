"""Elman RNN run over a batch of sine-wave sequences (forward pass only, random weights).

Hidden states for every time step are written into a preallocated output array.
"""

import jax.numpy as jnp
import numpy as np

T, BATCH, D_IN, HIDDEN = 200, 16, 4, 64


def init_rnn(rng):
    def normal(shape, scale):
        return jnp.asarray(scale * rng.normal(size=shape), dtype=jnp.float32)

    return {
        "Wx": normal((D_IN, HIDDEN), 1.0 / np.sqrt(D_IN)),
        "Wh": normal((HIDDEN, HIDDEN), 0.9 / np.sqrt(HIDDEN)),  # spectral radius ~0.9
        "b": jnp.zeros(HIDDEN),
        "Wo": normal((HIDDEN, 1), 1.0 / np.sqrt(HIDDEN)),
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


def make_inputs(rng):
    freqs = rng.uniform(0.05, 0.3, size=(BATCH, D_IN))
    phases = rng.uniform(0, 2 * np.pi, size=(BATCH, D_IN))
    t = np.arange(T)[:, None, None]
    return jnp.asarray(np.sin(freqs * t + phases), dtype=jnp.float32)  # (T, BATCH, D_IN)


def main():
    rng = np.random.default_rng(42)
    params = init_rnn(rng)
    xs = make_inputs(rng)
    hs, h_last = run_rnn(params, xs)
    preds = hs @ params["Wo"]
    return {"hidden": hs, "h_last": h_last, "preds": preds[..., 0]}


if __name__ == "__main__":
    print(main())
