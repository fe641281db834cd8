"""nnx: a classifier wraps a backbone module that is also trained on its own."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Classifier(nnx.Module):
    def __init__(self, backbone, rngs):
        self.backbone = backbone
        self.head = nnx.Linear(6, 2, rngs=rngs)

    def __call__(self, x):
        return self.head(nnx.tanh(self.backbone(x)))


@nnx.jit
def pretrain_step(backbone, optimizer, x):
    def loss_fn(b):
        return jnp.mean(b(x) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(backbone)
    optimizer.update(backbone, grads)
    return loss


@nnx.jit
def finetune_step(model, optimizer, x, y):
    def loss_fn(m):
        return optax.softmax_cross_entropy_with_integer_labels(m(x), y).mean()

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    rngs = nnx.Rngs(0)
    backbone = nnx.Linear(3, 6, rngs=rngs)
    model = Classifier(backbone, rngs)
    x = jax.random.normal(jax.random.PRNGKey(5), (12, 3))
    y = (x[:, 0] > 0).astype(jnp.int32)
    b_opt = nnx.Optimizer(backbone, optax.sgd(0.05), wrt=nnx.Param)
    for _ in range(3):
        pre = pretrain_step(backbone, b_opt, x)
    m_opt = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)
    for _ in range(4):
        loss = finetune_step(model, m_opt, x, y)
    return pre, loss, backbone.kernel.value.sum()
