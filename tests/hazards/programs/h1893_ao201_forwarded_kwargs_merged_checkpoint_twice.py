"""uvadlc-style forwarding `train_classifier` whose keyword arguments are merged with a
module-level defaults dict; the trainer takes optional `init_params` (a pretrained checkpoint,
used in place of `model.init`). Both runs fine-tune from the same checkpoint: donating the
first run's state deletes the checkpoint the second run starts from."""

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
    trainer = TrainerModule(*args, exmp=batches[0][0], **kwargs)
    losses = trainer.train_model(batches, num_epochs)
    return trainer, losses


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, tokens):
        emb = nn.Embed(5, 4)(tokens)
        return nn.Dense(2)(emb.mean(axis=1))


class FineTuner(TrainerModule):
    def __init__(self, *args, init_params=None, **kwargs):
        self.pretrained = init_params
        super().__init__(*args, **kwargs)

    def init_model(self, exmp):
        super().init_model(exmp)
        if self.pretrained is not None:
            self.init_params = self.pretrained


DEFAULTS = {"model_class": Classifier, "model_hparams": {}, "optimizer_hparams": {"lr": 0.5}}


def fine_tune(**kwargs):
    batches = make_batches()
    trainer = FineTuner(exmp=batches[0][0], **{**DEFAULTS, **kwargs})
    losses = trainer.train_model(batches, 2)
    return trainer, losses


def main():
    base, _ = train_classifier(**DEFAULTS)
    checkpoint = base.state.params
    short, short_losses = fine_tune(init_params=checkpoint)
    longer, long_losses = fine_tune(init_params=checkpoint, optimizer_hparams={"lr": 0.1})
    return short.state.params, longer.state.params, short_losses, long_losses
