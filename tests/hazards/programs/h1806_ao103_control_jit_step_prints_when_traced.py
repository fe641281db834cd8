"""optax + jax.jit: control. A notebook-style train step that prints "compiling" when
it is traced; the loop runs it 4 times and prints once. A whole-loop scan (AO103) whose
body calls the jitted step with the same avals, after a `jax.eval_shape` check, reuses
the cached trace and still prints once (checked by hand)."""

import jax
import jax.numpy as jnp
import optax

tx = optax.adam(0.1)


@jax.jit
def train_step(params, opt_state, x):
    print("compiling train_step")
    grads = jax.grad(lambda p: jnp.sum((p * x - 1.0) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    params = jnp.array([0.1, 0.2, 0.3])
    opt_state = tx.init(params)
    x = jnp.array([1.0, 2.0, 3.0])
    for _ in range(4):
        params, opt_state = train_step(params, opt_state, x)
    return params
