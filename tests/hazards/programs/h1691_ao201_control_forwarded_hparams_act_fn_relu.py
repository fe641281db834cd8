"""Control for h1689/h1690: the uvadlc-style trainer given `model_hparams` whose literal
gives `act_fn=nn.relu`, untouched until the model is built from it: every field of the
model is inert or one of JAX's functions it calls, so `init` makes new buffers and
donating the state keeps the results."""

from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class TrainerModule:
    def __init__(self, model_class: Any, model_hparams: dict, optimizer_hparams: dict, exmp):
        self.model_class = model_class
        self.model_hparams = model_hparams
        self.optimizer_hparams = optimizer_hparams
        self.model = self.model_class(**self.model_hparams)
        self.init_model(exmp)
        self.create_functions()

    def init_model(self, exmp):
        self.init_params = self.model.init(jax.random.PRNGKey(0), exmp)["params"]
        self.state = None

    def create_functions(self):
        def train_step(state, batch):
            tokens, labels = batch

            def loss_fn(p):
                logits = state.apply_fn({"params": p}, tokens)
                return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

            loss, grads = jax.value_and_grad(loss_fn)(state.params)
            return state.apply_gradients(grads=grads), loss

        self.train_step = jax.jit(train_step)

    def init_optimizer(self):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply,
            params=self.init_params if self.state is None else self.state.params,
            tx=optax.sgd(self.optimizer_hparams["lr"]),
        )

    def train_model(self, batches, num_epochs):
        self.init_optimizer()
        losses = []
        for _ in range(num_epochs):
            for batch in batches:
                self.state, loss = self.train_step(self.state, batch)
                losses.append(loss)
        return losses


def make_batches():
    tokens = jnp.arange(12).reshape(4, 3) % 5
    labels = jnp.array([0, 1, 1, 0])
    return [(tokens[:2], labels[:2]), (tokens[2:], labels[2:])]


def train_classifier(*args, num_epochs=3, **kwargs):
    batches = make_batches()
    trainer = TrainerModule(*args, **kwargs)
    losses = trainer.train_model(batches, num_epochs)
    return trainer, losses


W0 = jnp.linspace(-0.5, 0.5, 16).reshape(4, 4)


class BagClassifier(nn.Module):
    vocab: int
    dim: int
    act_fn: Any

    @nn.compact
    def __call__(self, tokens):
        emb = nn.Embed(self.vocab, self.dim)(tokens)
        return nn.Dense(2)(self.act_fn(emb.mean(axis=1)))


def main():
    trainer, losses = train_classifier(
        model_class=BagClassifier,
        model_hparams={"vocab": 5, "dim": 4, "act_fn": nn.relu},
        optimizer_hparams={"lr": 0.5},
        exmp=make_batches()[0][0],
    )
    return trainer.state.params, losses
