"""Control (issue 26, equinox's score_based_diffusion): `total += value.item()` of the
loss an `eqx.filter_jit` step returns beside the model, read every 4 steps. The loss is a
new buffer, none of the model's: AO302 keeps it on the device until the print (and AO201
may donate the model); the same lines, the same numbers."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def loss_fn(model, x):
    return jnp.mean((jax.vmap(model)(x) - x) ** 2)


@eqx.filter_jit
def make_step(model, x, opt_state, opt_update):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x)
    updates, opt_state = opt_update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return loss, model, opt_state


def main():
    model = eqx.nn.MLP(3, 3, 8, 1, key=jax.random.PRNGKey(0))
    opt = optax.sgd(0.05)
    opt_state = opt.init(eqx.filter(model, eqx.is_inexact_array))
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    total, size = 0, 0
    for step in range(9):
        value, model, opt_state = make_step(model, x, opt_state, opt.update)
        total += value.item()
        size += 1
        if step % 4 == 0 or step == 8:
            print(f"step {step}: {total / size:.6f}")
            total, size = 0, 0
    return eqx.filter(model, eqx.is_array), total
