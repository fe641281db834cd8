"""flax nnx GAN whose generator and discriminator hold one `nnx.Linear` trunk object
(shared by reference, as nnx allows). Two `nnx.Optimizer`s, two `nnx.jit` steps.
Trap for AO201: donating the generator module in its `nnx.jit` step deletes the trunk's
arrays, which the discriminator module holds too."""

import jax  # noqa: F401
import jax.numpy as jnp
import optax
from flax import nnx


class Gen(nnx.Module):
    def __init__(self, trunk, rngs):
        self.trunk = trunk
        self.out = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, z):
        return self.out(jnp.tanh(self.trunk(z)))


class Disc(nnx.Module):
    def __init__(self, trunk, rngs):
        self.trunk = trunk
        self.head = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.head(jnp.tanh(self.trunk(x)))


@nnx.jit
def g_step(gen, g_opt, disc, z):
    def loss(g):
        return -jnp.mean(disc(g(z)))

    value, grads = nnx.value_and_grad(loss)(gen)
    g_opt.update(gen, grads)
    return value


@nnx.jit
def d_step(disc, d_opt, gen, z, real):
    def loss(d):
        return jnp.mean(d(gen(z))) - jnp.mean(d(real))

    value, grads = nnx.value_and_grad(loss)(disc)
    d_opt.update(disc, grads)
    return value


def main():
    rngs = nnx.Rngs(0)
    trunk = nnx.Linear(3, 3, rngs=rngs)
    gen, disc = Gen(trunk, rngs), Disc(trunk, rngs)
    g_opt = nnx.Optimizer(gen, optax.sgd(0.05), wrt=nnx.Param)
    d_opt = nnx.Optimizer(disc, optax.sgd(0.05), wrt=nnx.Param)
    z = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    real = jnp.full((4, 3), 0.4)
    losses = []
    for _ in range(4):
        losses.append(d_step(disc, d_opt, gen, z, real))
        losses.append(g_step(gen, g_opt, disc, z))
    return jnp.stack(losses), gen.out.kernel.value, disc.trunk.kernel.value
