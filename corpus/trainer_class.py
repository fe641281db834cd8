"""A trainer class in the style of many tutorials: the step is jitted into an attribute
in `create_functions`, and `train_epoch` replaces `self.state` with its output.

Wide MLP regression with SGD + momentum, about 1.4M parameters (5.5 MB f32) plus the same
again for the momentum buffers; evaluation goes through a jitted `eval_step` too.
"""

import jax
import jax.numpy as jnp
import numpy as np

SIZES = (256, 1024, 1024, 64)
LR = 1e-2
MOMENTUM = 0.9
BATCH = 16
EPOCHS = 3
STEPS = 10


def predict(params, x):
    h = x
    for i in range(len(SIZES) - 1):
        h = h @ params[f"w{i}"] + params[f"b{i}"]
        if i < len(SIZES) - 2:
            h = jax.nn.silu(h)
    return h


class Trainer:
    def __init__(self, seed):
        rng = np.random.default_rng(seed)
        params = {}
        for i in range(len(SIZES) - 1):
            n_in, n_out = SIZES[i], SIZES[i + 1]
            w = rng.normal(size=(n_in, n_out)).astype(np.float32) / np.sqrt(n_in)
            params[f"w{i}"] = jnp.asarray(w)
            params[f"b{i}"] = jnp.zeros(n_out)
        momentum = jax.tree.map(jnp.zeros_like, params)
        self.state = {"params": params, "momentum": momentum}
        self.create_functions()

    def create_functions(self):
        def loss_fn(params, batch):
            x, y = batch
            return jnp.mean((predict(params, x) - y) ** 2)

        def train_step(state, batch):
            loss, grads = jax.value_and_grad(loss_fn)(state["params"], batch)
            momentum = jax.tree.map(lambda m, g: MOMENTUM * m + g, state["momentum"], grads)
            params = jax.tree.map(lambda p, m: p - LR * m, state["params"], momentum)
            return {"params": params, "momentum": momentum}, loss

        def eval_step(state, batch):
            return loss_fn(state["params"], batch)

        self.train_step = jax.jit(train_step)
        self.eval_step = jax.jit(eval_step)

    def train_epoch(self, xs, ys):
        losses = []
        for i in range(xs.shape[0]):
            self.state, loss = self.train_step(self.state, (xs[i], ys[i]))
            losses.append(loss)
        return jnp.stack(losses)

    def evaluate(self, x, y):
        return self.eval_step(self.state, (x, y))


def main():
    rng = np.random.default_rng(0)
    teacher = rng.normal(size=(SIZES[0], SIZES[-1])).astype(np.float32) / 16.0
    x_np = rng.normal(size=(STEPS, BATCH, SIZES[0])).astype(np.float32)
    xs, ys = jnp.asarray(x_np), jnp.asarray(np.tanh(x_np @ teacher))
    trainer = Trainer(1)
    losses = [trainer.train_epoch(xs, ys) for _ in range(EPOCHS)]
    return {"losses": jnp.stack(losses), "eval": trainer.evaluate(xs[0], ys[0])}


if __name__ == "__main__":
    print(main())
