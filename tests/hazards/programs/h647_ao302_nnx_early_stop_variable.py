"""Early stopping kept inside an nnx model: the `nnx.jit` step updates `best` and
`bad_steps` variables of the module, and the host loop stops when
`int(model.bad_steps.value)` reaches 2. Trap for AO302/AO103: the host read steers the
loop; deferred or compiled away, training would run all steps."""

import jax.numpy as jnp
import optax
from flax import nnx


class Model(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 1, rngs=rngs)
        self.best = nnx.Variable(jnp.array(jnp.inf))
        self.bad_steps = nnx.Variable(jnp.array(0))

    def __call__(self, x):
        return self.linear(x)


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    improved = loss < model.best.value - 1e-3
    model.bad_steps.value = jnp.where(improved, 0, model.bad_steps.value + 1)
    model.best.value = jnp.minimum(model.best.value, loss)
    return loss


def main():
    model = Model(nnx.Rngs(1))
    optimizer = nnx.Optimizer(model, optax.sgd(0.5), wrt=nnx.Param)
    x = jnp.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    y = jnp.array([[1.0], [1.0], [2.0], [0.0]])
    steps = 0
    for _ in range(200):
        train_step(model, optimizer, x, y)
        steps += 1
        if int(model.bad_steps.value) >= 2:
            break
    print("stopped after", steps, "best", round(float(model.best.value), 5))
    return steps, model.linear.kernel.value
