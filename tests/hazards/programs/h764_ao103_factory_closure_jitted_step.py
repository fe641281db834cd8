"""The Flax-tutorial pattern: `mse_loss = make_mse_loss(xs, ys)` returns `jax.jit` of a
closure over the data, `value_and_grad_fn = jax.value_and_grad(mse_loss)`, and an eager
loop of `value_and_grad_fn` and a `jax.tree.map` SGD update, the loss printed every
fifth epoch. AO103 follows the factory's closure and compiles the step; the printed
losses (rounded) and the learned parameters must not change."""

import jax
import jax.numpy as jnp


def make_mse_loss(xs, ys):
    def mse_loss(params):
        def squared_error(x, y):
            pred = x @ params["w"] + params["b"]
            return jnp.inner(y - pred, y - pred) / 2.0

        return jnp.mean(jax.vmap(squared_error)(xs, ys), axis=0)

    return jax.jit(mse_loss)


xs = jnp.linspace(-1.0, 1.0, 30, dtype=jnp.float32).reshape(10, 3)
ys = xs @ jnp.array([[1.0, -2.0], [0.5, 0.0], [0.0, 3.0]], dtype=jnp.float32) + 0.25
mse_loss = make_mse_loss(xs, ys)
value_and_grad_fn = jax.value_and_grad(mse_loss)
params = {"w": jnp.zeros((3, 2), dtype=jnp.float32), "b": jnp.zeros(2, dtype=jnp.float32)}
lr = 0.3
losses = []
for epoch in range(20):
    loss, grads = value_and_grad_fn(params)
    params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    if epoch % 5 == 0:
        print(f"epoch {epoch}, loss = {float(loss):.3f}")
        losses.append(loss)


def main():
    return params, losses
