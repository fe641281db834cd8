"""Test-time augmentation for a small random-feature classifier on synthetic 1D signals.

Each example gets its own jitter + noise draw (NumPy RNG) before being classified.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_EXAMPLES = 64
LENGTH = 128
N_AUG = 4
N_CLASSES = 3

n_flagged = 0


def augment(x):
    shift = np.random.randint(-4, 5)
    noise = np.random.normal(scale=0.1, size=x.shape).astype(np.float32)
    return jnp.roll(x, shift) + noise


def classify_one(params, x):
    global n_flagged
    views = jnp.stack([augment(x) for _ in range(N_AUG)])
    feats = jnp.tanh(views @ params["proj"])
    probs = jax.nn.softmax(feats @ params["head"], axis=-1).mean(0)
    if probs.max() < 0.5:
        n_flagged += 1
        print(f"low-confidence example (p_max={float(probs.max()):.2f})")
    return probs


def main():
    global n_flagged
    n_flagged = 0
    np.random.seed(0)
    rng = np.random.default_rng(1)
    t = np.linspace(0, 1, LENGTH)
    labels = rng.integers(0, N_CLASSES, size=N_EXAMPLES)
    signals = np.sin(2 * np.pi * (3 + 2 * labels)[:, None] * t) + 0.3 * rng.normal(
        size=(N_EXAMPLES, LENGTH)
    )
    xs = jnp.asarray(signals, dtype=jnp.float32)
    params = {
        "proj": jnp.asarray(rng.normal(size=(LENGTH, 32)) / np.sqrt(LENGTH), dtype=jnp.float32),
        "head": jnp.asarray(rng.normal(size=(32, N_CLASSES)), dtype=jnp.float32),
    }

    probs = []
    for i in range(N_EXAMPLES):
        probs.append(classify_one(params, xs[i]))
    probs = jnp.stack(probs)
    return {"probs": probs, "pred": probs.argmax(-1), "n_flagged": n_flagged}


if __name__ == "__main__":
    print(main())
