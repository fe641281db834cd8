"""equinox, in the style of its "train an RNN" example: an `eqx.Module` model, an
infinite `dataloader` generator that permutes device arrays with `jax.random` each
epoch, an `@eqx.filter_jit` `make_step` with `eqx.filter_value_and_grad`, optax Adam,
and `loss.item()` every step.
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

DATASET = 2048
LENGTH = 24
HIDDEN = 64
BATCH = 32
STEPS = 300
LR = 3e-3


def get_data(dataset_size, *, key):
    t = jnp.linspace(0, 2 * jnp.pi, LENGTH)
    offset = jax.random.uniform(key, (dataset_size, 1), minval=0, maxval=2 * jnp.pi)
    x1 = jnp.sin(t + offset) / (1 + t)
    x2 = jnp.cos(t + offset) / (1 + t)
    y = jnp.ones((dataset_size, 1))
    half = dataset_size // 2
    x1 = x1.at[:half].multiply(-1)
    y = y.at[:half].set(0)
    x = jnp.stack([x1, x2], axis=-1)
    return x, y


def dataloader(arrays, batch_size, *, key):
    dataset_size = arrays[0].shape[0]
    indices = jnp.arange(dataset_size)
    while True:
        perm = jax.random.permutation(key, indices)
        (key,) = jax.random.split(key, 1)
        start = 0
        end = batch_size
        while end <= dataset_size:
            batch_perm = perm[start:end]
            yield tuple(array[batch_perm] for array in arrays)
            start = end
            end = start + batch_size


class RNN(eqx.Module):
    hidden_size: int
    cell: eqx.Module
    linear: eqx.nn.Linear
    bias: jax.Array

    def __init__(self, in_size, out_size, hidden_size, *, key):
        ckey, lkey = jax.random.split(key)
        self.hidden_size = hidden_size
        self.cell = eqx.nn.GRUCell(in_size, hidden_size, key=ckey)
        self.linear = eqx.nn.Linear(hidden_size, out_size, use_bias=False, key=lkey)
        self.bias = jnp.zeros(out_size)

    def __call__(self, input):
        hidden = jnp.zeros((self.hidden_size,))

        def f(carry, inp):
            return self.cell(inp, carry), None

        out, _ = jax.lax.scan(f, hidden, input)
        return jax.nn.sigmoid(self.linear(out) + self.bias)


@eqx.filter_value_and_grad
def compute_loss(model, x, y):
    pred_y = jax.vmap(model)(x)
    return -jnp.mean(y * jnp.log(pred_y) + (1 - y) * jnp.log(1 - pred_y))


optim = optax.adam(LR)


@eqx.filter_jit
def make_step(model, x, y, opt_state):
    loss, grads = compute_loss(model, x, y)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return loss, model, opt_state


def main():
    data_key, loader_key, model_key = jax.random.split(jax.random.PRNGKey(5678), 3)
    xs, ys = get_data(DATASET, key=data_key)
    iter_data = dataloader((xs, ys), BATCH, key=loader_key)

    model = RNN(in_size=2, out_size=1, hidden_size=HIDDEN, key=model_key)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    losses = []
    for step, (x, y) in zip(range(STEPS), iter_data, strict=False):
        loss, model, opt_state = make_step(model, x, y, opt_state)
        loss = loss.item()
        losses.append(loss)
        if step % 50 == 0:
            print(f"step={step} loss={loss}")

    pred_ys = jax.vmap(model)(xs)
    num_correct = jnp.sum((pred_ys > 0.5) == ys)
    final_accuracy = (num_correct / DATASET).item()
    print(f"final_accuracy={final_accuracy}")
    return {
        "params": eqx.filter(model, eqx.is_array),
        "losses": np.array(losses),
        "accuracy": final_accuracy,
    }


if __name__ == "__main__":
    print(main())
