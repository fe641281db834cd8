"""nnx: one `nnx.Rngs` shared by two models (teacher and student); only the student is
trained with `nnx.jit`, the teacher samples dropout after.
"""

import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 3, rngs=rngs)
        self.drop = nnx.Dropout(0.3, rngs=rngs)

    def __call__(self, x):
        return self.drop(self.lin(x))


@nnx.jit
def train_step(model, opt, x):
    loss, g = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(model)
    opt.update(model, g)
    return loss


def main():
    rngs = nnx.Rngs(params=0, dropout=1)
    teacher = Net(rngs)
    student = Net(rngs)
    opt = nnx.Optimizer(student, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.ones((4, 3))
    for _ in range(3):
        loss = train_step(student, opt, x)
    return loss, teacher(x)
