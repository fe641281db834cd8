"""Framework hazard (issue 26): an equinox field that is a Python int used as a counter.

`Trainer` is an `eqx.Module` with a plain (not `static`) `int` field `count`; the
eager step returns a copy with `count + 1` and uses the Python int to pick the
warmup factor with `min(...)`. Under `jax.jit` the int field becomes a traced int32
and `min` needs its truth value (TracerBoolConversionError); with `count` frozen
the warmup would be wrong.
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

WARMUP = 8
STEPS = 20
BASE_LR = 0.2


class Trainer(eqx.Module):
    weights: jax.Array
    count: int

    def lr(self):
        return BASE_LR * min(1.0, (self.count + 1) / WARMUP)


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train_step(trainer, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(trainer.weights, x, y)
    new = Trainer(trainer.weights - trainer.lr() * grad, trainer.count + 1)
    return new, loss


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(64, 4)).astype(np.float32))
    y = x @ jnp.array([1.0, -2.0, 0.5, 3.0])
    trainer = Trainer(jnp.zeros(4), 0)
    losses = []
    for _ in range(STEPS):
        trainer, loss = train_step(trainer, x, y)
        losses.append(loss)
    return {"losses": jnp.stack(losses), "count": trainer.count, "w": trainer.weights}
