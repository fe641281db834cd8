"""Calls that keep none of their arguments: a visible function read with its callers'
argument kinds (`visible_keeps_nothing`)."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.unkept_arguments import (
    DATA,
    UNKNOWN,
    construction_keeps_nothing,
    visible_keeps_nothing,
)
from tests.analysis.helpers import context

MODULE_CLASS = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx

SEEN = []


class MLP(nnx.Module):
    def __init__(self, size: int = 3, *, rngs: nnx.Rngs):
        self.size = size
        self.hidden = nnx.Linear(size, 8, rngs=rngs)
        self.out = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        x = x.reshape(x.shape[0], self.size)
        return self.out(nnx.relu(self.hidden(x)))

    def features(self, x):
        return self.hidden(x)

"""

MODEL = {"model": "MLP", "data": DATA, "labels": DATA}


def _keeps_nothing(body: str, given: dict[str, str], header: str = MODULE_CLASS) -> bool:
    ctx = context(body, header)
    return visible_keeps_nothing(ctx, ctx.graph.functions["f"], given)


@pytest.mark.parametrize(
    "body",
    [
        # a loss function: the module's `__call__`, its layers, an optax loss
        """
        def f(model, data, labels):
            logits = model(data)
            return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean(), logits
        """,
        # a method of the module, control flow and prints of data
        """
        def f(model, data, labels):
            total = 0.0
            for row in data:
                if row.sum() > 0:
                    total += jnp.sum(model.features(row[None]))
            print(f"total {total}")
            return total
        """,
        # returning the argument is the caller's question, not a keeper
        """
        def f(model, data, labels):
            return model, data
        """,
        # arithmetic in place on a value it made
        """
        def f(model, data, labels):
            total = data.sum()
            total += labels.mean()
            return total
        """,
        # a function of the module given data, and builtins given data
        """
        def g(x):
            return jax.nn.relu(x) * len(x)

        def f(model, data, labels):
            assert data.ndim == 2
            return g(data) + max(1, 2)
        """,
    ],
)
def test_a_function_storing_nothing_keeps_nothing(body: str) -> None:
    assert _keeps_nothing(body, MODEL)


@pytest.mark.parametrize(
    "body",
    [
        # appended to a module list
        """
        def f(model, data, labels):
            SEEN.append(model.hidden.kernel.value)
            return model(data)
        """,
        # stored on another object, or into the argument
        """
        def f(model, data, labels):
            labels.owner = model
        """,
        """
        def f(model, data, labels):
            data[0] = model
        """,
        # kept as a global
        """
        def f(model, data, labels):
            global SEEN
            SEEN = model
        """,
        # closed over by a function it makes
        """
        def f(model, data, labels):
            return jax.grad(lambda x: model(x).sum())(data)
        """,
        # handed to code autoopt cannot see, or to a seen function that keeps it
        """
        def f(model, data, labels):
            optax.tree_utils.tree_add(model, data)
        """,
        """
        def g(x):
            SEEN.append(x)

        def f(model, data, labels):
            g(data)
        """,
        # a method of data that stores into it
        """
        def f(model, data, labels):
            data.update(labels)
        """,
        # a list it was given extended in place, directly or through a name or an item
        """
        def f(model, data, labels):
            data += [labels]
        """,
        """
        def f(model, data, labels):
            kept = data
            kept += [labels]
        """,
        """
        def f(model, data, labels):
            for row in data:
                row += [labels]
        """,
        # a dunder method of data that stores into it
        """
        def f(model, data, labels):
            data.__setitem__(0, labels)
        """,
        # calling itself
        """
        def f(model, data, labels):
            return f(model, data, labels)
        """,
        # a method the class does not define (nnx.Module's own)
        """
        def f(model, data, labels):
            model.eval()
        """,
    ],
)
def test_a_store_or_unseen_code_may_keep(body: str) -> None:
    assert not _keeps_nothing(body, MODEL)


