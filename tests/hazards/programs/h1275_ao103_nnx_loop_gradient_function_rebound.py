"""flax nnx, the notebook form, but the step binds `loss_gradient` again, to the gradient
of a loss that counts its calls on the model, and calls both. Trap for AO103 (nnx whole
loop): judging the first binding alone would miss the count; eagerly, `nnx.jit` sees
another graph at every step (a Python attribute changed) and traces again, counting each
step; a compiled loop around the step would carry a graph that changes (it fails) or
count once. Unsafe, the binding named."""

import jax
import optax
from flax import nnx


class SimpleNN(nnx.Module):
    def __init__(self, n_features=16, n_hidden=12, n_targets=4, *, rngs):
        self.n_features = n_features
        self.calls = 0
        self.layer1 = nnx.Linear(n_features, n_hidden, rngs=rngs)
        self.layer2 = nnx.Linear(n_hidden, n_hidden, rngs=rngs)
        self.layer3 = nnx.Linear(n_hidden, n_targets, rngs=rngs)

    def __call__(self, x):
        x = x.reshape(x.shape[0], self.n_features)
        x = nnx.selu(self.layer1(x))
        x = nnx.selu(self.layer2(x))
        x = self.layer3(x)
        return x


def loss_fun(model, data, labels):
    logits = model(data)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits=logits, labels=labels).mean()
    return loss, logits


def counted_loss(model, data, labels):
    model.calls += 1
    return loss_fun(model, data, labels)


@nnx.jit
def train_step(model, optimizer, data, labels):
    loss_gradient = nnx.grad(loss_fun, has_aux=True)
    grads, _ = loss_gradient(model, data, labels)
    loss_gradient = nnx.grad(counted_loss, has_aux=True)
    grads, _ = loss_gradient(model, data, labels)
    optimizer.update(grads)


def main():
    images_train = jax.random.normal(jax.random.key(0), (32, 4, 4))
    label_train = jax.random.randint(jax.random.key(1), (32,), 0, 4)
    images_test = jax.random.normal(jax.random.key(2), (16, 4, 4))
    label_test = jax.random.randint(jax.random.key(3), (16,), 0, 4)
    model = SimpleNN(rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(learning_rate=0.05))
    losses = []
    for i in range(7):
        train_step(model, optimizer, images_train, label_train)
        if i % 3 == 0:
            loss, _ = loss_fun(model, images_test, label_test)
            losses.append(float(loss))
            print(f"epoch {i}: loss={loss:.4f}")
    return losses, model.layer3.kernel[...], i, model.calls
