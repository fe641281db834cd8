"""nnx: a `Diffusion(model, betas)` wrapper that keeps a view of the model's output
kernel (`self.w_out = model.kernel.value`) to scale its loss; the `nnx.jit` step is given
the model and donates nothing today. Trap for AO201: donating `model` deletes the kernel
the wrapper holds, which it reads after training."""

import jax.numpy as jnp
import optax
from flax import nnx


class Diffusion:
    def __init__(self, model, betas):
        self.model = model
        self.betas = betas
        self.w_out = model.kernel.value

    def drift(self):
        return jnp.sum(jnp.abs(self.w_out)) * self.betas[-1]


@nnx.jit
def train_step(model, optimizer, x, noise):
    def loss_fn(model):
        return jnp.mean((model(x) - noise) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(4))
    diffusion = Diffusion(model, jnp.linspace(1e-3, 0.02, 5))
    optimizer = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)
    x = jnp.ones((3, 2))
    noise = jnp.full((3, 2), 0.5)
    for _ in range(4):
        loss = train_step(model, optimizer, x, noise)
    return loss, diffusion.drift()
