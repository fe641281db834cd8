"""Progressive growing: predictions use `jax.jit(model_fn)` on every epoch, and
`maybe_grow` (called in the loop) rebinds the global `model_fn` to a deeper model.
Trap for AO102: the loop does not assign `model_fn` itself, a callee does; hoisting
the jit keeps the shallow model."""

import jax
import jax.numpy as jnp
import numpy as np


def shallow(params, x):
    return jnp.tanh(x @ params["w1"]) @ params["w2"]


def deep(params, x):
    h = jnp.tanh(x @ params["w1"])
    h = jnp.tanh(h @ params["w_mid"]) + h
    return h @ params["w2"]


model_fn = shallow


def maybe_grow(epoch):
    global model_fn
    if epoch == 2:
        model_fn = deep


def main():
    global model_fn
    model_fn = shallow
    rng = np.random.default_rng(9)
    params = {
        "w1": jnp.asarray(rng.normal(size=(3, 5)) * 0.5, jnp.float32),
        "w_mid": jnp.asarray(rng.normal(size=(5, 5)) * 0.5, jnp.float32),
        "w2": jnp.asarray(rng.normal(size=(5, 1)) * 0.5, jnp.float32),
    }
    x = jnp.asarray(rng.normal(size=(4, 3)), jnp.float32)
    outputs = []
    for epoch in range(5):
        outputs.append(jax.jit(model_fn)(params, x))
        maybe_grow(epoch)
    return jnp.stack(outputs)