@pytest.mark.parametrize(
    "given",
    [
        {"model": UNKNOWN, "data": DATA, "labels": DATA},  # `model(data)` runs unknown code
        {"model": "MLP", "data": UNKNOWN, "labels": DATA},  # `x.reshape` of an unknown value
    ],
)
def test_a_value_of_unknown_kind_runs_no_code(given: dict[str, str]) -> None:
    body = """
    def f(model, data, labels):
        return model(data)
    """
    assert not _keeps_nothing(body, given)


@pytest.mark.parametrize(
    "change",
    [
        # the method run keeps what it is given
        ("        return self.hidden(x)", "        SEEN.append(x)\n        return self.hidden(x)"),
        # a layer given a hook run at every call, or a layer the overlay does not list
        ("nnx.Linear(size, 8, rngs=rngs)", "nnx.Linear(size, 8, dot_general=dot, rngs=rngs)"),
        ("nnx.Linear(size, 8, rngs=rngs)", "nnx.Dropout(0.5, rngs=rngs)"),
        # the field may hold another object by the time it is called
        ("\n\nclass MLP", "\n\ndef swap(m, other):\n    m.hidden = other\n\n\nclass MLP"),
        (
            "\n\nclass MLP",
            "\n\ndef swap(m, other):\n    setattr(m, 'hidden', other)\n\n\nclass MLP",
        ),
    ],
)
def test_the_module_class_s_code_is_read_too(change: tuple[str, str]) -> None:
    body = """
    def f(model, data, labels):
        return model.features(data)
    """
    assert _keeps_nothing(body, MODEL)
    assert change[0] in MODULE_CLASS
    assert not _keeps_nothing(body, MODEL, MODULE_CLASS.replace(*change))


BLOCKS = """
import jax
import jax.numpy as jnp
from flax import nnx

SEEN = []


class Block(nnx.Module):
    def __init__(self, size: int, down: bool = False, *, rngs: nnx.Rngs):
        self.main = nnx.Sequential(
            nnx.Conv(size, size, kernel_size=(3, 3), padding="SAME", rngs=rngs),
            nnx.BatchNorm(size, momentum=0.9, epsilon=1e-5, rngs=rngs),
        )
        if down:
            self.skip = nnx.Sequential(nnx.Conv(size, size, kernel_size=(1, 1), rngs=rngs))
        else:
            self.skip = lambda x: x

    def __call__(self, x):
        out = nnx.relu(self.main(x))
        out += self.skip(x)
        return out


class Net(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.main = nnx.Sequential(
            nnx.Conv(3, 4, kernel_size=(3, 3), rngs=rngs),
            nnx.BatchNorm(4, rngs=rngs),
        )
        self.blocks = nnx.Sequential(Block(4, rngs=rngs), Block(4, down=True, rngs=rngs))
        self.fc = nnx.Linear(4, 2, rngs=rngs)

    def __call__(self, x):
        x = nnx.max_pool(self.main(x), (2, 2), strides=(2, 2))
        x = self.blocks(x)
        x = nnx.avg_pool(x, (x.shape[1], x.shape[2]))
        return self.fc(x.reshape((x.shape[0], -1)))

"""

NET_CALL = """
def f(model, data):
    return model(data)
"""


def test_a_sequential_of_layers_blocks_and_lambdas_keeps_nothing() -> None:
    """A ResNet's shape: `nnx.Sequential`s of listed layers (a `BatchNorm` replaces its
    own statistics with new arrays) and of blocks of the module, a field that is a
    `Sequential` or `lambda x: x`, pooling; two classes store fields of one name, each
    in its own `__init__`."""
    assert _keeps_nothing(NET_CALL, {"model": "Net", "data": DATA}, BLOCKS)


