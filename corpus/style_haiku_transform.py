"""haiku + optax: `hk.transform` of an `hk.nets.MLP` regression net, trained with SGD
and momentum on random minibatches, the way a first script is often written: the
update function is not jitted, batches are drawn on the host with NumPy each step, and
the loss is printed as a Python float every 20 steps.
"""

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

N_POINTS = 1024
BATCH = 64
STEPS = 120
LR = 0.02


def net_fn(x):
    mlp = hk.nets.MLP([64, 64, 1], activation=jnp.tanh)
    return mlp(x)


net = hk.without_apply_rng(hk.transform(net_fn))
opt = optax.sgd(LR, momentum=0.9)


def loss(params, x, y):
    pred = net.apply(params, x)
    return jnp.mean((pred - y) ** 2)


def update(params, opt_state, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    updates, opt_state = opt.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state, value


def main():
    rng = np.random.default_rng(0)
    x_all = rng.uniform(-3.0, 3.0, size=(N_POINTS, 1)).astype(np.float32)
    y_all = (np.sin(2.0 * x_all) + 0.1 * rng.normal(size=x_all.shape)).astype(np.float32)

    params = net.init(jax.random.PRNGKey(42), x_all[:1])
    opt_state = opt.init(params)
    losses = []
    for step in range(STEPS):
        idx = rng.integers(0, N_POINTS, size=BATCH)
        params, opt_state, value = update(params, opt_state, x_all[idx], y_all[idx])
        losses.append(float(value))
        if step % 20 == 0:
            print(f"step {step}: loss {float(value):.4f}")

    full_loss = loss(params, x_all, y_all)
    return {"params": params, "losses": np.array(losses), "full_loss": full_loss}


if __name__ == "__main__":
    print(main())
