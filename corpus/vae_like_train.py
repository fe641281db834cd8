"""Tiny variational autoencoder on synthetic 8x8 binary "stroke" images.

Structure follows the flax VAE example (train_step / eval_f), written in plain JAX.
"""

import jax
import numpy as np
from jax import numpy as jnp
from jax import random

IMG = 64  # 8x8, flattened
HIDDEN = 64
LATENTS = 8
LR = 0.05
EPOCHS = 6
BATCH = 64


def dense_init(rng, n_in, n_out):
    w = rng.normal(size=(n_in, n_out)) / np.sqrt(n_in)
    return {"w": jnp.asarray(w, dtype=jnp.float32), "b": jnp.zeros(n_out)}


def init_params(rng, latents):
    return {
        "enc": dense_init(rng, IMG, HIDDEN),
        "enc_out": dense_init(rng, HIDDEN, 2 * latents),
        "dec": dense_init(rng, latents, HIDDEN),
        "dec_out": dense_init(rng, HIDDEN, IMG),
    }


def dense(p, x):
    return x @ p["w"] + p["b"]


def encode(params, x):
    h = jax.nn.relu(dense(params["enc"], x))
    mean, logvar = jnp.split(dense(params["enc_out"], h), 2, axis=-1)
    return mean, logvar


def decode(params, z):
    return dense(params["dec_out"], jax.nn.relu(dense(params["dec"], z)))  # logits


def elbo_terms(logits, x, mean, logvar):
    bce = jnp.sum(jnp.logaddexp(0.0, logits) - x * logits, axis=-1)  # stable BCE w/ logits
    kld = -0.5 * jnp.sum(1 + logvar - mean**2 - jnp.exp(logvar), axis=-1)
    return bce.mean(), kld.mean()


def loss_fn(params, batch, key):
    mean, logvar = encode(params, batch)
    eps = random.normal(key, mean.shape)
    z = mean + jnp.exp(0.5 * logvar) * eps
    bce, kld = elbo_terms(decode(params, z), batch, mean, logvar)
    return bce + kld


@jax.jit
def train_step(params, batch, key):
    loss, grads = jax.value_and_grad(loss_fn)(params, batch, key)
    params = jax.tree_util.tree_map(lambda p, g: p - LR * g, params, grads)
    return params, loss


def eval_f(params, images, z, latents):
    mean, logvar = encode(params, images)
    recon_logits = decode(params, mean)
    bce, kld = elbo_terms(recon_logits, images, mean, logvar)
    comparison = jnp.concatenate([images[:8], jax.nn.sigmoid(recon_logits[:8])])
    samples = jax.nn.sigmoid(decode(params, z.reshape(-1, latents)))
    return {"bce": bce, "kld": kld, "loss": bce + kld}, comparison, samples


def make_images(rng, n):
    # random horizontal / vertical strokes on an 8x8 canvas
    imgs = np.zeros((n, 8, 8), dtype=np.float32)
    rows, cols = rng.integers(0, 8, size=n), rng.integers(0, 8, size=n)
    horiz = rng.random(n) < 0.5
    imgs[horiz, rows[horiz], :] = 1.0
    imgs[~horiz, :, cols[~horiz]] = 1.0
    return imgs.reshape(n, IMG)


def main():
    rng = np.random.default_rng(0)
    train_x = jnp.asarray(make_images(rng, 512))
    test_x = jnp.asarray(make_images(rng, BATCH))

    params = init_params(rng, LATENTS)
    z = jnp.asarray(rng.normal(size=BATCH * LATENTS), dtype=jnp.float32)  # fixed prior draws
    key = random.PRNGKey(0)

    batches = train_x.reshape(-1, BATCH, IMG)
    train_losses, eval_losses = [], []
    for _ in range(EPOCHS):
        for i in range(batches.shape[0]):
            key, step_key = random.split(key)
            params, loss = train_step(params, batches[i], step_key)
            train_losses.append(loss)
        metrics, comparison, samples = eval_f(params, test_x, z, LATENTS)
        eval_losses.append(metrics["loss"])

    return {
        "train_loss": jnp.stack(train_losses),
        "eval_loss": jnp.stack(eval_losses),
        "comparison": comparison,
        "samples": samples,
    }


if __name__ == "__main__":
    print(main())