@pytest.mark.parametrize(
    "change",
    [
        # a block's `__call__` keeps its input
        ("        out += self.skip(x)\n", "        out += self.skip(x)\n        SEEN.append(x)\n"),
        # a lambda that keeps what it is given, or returns a local of `__init__`
        ("lambda x: x\n", "lambda x: SEEN.append(x) or x\n"),
        ("lambda x: x\n", "lambda x: size\n"),
        ("lambda x: x\n", "lambda x, k=SEEN: x\n"),
        # a layer option that runs at every call
        ("epsilon=1e-5, rngs=rngs", "epsilon=1e-5, promote_dtype=SEEN.append, rngs=rngs"),
        # an element no overlay lists, or a Sequential given `rngs` at the call
        ("nnx.BatchNorm(4, rngs=rngs)", "nnx.Dropout(0.1, rngs=rngs)"),
        ("x = self.blocks(x)", "x = self.blocks(x, rngs=None)"),
        # another object's `__init__` run on an instance, or a store outside `__init__`
        (
            "\n\nclass Net",
            "\n\ndef grow(net, rngs):\n    Block.__init__(net, 4, rngs=rngs)\n\n\nclass Net",
        ),
        ("\n\nclass Net", "\n\ndef swap(net, other):\n    net.main = other\n\n\nclass Net"),
    ],
)
def test_a_sequential_is_proven_only_of_what_it_holds(change: tuple[str, str]) -> None:
    assert change[0] in BLOCKS
    given = {"model": "Net", "data": DATA}
    assert not _keeps_nothing(NET_CALL, given, BLOCKS.replace(*change))


PLAIN_CLASS = """
import jax.numpy as jnp
import somelib

SEEN = []


class Schedule:
    def __init__(self, model, steps):
        self.model = model
        self.steps = steps
        self.beta = self._betas(steps)
        self.rates = jnp.sqrt(jnp.cumprod(1 - self.beta))

    def _betas(self, steps):
        return jnp.linspace(0.0, 0.5, steps)
"""

GIVEN = {"model": UNKNOWN, "steps": DATA}


def _construction(code: str, given: dict[str, str] = GIVEN) -> bool:
    return construction_keeps_nothing(context(code), "Schedule", given)


def test_a_plain_constructor_keeps_its_arguments_only_in_the_object() -> None:
    assert _construction(PLAIN_CLASS)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # kept in a module list, handed to code autoopt cannot see, stored on an argument
        ("self.model = model\n", "self.model = model\n        SEEN.append(model)\n"),
        ("self.model = model\n", "self.model = model\n        somelib.log(model)\n"),
        ("self.model = model\n", "self.model = model\n        steps.owner = model\n"),
        # the object handed on, the model called (its code may keep itself)
        ("self.model = model\n", "self.model = model\n        somelib.register(self)\n"),
        ("self.steps = steps\n", "self.steps = steps\n        self.model(steps)\n"),
        # a method that is a field's, or given the unknown argument
        ("self.beta = self._betas(steps)", "self.beta = self._betas(model)"),
        # a base, a decorator, a metaclass: code of their own runs on construction
        ("class Schedule:", "class Schedule(somelib.Base):"),
        ("class Schedule:", "@somelib.register\nclass Schedule:"),
        ("class Schedule:", "class Schedule(metaclass=somelib.Meta):"),
        # a store may run a setter: `__setattr__`, a property, a class value
        (
            "    def _betas",
            "    def __setattr__(self, k, v):\n        SEEN.append(v)\n\n    def _betas",
        ),
        (
            "    def _betas",
            "    @property\n    def rates(self):\n        return 1\n\n    def _betas",
        ),
        ("class Schedule:\n", "class Schedule:\n    model = somelib.Slot()\n"),
        (
            "class Schedule:\n",
            "class Schedule:\n    if somelib.FLAG:\n        model = somelib.Slot()\n",
        ),
    ],
)
def test_a_constructor_that_may_keep_an_argument_elsewhere(old: str, new: str) -> None:
    assert old in PLAIN_CLASS
    assert not _construction(PLAIN_CLASS.replace(old, new))


def test_a_constructor_given_an_unknown_value_where_it_computes_is_not_read() -> None:
    """`steps` of unknown kind: `jnp.linspace(0.0, 0.5, steps)` may run its code."""
    assert not _construction(PLAIN_CLASS, {"model": UNKNOWN, "steps": UNKNOWN})


