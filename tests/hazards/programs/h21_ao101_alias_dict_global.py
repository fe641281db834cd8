"""VAE-style loss with KL annealing: the loss reads the module-level LOSS_WEIGHTS dict,
and the loop ramps the KL weight through a local alias of that dict. Trap for AO101:
the global is mutated through an alias; jit freezes the weight at 0."""

import jax
import jax.numpy as jnp
import numpy as np

LOSS_WEIGHTS = {"recon": 1.0, "kl": 0.0}


def vae_loss(params, x):
    mu = x @ params["enc"]
    recon = jnp.tanh(mu) @ params["dec"]
    rec = jnp.mean((recon - x) ** 2)
    kl = 0.5 * jnp.mean(mu**2)
    return LOSS_WEIGHTS["recon"] * rec + LOSS_WEIGHTS["kl"] * kl


def main():
    rng = np.random.default_rng(8)
    x = jnp.asarray(rng.normal(size=(32, 6)), jnp.float32)
    params = {
        "enc": jnp.asarray(rng.normal(size=(6, 2)) * 0.3, jnp.float32),
        "dec": jnp.asarray(rng.normal(size=(2, 6)) * 0.3, jnp.float32),
    }
    weights = LOSS_WEIGHTS
    losses = []
    for epoch in range(6):
        weights["kl"] = min(1.0, epoch / 4)
        losses.append(vae_loss(params, x))
        grads = jax.grad(vae_loss)(params, x)
        params = jax.tree.map(lambda p, g: p - 0.05 * g, params, grads)
    return jnp.stack(losses), params
