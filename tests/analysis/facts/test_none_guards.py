"""Attributes read only while the donated one is None (`none_guarded`, `none_reason`): the
uvadlc tutorials' trainer, and each way `self.state` may be None after a step."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.none_guards import (
    is_none_test,
    none_guarded,
    none_reason,
    quiet_reason,
)
from autoopt.analysis.facts.self_attrs import is_store, uses

from ..helpers import context

_HEADER = (
    "import flax.linen as nn\nimport jax\nimport optax\nfrom flax.training import train_state\n"
)
#: The uvadlc tutorials' trainer: a step jitted in a method, the first variables unpacked
#: into attributes right before `self.state = None`, a state loaded from a checkpoint.
_TRAINER = """
class Trainer:
    def __init__(self, exmp):
        self.model = nn.Dense(3)
        self.create_functions()
        self.init_model(exmp)

    def create_functions(self):
        def train_step(state, batch):
            grads = jax.grad(lambda p: state.apply_fn(p, batch).sum())(state.params)
            state = state.apply_gradients(grads=grads)
            return state, batch.sum()

        self.train_step = jax.jit(train_step)

    def init_model(self, exmp):
        variables = self.model.init(jax.random.PRNGKey(0), exmp)
        self.init_params, self.init_stats = variables["params"], variables["stats"]
        self.state = None

    def init_optimizer(self):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply,
            params=self.init_params if self.state is None else self.state.params,
            tx=optax.sgd(0.1),
        )

    def load_model(self, params):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.1)
        )

    def train_model(self, batches):
        self.init_optimizer()
        for batch in batches:
            self.state, loss = self.train_step(self.state, batch)