EQX_CLASS = """
import equinox as eqx
import jax
import jax.numpy as jnp


def keep(y):
    return y


class Decoder(eqx.Module):
    out: eqx.nn.Linear
    mlp: eqx.nn.MLP
    held: eqx.nn.MLP

    def __init__(self, key):
        self.out = eqx.nn.Linear(4, 2, key=key)
        self.mlp = eqx.nn.MLP(3, 4, 8, 1, activation=jax.nn.softplus, key=key)
        self.held = eqx.nn.MLP(3, 4, 8, 1, final_activation=keep, key=key)

    def sample(self, ts):
        return self._decode(ts)

    def _decode(self, ts):
        return jax.vmap(self.out, in_axes=0)(ts)

    def direct(self, x):
        return self.out(self.mlp(x))
"""


@pytest.mark.parametrize("method", ["sample", "_decode", "direct"])
def test_an_equinox_layer_called_or_mapped_keeps_nothing(method: str) -> None:
    """`FRESH_CALLS` layers, given data, called directly or through `jax.vmap`."""
    ctx = context(EQX_CLASS)
    fn = ctx.graph.functions[f"Decoder.{method}"]
    given = {fn.params[0]: "Decoder"} | dict.fromkeys(fn.params[1:], DATA)
    assert visible_keeps_nothing(ctx, fn, given)


@pytest.mark.parametrize(
    "change",
    [
        ("jax.vmap(self.out, in_axes=0)(ts)", "jax.vmap(self.out, out_axes=None)(ts)"),
        ("jax.vmap(self.out, in_axes=0)(ts)", "jax.vmap(lambda t: t)(ts)"),
        ("jax.vmap(self.out, in_axes=0)(ts)", "jax.vmap(self.held)(ts)"),
        ("jax.vmap(self.out, in_axes=0)(ts)", "jax.vmap(keep)(ts)"),
        ("jax.vmap(self.out, in_axes=0)(ts)", "jax.vmap(self.out, in_axes=self.held)(ts)"),
        ("self.out(self.mlp(x))", "self.out(self.held(x))"),
    ],
)
def test_an_equinox_layer_is_read_only_as_listed(change: tuple[str, str]) -> None:
    """An option vmap may hand back what it was given with, a function of the
    program's (mapped, or run by an `MLP` as its activation), or an option given a value
    the reader cannot judge: each may keep, or run code that may."""
    ctx = context(EQX_CLASS.replace(*change))
    method = "_decode" if change[0].startswith("jax.vmap") else "direct"
    fn = ctx.graph.functions[f"Decoder.{method}"]
    assert change[1] in ctx.code(fn.node)
    given = {fn.params[0]: "Decoder"} | dict.fromkeys(fn.params[1:], DATA)
    assert not visible_keeps_nothing(ctx, fn, given)


def test_an_equinox_layer_given_an_unknown_value_may_run_its_code() -> None:
    ctx = context(EQX_CLASS)
    fn = ctx.graph.functions["Decoder._decode"]
    assert not visible_keeps_nothing(ctx, fn, {"self": "Decoder", "ts": UNKNOWN})


#: The latent ODE's decoder (diffrax's example): a solve of a vector field of the module.
DIFFRAX_CLASS = """
import diffrax
import equinox as eqx
import jax
import jax.nn as jnn
import jax.numpy as jnp
import jax.random as jr

SEEN = []


def keep(y):
    SEEN.append(y)
    return y


class Func(eqx.Module):
    scale: jnp.ndarray
    mlp: eqx.nn.MLP

    def __call__(self, t, y, args):
        return self.scale * self.mlp(y)


class LatentODE(eqx.Module):
    func: Func
    latent_to_hidden: eqx.nn.MLP
    hidden_to_data: eqx.nn.Linear
    latent_size: int

    def __init__(self, *, hidden_size, latent_size, key):
        mkey, lhkey, hdkey = jr.split(key, 3)
        scale = jnp.ones(())
        mlp = eqx.nn.MLP(hidden_size, hidden_size, 8, 1, activation=jnn.softplus, key=mkey)
        self.func = Func(scale, mlp)
        self.latent_to_hidden = eqx.nn.MLP(latent_size, hidden_size, 8, 1, key=lhkey)
        self.hidden_to_data = eqx.nn.Linear(hidden_size, 2, key=hdkey)
        self.latent_size = latent_size

    def _sample(self, ts, latent):
        y0 = self.latent_to_hidden(latent)
        sol = diffrax.diffeqsolve(
            diffrax.ODETerm(self.func),
            diffrax.Tsit5(),
            ts[0],
            ts[-1],
            0.4,
            y0,
            saveat=diffrax.SaveAt(ts=ts),
        )
        return jax.vmap(self.hidden_to_data)(sol.ys)

    def sample(self, ts, *, key):
        latent = jr.normal(key, (self.latent_size,))
        return self._sample(ts, latent)


def main(latent_size=4):
    model = LatentODE(hidden_size=3, latent_size=latent_size, key=jr.PRNGKey(0))
    return model.sample(jnp.linspace(0, 1, 5), key=jr.PRNGKey(1))


main()
"""
_SAMPLE_GIVEN = {"self": "LatentODE", "ts": DATA, "key": DATA}


