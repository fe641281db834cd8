"""A hand-written "lookahead" optimizer whose state dict keeps an anchor: at start the
anchor is the params themselves (`{"anchor": params, ...}`). Trap for AO201: at the
first step `params` and `opt_state["anchor"]` are one buffer, so donating both donates
it twice, and donating only `params` deletes the anchor the step reads."""

import jax
import jax.numpy as jnp


def init_state(params):
    return {"anchor": params, "count": jnp.zeros((), jnp.int32)}


@jax.jit
def step(params, opt_state, x, y):
    grad = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(params)
    fast = params - 0.1 * grad
    count = opt_state["count"] + 1
    sync = count % 3 == 0
    anchor = jnp.where(sync, 0.5 * (opt_state["anchor"] + fast), opt_state["anchor"])
    fast = jnp.where(sync, anchor, fast)
    return fast, {"anchor": anchor, "count": count}


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = x @ jnp.array([1.0, -2.0, 0.5])
    params = jnp.zeros(3)
    opt_state = init_state(params)
    for _ in range(9):
        params, opt_state = step(params, opt_state, x, y)
    print("count", int(opt_state["count"]))
    return params, opt_state["anchor"]
