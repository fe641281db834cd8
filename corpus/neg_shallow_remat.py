"""Two-hidden-layer tanh network for 2D spiral classification, full-batch gradient descent.

Small model, small batch: activations are a few hundred KB at most.
"""

import jax
import jax.numpy as jnp
import numpy as np

HIDDEN = 64
LR = 0.5
STEPS = 300


def dense(rng, n_in, n_out):
    w = rng.normal(size=(n_in, n_out)) / np.sqrt(n_in)
    return {"w": jnp.asarray(w, dtype=jnp.float32), "b": jnp.zeros(n_out)}


def init(rng):
    return [dense(rng, 2, HIDDEN), dense(rng, HIDDEN, HIDDEN), dense(rng, HIDDEN, 3)]


def apply(params, x):
    h = x
    for layer in params[:-1]:
        h = jnp.tanh(h @ layer["w"] + layer["b"])
    return h @ params[-1]["w"] + params[-1]["b"]


def loss_fn(params, x, y):
    logp = jax.nn.log_softmax(apply(params, x))
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


@jax.jit
def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - LR * g, params, grads), loss


def spirals(rng, n_per_class=100, n_classes=3):
    xs, ys = [], []
    for c in range(n_classes):
        r = np.linspace(0.05, 1.0, n_per_class)
        t = np.linspace(c * 4.0, (c + 1) * 4.0, n_per_class) + 0.2 * rng.normal(size=n_per_class)
        xs.append(np.stack([r * np.sin(t), r * np.cos(t)], axis=1))
        ys.append(np.full(n_per_class, c))
    return np.concatenate(xs).astype(np.float32), np.concatenate(ys).astype(np.int32)


def main():
    rng = np.random.default_rng(0)
    x, y = spirals(rng)
    x, y = jnp.asarray(x), jnp.asarray(y)
    params = init(rng)
    losses = []
    for _ in range(STEPS):
        params, loss = train_step(params, x, y)
        losses.append(loss)
    acc = jnp.mean(jnp.argmax(apply(params, x), axis=1) == y)
    return {"params": params, "losses": jnp.stack(losses), "accuracy": acc}


if __name__ == "__main__":
    print(main())
