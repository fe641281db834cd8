"""Deep pre-norm residual MLP (12 blocks) regressing a random smooth target; a few SGD steps.

Hand-optimized: each scanned block is rematerialized (saving only its matmuls) under grad.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_BLOCKS = 12
D_MODEL, D_HIDDEN = 128, 512
BATCH = 128
LR = 0.02
STEPS = 3


def init_params(rng):
    def normal(*shape, scale):
        return jnp.asarray(rng.normal(scale=scale, size=shape), dtype=jnp.float32)

    return {
        "w_in": normal(N_BLOCKS, D_MODEL, D_HIDDEN, scale=D_MODEL**-0.5),
        "w_out": normal(N_BLOCKS, D_HIDDEN, D_MODEL, scale=0.2 * D_HIDDEN**-0.5),
        "scale": jnp.ones((N_BLOCKS, D_MODEL)),
        "head": normal(D_MODEL, 1, scale=0.3 * D_MODEL**-0.5),
    }


def block(h, layer):
    # pre-norm: h + W_out gelu(W_in norm(h))
    mu = h.mean(-1, keepdims=True)
    var = h.var(-1, keepdims=True)
    z = (h - mu) * jax.lax.rsqrt(var + 1e-5) * layer["scale"]
    return h + jax.nn.gelu(z @ layer["w_in"]) @ layer["w_out"], None


remat_block = jax.checkpoint(block, policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)


def forward(params, x):
    layers = {k: params[k] for k in ("w_in", "w_out", "scale")}
    h, _ = jax.lax.scan(remat_block, x, layers)
    return h @ params["head"]


def loss_fn(params, x, y):
    return jnp.mean((forward(params, x)[:, 0] - y) ** 2)


grad_step = jax.jit(jax.value_and_grad(loss_fn))


def main():
    rng = np.random.default_rng(0)
    params = init_params(rng)
    x = jnp.asarray(rng.normal(size=(BATCH, D_MODEL)), dtype=jnp.float32)
    y = jnp.sin(x[:, :4].sum(-1))

    losses = []
    for _ in range(STEPS):
        loss, grads = grad_step(params, x, y)
        params = jax.tree_util.tree_map(lambda p, g: p - LR * g, params, grads)
        losses.append(loss)
    return {"losses": jnp.stack(losses), "params": params}


if __name__ == "__main__":
    print(main())