def _sample_keeps_nothing(code: str) -> bool:
    ctx = context(code)
    return visible_keeps_nothing(ctx, ctx.graph.functions["LatentODE.sample"], _SAMPLE_GIVEN)


def test_a_diffrax_solve_of_a_vector_field_read_to_keep_nothing_keeps_nothing() -> None:
    """The solve runs the vector field `Func.__call__` on tracers, given data; a plain
    solver and a `SaveAt` of states run nothing else; `sol.ys` is data; and the field
    `latent_size` holds the number every construction gives."""
    assert _sample_keeps_nothing(DIFFRAX_CLASS)


_FUNC_CALL = "        return self.scale * self.mlp(y)\n"
_SOLVER = "            diffrax.Tsit5(),\n"
_SAVE = "            saveat=diffrax.SaveAt(ts=ts),\n"


@pytest.mark.parametrize(
    "change",
    [
        # the vector field keeps its argument, changes it, returns what is no data or
        # runs a function of the program's
        (_FUNC_CALL, "        SEEN.append(y)\n" + _FUNC_CALL),
        (_FUNC_CALL, "        args.seen = y\n" + _FUNC_CALL),
        (_FUNC_CALL, "        return self\n"),
        (_FUNC_CALL, "        return keep(self.mlp(y))\n"),
        ("    def __call__(self, t, y, args):", "    def __call__(self, t, y, args, *rest):"),
        ("    def __call__(self, t, y, args):", "    def __call__(self, t, y):"),
        # a term of a function of the program's, a lambda, a layer or an unknown value
        ("diffrax.ODETerm(self.func)", "diffrax.ODETerm(keep)"),
        ("diffrax.ODETerm(self.func)", "diffrax.ODETerm(lambda t, y, args: -y)"),
        ("diffrax.ODETerm(self.func)", "diffrax.ODETerm(self.hidden_to_data)"),
        ("diffrax.ODETerm(self.func)", "diffrax.ODETerm(SEEN)"),
        ("diffrax.ODETerm(self.func)", "diffrax.ControlTerm(self.func, ts)"),
        # a `SaveAt` that runs a function, saves more than states, or a solve option
        # that runs code of its own
        (_SAVE, "            saveat=diffrax.SaveAt(ts=ts, fn=keep),\n"),
        (_SAVE, "            saveat=diffrax.SaveAt(ts=ts, dense=True),\n"),
        (_SAVE, "            saveat=diffrax.SaveAt(ts=SEEN),\n"),
        (_SAVE, _SAVE + "            stepsize_controller=diffrax.PIDController(1e-3, 1e-6),\n"),
        (_SAVE, _SAVE + "            adjoint=diffrax.BacksolveAdjoint(),\n"),
        (_SAVE, "            saveat,\n"),
        # a solver given an option, or of the program's
        (_SOLVER, '            diffrax.Tsit5(scan_kind="lax"),\n'),
        (_SOLVER, "            diffrax.Kvaerno5(),\n"),
        (_SOLVER, "            SEEN,\n"),
        # an initial state or arguments of unknown kind
        ("            y0,\n", "            SEEN,\n"),
        ("            y0,\n", "            y0,\n            self.func,\n"),
        # the solution used but for its data
        ("(sol.ys)", "(sol.evaluate(ts[0]))"),
        ("(sol.ys)", "(sol.interpolation)"),
        ("(sol.ys)", "(sol)"),
    ],
)
def test_a_diffrax_solve_is_read_only_as_listed(change: tuple[str, str]) -> None:
    """Anything else the solve, its term, solver or `SaveAt` may run or keep, or a
    solution read for what is not data, may keep the model (or run code that may)."""
    assert change[0] in DIFFRAX_CLASS
    assert not _sample_keeps_nothing(DIFFRAX_CLASS.replace(*change))


