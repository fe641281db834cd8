"""A plain-JAX conditional GAN: both networks embed the class label with one table
`emb`, put into both parameter dicts. Two optax optimizers, two jitted steps. Trap for
AO201: donating `g_params` in the generator step deletes `emb`, which the discriminator
step reads through `d_params["emb"]`."""

import jax
import jax.numpy as jnp
import optax

g_tx = optax.sgd(0.05)
d_tx = optax.sgd(0.05)


def generate(gp, z, labels):
    return jnp.tanh(z @ gp["w"] + gp["emb"][labels])


def discriminate(dp, x, labels):
    return jnp.sum(x * dp["emb"][labels], axis=-1) + x @ dp["v"]


@jax.jit
def g_update(g_params, g_opt, d_params, z, labels):
    def loss(gp):
        return -jnp.mean(discriminate(d_params, generate(gp, z, labels), labels))

    grads = jax.grad(loss)(g_params)
    updates, g_opt = g_tx.update(grads, g_opt)
    return optax.apply_updates(g_params, updates), g_opt


@jax.jit
def d_update(d_params, d_opt, g_params, z, labels, real):
    def loss(dp):
        fake = generate(g_params, z, labels)
        return jnp.mean(discriminate(dp, fake, labels)) - jnp.mean(discriminate(dp, real, labels))

    grads = jax.grad(loss)(d_params)
    updates, d_opt = d_tx.update(grads, d_opt)
    return optax.apply_updates(d_params, updates), d_opt


def main():
    emb = jnp.arange(6.0).reshape(2, 3) / 6.0
    g_params = {"w": jnp.eye(3) * 0.5, "emb": emb}
    d_params = {"v": jnp.ones(3) * 0.1, "emb": emb}
    g_opt, d_opt = g_tx.init(g_params), d_tx.init(d_params)
    z = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    labels = jnp.array([0, 1, 0, 1])
    real = jnp.ones((4, 3)) * 0.3
    for _ in range(5):
        d_params, d_opt = d_update(d_params, d_opt, g_params, z, labels, real)
        g_params, g_opt = g_update(g_params, g_opt, d_params, z, labels)
    return g_params, d_params
