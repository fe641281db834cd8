"""GAN trainer: generator and discriminator states share one embedding table."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def gen_apply(params, z):
    return jnp.tanh(z @ params["w"] + params["embed"].mean(axis=0))


def disc_apply(params, x):
    return (x + params["embed"].mean(axis=0)) @ params["v"]


@jax.jit
def g_step(g_state, d_params, z):
    def loss_fn(p):
        return -jnp.mean(disc_apply(d_params, gen_apply(p, z)))

    loss, grads = jax.value_and_grad(loss_fn)(g_state.params)
    return g_state.apply_gradients(grads=grads), loss


@jax.jit
def d_step(d_state, g_params, z, real):
    def loss_fn(p):
        fake = gen_apply(g_params, z)
        return jnp.mean(disc_apply(p, fake)) - jnp.mean(disc_apply(p, real))

    loss, grads = jax.value_and_grad(loss_fn)(d_state.params)
    return d_state.apply_gradients(grads=grads), loss


class GANTrainer:
    def __init__(self):
        k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
        embed = jax.random.normal(k1, (4, 3))
        g_params = {"w": jax.random.normal(k2, (2, 3)), "embed": embed}
        d_params = {"v": jax.random.normal(k3, (3,)), "embed": embed}
        self.g_state = train_state.TrainState.create(
            apply_fn=gen_apply, params=g_params, tx=optax.sgd(0.01)
        )
        self.d_state = train_state.TrainState.create(
            apply_fn=disc_apply, params=d_params, tx=optax.sgd(0.01)
        )

    def train_model(self, real, steps):
        key = jax.random.PRNGKey(5)
        for _ in range(steps):
            key, sub = jax.random.split(key)
            z = jax.random.normal(sub, (8, 2))
            self.d_state, d_loss = d_step(self.d_state, self.g_state.params, z, real)
            self.g_state, g_loss = g_step(self.g_state, self.d_state.params, z)
        return d_loss, g_loss


def main():
    real = jax.random.normal(jax.random.PRNGKey(9), (8, 3)) * 0.5 + 1.0
    trainer = GANTrainer()
    return trainer.train_model(real, 4)