def test_a_field_some_construction_gives_an_object_is_unknown() -> None:
    """`latent_size` given a list by a second construction: `jr.normal` of a shape the
    reader cannot judge (and a list may hold anything)."""
    code = DIFFRAX_CLASS.replace(
        "\n\nmain()\n", "\n\nmain()\nLatentODE(hidden_size=3, latent_size=[SEEN], key=None)\n"
    )
    assert not _sample_keeps_nothing(code)


@pytest.mark.parametrize(("given", "unkept"), [("3", True), ("SEEN", False), ("keep", False)])
def test_the_vector_field_holds_only_what_the_solve_leaves_unkept(given: str, unkept: bool) -> None:
    """A field `__call__` never reads still goes to the solve's jit, which keeps every
    leaf but arrays in its cache: a number is no buffer; a list or a function of the
    program's (one static leaf) may hold any."""
    code = DIFFRAX_CLASS.replace(
        "    mlp: eqx.nn.MLP\n", "    mlp: eqx.nn.MLP\n    extra: int\n", 1
    ).replace("Func(scale, mlp)", f"Func(scale, mlp, {given})")
    assert _sample_keeps_nothing(code) is unkept


FACTORY_CLASS = """
import jax.numpy as jnp
from flax import nnx

SEEN = []


def hook(x, kernel, *args, **kwargs):
    SEEN.append(kernel)
    return jnp.dot(x, kernel)


class Net(nnx.Module):
    def __init__(self, width: int, *, rngs: nnx.Rngs):
        self.down = self._block(width, rngs)
        self.head = nnx.Linear(width, 2, rngs=rngs)

    def _block(self, channels: int, rngs: nnx.Rngs):
        conv = nnx.Linear(in_features=channels, out_features=channels, rngs=rngs)
        norm = nnx.LayerNorm(channels, rngs=rngs)

        def forward(x):
            h = norm(conv(x))
            return x + nnx.gelu(h)

        return forward

    def __call__(self, x):
        return self.head(self.down(x))

"""


def _net_keeps_nothing(header: str) -> bool:
    ctx = context("def f(model, data):\n    return model(data)\n", header)
    return visible_keeps_nothing(ctx, ctx.graph.functions["f"], {"model": "Net", "data": DATA})


def test_a_factory_closure_over_plain_layers_keeps_nothing() -> None:
    """`self.down = self._block(...)`: the closure runs its own listed layers on data."""
    assert _net_keeps_nothing(FACTORY_CLASS)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the closure hands its argument to a global list: no factory, the field unknown
        (
            "            h = norm(conv(x))\n",
            "            SEEN.append(x)\n            h = norm(conv(x))\n",
        ),
        # a layer given a hook that runs at every call: no factory
        (
            "in_features=channels, out_features",
            "dot_general=hook, in_features=channels, out_features",
        ),
        # a layer's hook set once it is built: the module does not keep its layers
        ("        return forward\n", "        conv.dot_general = hook\n        return forward\n"),
        # the field stored again outside `__init__`
        (
            "    def __call__(self, x):\n",
            "    def swap(self, f):\n        self.down = f\n\n    def __call__(self, x):\n",
        ),
        # the closure called with an unknown value besides the data
        ("self.head(self.down(x))", "self.head(self.down(x, SEEN))"),
    ],
)
def test_a_factory_closure_is_read_only_as_proven(old: str, new: str) -> None:
    assert old in FACTORY_CLASS
    assert not _net_keeps_nothing(FACTORY_CLASS.replace(old, new, 1))
