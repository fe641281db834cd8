"""equinox GAN whose generator and discriminator are built around one shared
`eqx.nn.Linear` feature layer (the author ties them on purpose). Each has its own
`eqx.filter_jit` step. Trap for AO201: donating the generator in its step deletes the
shared layer's arrays, which the discriminator (a different pytree) still holds."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Gen(eqx.Module):
    feat: eqx.nn.Linear
    out: eqx.nn.Linear

    def __call__(self, z):
        return self.out(jnp.tanh(self.feat(z)))


class Disc(eqx.Module):
    feat: eqx.nn.Linear
    head: eqx.nn.Linear

    def __call__(self, x):
        return self.head(jnp.tanh(self.feat(x)))[0]


@eqx.filter_jit
def g_step(gen, disc, z):
    def loss(g):
        fake = jax.vmap(g)(z)
        return -jnp.mean(jax.vmap(disc)(fake))

    grads = eqx.filter_grad(loss)(gen)
    return jax.tree.map(lambda p, d: p - 0.05 * d, gen, grads)


@eqx.filter_jit
def d_step(disc, gen, z, real):
    def loss(d):
        fake = jax.vmap(gen)(z)
        return jnp.mean(jax.vmap(d)(fake)) - jnp.mean(jax.vmap(d)(real))

    grads = eqx.filter_grad(loss)(disc)
    return jax.tree.map(lambda p, d: p - 0.05 * d, disc, grads)


def main():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    shared = eqx.nn.Linear(3, 3, key=k1)
    gen = Gen(shared, eqx.nn.Linear(3, 3, key=k2))
    disc = Disc(shared, eqx.nn.Linear(3, 1, key=k3))
    z = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    real = jnp.ones((4, 3)) * 0.5
    for _ in range(4):
        disc = d_step(disc, gen, z, real)
        gen = g_step(gen, disc, z)
    return gen.out.weight, disc.head.weight, disc.feat.weight
