"""Expert version of style_haiku_transform.py: the minibatch indices drawn up front (the
same NumPy draws), the data moved to the device once, the whole run one jitted
`lax.scan` with params and optimizer state donated, the losses read back once."""

import functools

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


@functools.partial(jax.jit, donate_argnums=(0, 1))
def train(params, opt_state, x_all, y_all, batches):
    def step(carry, idx):
        params, opt_state = carry
        value, grads = jax.value_and_grad(loss)(params, x_all[idx], y_all[idx])
        updates, opt_state = opt.update(grads, opt_state)
        return (optax.apply_updates(params, updates), opt_state), value

    return jax.lax.scan(step, (params, opt_state), batches)


def main():
    rng = np.random.default_rng(0)
    x_all = rng.uniform(-3.0, 3.0, size=(N_POINTS, 1)).astype(np.float32)
    y_all = (np.sin(2.0 * x_all) + 0.1 * rng.normal(size=x_all.shape)).astype(np.float32)

    params = net.init(jax.random.PRNGKey(42), x_all[:1])
    opt_state = opt.init(params)
    batches = np.stack([rng.integers(0, N_POINTS, size=BATCH) for _ in range(STEPS)])
    x_dev, y_dev = jax.device_put((x_all, y_all))
    (params, opt_state), losses = train(params, opt_state, x_dev, y_dev, batches)
    losses = np.asarray(losses).tolist()
    for step in range(0, STEPS, 20):
        print(f"step {step}: loss {losses[step]:.4f}")

    full_loss = jax.jit(loss)(params, x_dev, y_dev)
    return {"params": params, "losses": np.array(losses), "full_loss": full_loss}


if __name__ == "__main__":
    print(main())
