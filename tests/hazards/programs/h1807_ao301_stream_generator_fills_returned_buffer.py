"""optax + jax.jit + NumPy: `make_stream(data, batch)` returns `(batches, buf)`: a
generator that copies each minibatch into a preallocated NumPy buffer, and that buffer;
the loop calls `next(batches)` and transfers `jnp.asarray(buf)` to the jitted step. Trap
for AO301: the generator refills the buffer in place each time the loop advances it;
transferring it once before the loop trains on the first batch only."""

import jax
import jax.numpy as jnp
import numpy as np
import optax

tx = optax.sgd(0.2)


def make_stream(data, batch):
    buf = np.zeros((batch, data.shape[1]), dtype=np.float64)

    def batches():
        i = 0
        while True:
            buf[:] = data[i : i + batch]
            i = (i + batch) % len(data)
            yield

    return batches(), buf


@jax.jit
def train_step(w, opt_state, xb):
    grads = jax.grad(lambda w: jnp.mean((xb @ w - 1.0) ** 2))(w)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(w, updates), opt_state


def main():
    data = np.linspace(-1.0, 1.0, 16).reshape(8, 2)
    batches, buf = make_stream(data, 2)
    w = jnp.zeros(2)
    opt_state = tx.init(w)
    for _ in range(4):
        next(batches)
        w, opt_state = train_step(w, opt_state, jnp.asarray(buf))
    return w