"""
_BOTH = frozenset({"init_params", "init_stats"})
_STEP = """            state = state.apply_gradients(grads=grads)
            return state, batch.sum()"""
_RESET = """        self.init_params, self.init_stats = variables["params"], variables["stats"]
        self.state = None"""


def _reason(code: str, guarded: frozenset[str] = _BOTH) -> str | None:
    return none_reason(context(code, _HEADER), "Trainer", "state", guarded)


def _changed(old: str, new: str) -> str:
    assert old in _TRAINER, old
    return _TRAINER.replace(old, new)


def test_the_tutorial_trainer_is_none_only_with_new_initial_parameters() -> None:
    assert _reason(_TRAINER) is None


def test_the_guarded_read() -> None:
    ctx = context(_TRAINER, _HEADER)
    reads = [u for u in uses(ctx, "Trainer", "init_params") if not is_store(u)]
    assert [none_guarded(u, "state") for u in reads] == [True]
    assert [none_guarded(u, "model") for u in reads] == [False]


@pytest.mark.parametrize(
    ("test", "holds"),
    [
        ("self.state is None", True),
        ("(self.state is None)", True),
        ("self.state is not None", False),
        ("self.state == None", False),
        ("None is self.state", False),
        ("self.state is None is None", False),
        ("other.state is None", False),
        ("self.model is None", False),
        ("not self.state", False),
    ],
)
def test_the_none_test_exactly(test: str, holds: bool) -> None:
    assert is_none_test(cst.parse_expression(test), "self", "state") is holds


@pytest.mark.parametrize(
    "step",
    [
        "            return state, batch.sum()",  # the state given, unchanged
        "            return state.replace(step=0).apply_gradients(grads=grads), batch.sum()",
        "            for _ in range(2):\n                state = state.apply_gradients(grads=grads)"
        "\n            return state, batch.sum()",
    ],
)
def test_steps_whose_output_is_none_only_where_the_state_given_was(step: str) -> None:
    assert _reason(_changed(_STEP, step)) is None


@pytest.mark.parametrize(
    "step",
    [
        "            return None, batch.sum()",
        "            return grads, batch.sum()",
        "            state = make(state)\n            return state, batch.sum()",
        "            state, x = state.apply_gradients(grads=grads), 0\n"
        "            return state, batch.sum()",
        "            return (state, batch.sum()) if batch else (None, 0)",
        "            global state\n            return state, batch.sum()",
    ],
)
def test_steps_that_may_return_none(step: str) -> None:
    line = 38 + step.count("\n")  # the step's two lines replaced
    assert _reason(_changed(_STEP, step)) == f"the value stored in it at line {line} may be None"


def test_other_jits_and_calls_of_a_step() -> None:
    filtered = _changed("jax.jit(train_step)", "nnx.jit(train_step)")
    assert _reason(filtered) == "the value stored in it at line 39 may be None"
    swapped = _changed("self.train_step(self.state, batch)", "self.train_step(batch, self.state)")
    assert _reason(swapped) == "the value stored in it at line 39 may be None"
    keyword = _changed(
        "self.train_step(self.state, batch)", "self.train_step(batch=batch, state=self.state)"
    )
    assert _reason(keyword) == "the value stored in it at line 39 may be None"


def test_a_step_stored_whole_must_end_in_a_return() -> None:
    whole = _changed("self.state, loss = self.train_step", "self.state = self.train_step").replace(
        "return state, batch.sum()", "return state"
    )
    assert _reason(whole) is None
    branch = whole.replace(
        "            return state\n", "            if batch:\n                return state\n"
    )
    assert _reason(branch) == "the value stored in it at line 40 may be None"


@pytest.mark.parametrize(
    ("reset", "missing"),
    [
        ("        self.state = None", "`self.init_params`, `self.init_stats`"),
        ('        self.init_params = variables["params"]\n        self.state = None',
         "`self.init_stats`"),
        ('        self.init_params, self.init_stats = variables["params"], variables["stats"]\n'
         '        print("reset")\n        self.state = None',
         "`self.init_params`, `self.init_stats`"),
        ('        self.init_params = variables["params"]\n'
         '        self.init_stats = jax.tree.map(lambda x: x, variables["stats"])\n'
         "        self.state = None", "`self.init_params`"),
        ('        self.init_params, self.init_stats = variables["params"], variables["stats"]\n'
         "        if self.init_params:\n            pass\n        self.state = None",
         "`self.init_params`, `self.init_stats`"),
    ],
)  # fmt: skip
def test_none_stored_without_new_initial_parameters_just_before(reset: str, missing: str) -> None:
    code = _changed(_RESET, reset)
    line = 21 + reset.count("\n")  # two lines replaced
    expected = f"it is stored `None` at line {line} with no store in {missing} just before"
    assert _reason(code) == expected


def test_two_stores_the_later_calling_nothing() -> None:
    split = _changed(
        _RESET,
        '        self.init_params = variables["params"]\n'
        '        self.init_stats = variables["stats"]\n        self.state = None',
    )
    assert _reason(split) is None


_OTHERWISE = "it is written at line 37 other than by `=` to it alone"


@pytest.mark.parametrize(
    ("method", "reason"),
    [
        ("self.state = restore()", "the value stored in it at line 37 may be None"),
        ("self.state = self.state", "the value stored in it at line 37 may be None"),
        ("self.state, self.seed = None, 0", "the value stored in it at line 37 may be None"),
        ("self.state = x = None", _OTHERWISE),
        ("self.state: object = None", _OTHERWISE),
        ("del self.state", "it is deleted at line 37"),
        ("[0 for self.state in [None]]", _OTHERWISE),
        ("for self.state in [None]: pass", _OTHERWISE),
    ],
)
def test_stores_that_may_make_it_none(method: str, reason: str) -> None:
    code = _changed(
        "    def train_model(self, batches):",
        f"    def m(self):\n        {method}\n\n    def train_model(self, batches):",
    )
    assert _reason(code) == reason


@pytest.mark.parametrize(
    "outside",
    [
        "t.state = None",
        "del t.state",
        "t.state, x = None, 0",
        "for t.state in [None]:\n    pass",
        "[0 for t.state in [None]]",
        "t.state += 0",
    ],
)
def test_bound_outside_the_class(outside: str) -> None:
    code = _TRAINER + f"\n\nt = Trainer(0)\n{outside}\n"
    assert _reason(code) == "`t.state` at line 43 binds or deletes it outside `Trainer`"


def test_read_outside_the_class() -> None:
    code = _TRAINER + "\n\nt = Trainer(0)\nprint(t.state.params, t.state is None)\n"
    assert _reason(code) is None


def _quiet(code: str) -> str | None:
    ctx = context(code, _HEADER)
    (read,) = [u for u in uses(ctx, "Trainer", "init_params") if not is_store(u)]
    return quiet_reason(ctx, read, "Trainer")


_TX = "            tx=optax.sgd(0.1),\n"


def test_the_statement_of_the_guarded_read_runs_only_library_code() -> None:
    assert _quiet(_TRAINER) is None
    chained = _changed(_TX, "            tx=optax.chain(optax.clip(1.0), optax.sgd(0.1)),\n")
    assert _quiet(chained) is None


_CREATE = "`train_state.TrainState.create(...)` at line 25 may run a step first"


@pytest.mark.parametrize(
    ("tx", "reason"),
    [
        ("self.make_tx()", _CREATE),  # `create` runs `tx.init`, unknown
        ("optax.chain(custom)", _CREATE),
        ("optax.sgd(lambda n: 0.1)", "line 25 makes a function that code it calls may run"),
        ("optax.sgd([0.1 for _ in ()][0])", "line 25 makes a function that code it calls may run"),
    ],
)
def test_optimizers_that_may_run_a_step_while_the_parameters_are_held(tx: str, reason: str) -> None:
    assert _quiet(_changed(_TX, f"            tx={tx},\n")) == reason


@pytest.mark.parametrize("apply_fn", ["self.make_apply()", "make_apply()", "print(0)"])
def test_calls_that_may_run_a_step_while_the_parameters_are_held(apply_fn: str) -> None:
    code = _changed("apply_fn=self.model.apply,", f"apply_fn={apply_fn},")
    func = apply_fn.split("(")[0]
    assert _quiet(code) == f"`{func}(...)` at line 25 may run a step first"


def test_a_property_of_self_read_there() -> None:
    code = _changed(
        "            apply_fn=self.model.apply,", "            apply_fn=self.apply_fn,"
    ).replace(
        "    def load_model(self, params):",
        "    @property\n    def apply_fn(self):\n        return self.model.apply\n\n"
        "    def load_model(self, params):",
    )
    assert _quiet(code) == (
        "`Trainer.apply_fn` (line 32) is a property: assigning `self.apply_fn` may run a setter "
        "that keeps the value"
    )
