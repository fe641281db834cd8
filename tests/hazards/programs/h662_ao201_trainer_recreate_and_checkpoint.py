"""Trainer class (uvadlc-notebooks style): `init_optimizer` re-creates the TrainState
from `self.state.params`, and every epoch `checkpoints.save_checkpoint` writes
`self.state.params` (no async manager). Neither keeps a reference to the state once
it returns, so donating `self.state` to the step is safe; the checkpoint restored at
the end must equal the last saved parameters."""

import tempfile

import jax
import jax.numpy as jnp
import optax
from flax.training import checkpoints, train_state


@jax.jit
def train_step(state, x):
    grads = jax.grad(lambda p: jnp.sum((jnp.tanh(x @ p["w"]) - 0.5) ** 2))(state.params)
    return state.apply_gradients(grads=grads), jnp.sum(grads["w"] ** 2)


class Trainer:
    def __init__(self, ckpt_dir):
        self.ckpt_dir = ckpt_dir
        self.state = train_state.TrainState.create(
            apply_fn=None, params={"w": jnp.full((3, 2), 0.1)}, tx=optax.sgd(0.1)
        )

    def init_optimizer(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=self.state.apply_fn, params=self.state.params, tx=optax.adam(lr)
        )

    def save_model(self, step):
        checkpoints.save_checkpoint(self.ckpt_dir, target=self.state.params, step=step)

    def train_model(self, xs, epochs):
        self.init_optimizer(0.05)
        norms = []
        for epoch in range(epochs):
            for x in xs:
                self.state, norm = train_step(self.state, x)
                norms.append(float(norm))
            self.save_model(epoch)
        return norms


def main():
    with tempfile.TemporaryDirectory() as ckpt_dir:
        trainer = Trainer(ckpt_dir)
        xs = [jnp.linspace(-1.0, 1.0, 12).reshape(4, 3) * (i + 1) for i in range(3)]
        norms = trainer.train_model(xs, 3)
        restored = checkpoints.restore_checkpoint(ckpt_dir, target=None)
        same = bool(jnp.allclose(restored["w"], trainer.state.params["w"]))
        return norms, trainer.state.params["w"], same
