"""Steady-state replay of captured calls, original vs rewritten, in one worker (imports jax).

Per target function (the region a rewrite changed): one first call each (compile cost
measured there), more warm-up calls, then rounds that call A and B alternately (ABBA
order) on fresh copies of the captured arguments, timing each pass to
`block_until_ready`: CPU time of this process on the CPU backend, wall time on an
accelerator or where the CPU clock ticks coarsely (sandboxes count CPU time in 10 ms
ticks). A sample repeats passes until it lasts `MIN_SAMPLE_S`: one call of a few
milliseconds is at the mercy of the scheduler on a busy machine (on 13 busy cores one
call in two took twice as long, by its place in the sequence), and a coarse clock rounds
it to nothing. Rounds go on until the paired interval decides (`autoopt.verify.stats`)
or the pair's budget ends. The entry itself, called without arguments, is a region too.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import jax

from autoopt.verify import probes
from autoopt.verify.compare import Tolerance, compare_trees
from autoopt.verify.program import EntryError, Loaded, load_program, preload, resolve
from autoopt.verify.stats import MIN_PAIRS, Decision, decision, paired_interval

MIN_ROUNDS = 2  # rounds past the budget still taken, so that an interval exists
MIN_SAMPLE_S = 0.2  # a sample repeats passes over the calls until it lasts this long
MAX_PASSES = 1000  # ... but takes no more passes than this
FINE_CLOCK_S = 1e-4  # CPU time is the clock only where it ticks at least this finely


class NoArguments:
    """The call of an entry that takes no arguments."""

    def fresh(self) -> tuple[tuple, dict]:
        return (), {}

    def rebound(self, name: str, module: ModuleType) -> NoArguments:
        return self


Call = probes.SavedCall | NoArguments


@dataclass(frozen=True)
class Clock:
    """What times the samples: its name in the report and the function that reads it."""

    name: str
    now: Callable[[], float]


def clock() -> Clock:
    """CPU time of this process on the CPU backend where it ticks finely, else wall time."""
    cpu = jax.devices()[0].platform == "cpu"
    if cpu and resolution(time.process_time) <= FINE_CLOCK_S:
        return Clock("cpu", time.process_time)
    return Clock("wall", time.perf_counter)


def resolution(read: Callable[[], float], probe_s: float = 0.05) -> float:
    """The smallest step `read` was seen to take within `probe_s` of spinning."""
    end, last, step = time.perf_counter() + probe_s, read(), math.inf
    while step > FINE_CLOCK_S and time.perf_counter() < end:
        now = read()
        if now != last:
            step, last = min(step, now - last), now
    return step


@dataclass
class Side:
    """One variant of a function and what was measured about it."""

    fn: Any
    calls: list[Call]  # the captured calls, their arguments built for this side's module
    samples: list[float] = field(default_factory=list)
    compiles: int = 0  # inside the timed rounds
    first_s: float = 0.0
    compile_s: float = 0.0
    deleted: int = 0  # donated input arrays deleted by the first call
    output: Any = None
    pass_s: float = 0.0  # wall seconds of the latest pass over the calls

    def to_json(self) -> dict[str, Any]:
        keys = ("samples", "compiles", "first_s", "compile_s", "deleted")
        return {key: getattr(self, key) for key in keys}


def run_bench(
    spec: dict[str, Any], counter: probes.CompileCounter, loaded: Loaded | None = None
) -> dict[str, Any]:
    """Bench every (rewritten program, target) pair; a pair's failure is reported, not raised.

    `loaded`: the original, loaded before jax was imported (a fresh interpreter).
    """
    original = (loaded or preload(spec)).get()
    timer = clock()
    firsts: dict[str, Side | str] = {}
    results = {}
    for number, pair in enumerate(spec["pairs"]):
        target = pair["target"]
        calls = _calls(spec, target)
        if target not in firsts:
            firsts[target] = _first_of_original(original, target, calls, counter)
        first = firsts[target]
        if isinstance(first, str):
            results[pair["id"]] = {"skipped": first}
            continue
        try:
            module = load_program(Path(pair["rewritten"]), f"_autoopt_b{number}_{spec['module']}")
            fb = resolve(module, target)
        except Exception as exc:
            results[pair["id"]] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        a = Side(first.fn, calls, first_s=first.first_s, compile_s=first.compile_s)
        a.deleted, a.output = first.deleted, first.output
        b = Side(fb, [call.rebound(spec["module"], module) for call in calls])
        results[pair["id"]] = bench_pair(a, b, spec, counter, timer)
    return {"functions": results}


def _calls(spec: dict[str, Any], target: str) -> list[Call]:
    """The captured calls of `target`; the entry's one call without arguments."""
    if target == spec.get("entry_region"):
        return [NoArguments()]
    return list(probes.load_calls(Path(spec["capture_dir"]) / target))


def _first_of_original(module: Any, target: str, calls: list[Call], counter: Any) -> Side | str:
    """The original's first round on the captured calls, or why there is none."""
    if not calls:
        return "no calls captured"
    try:
        side = Side(resolve(module, target), calls)
        _first_round(side, counter)
    except EntryError as exc:
        return str(exc)
    except Exception as exc:
        return f"the original fails on replay: {type(exc).__name__}: {exc}"
    return side


def bench_pair(
    a: Side, b: Side, spec: dict[str, Any], counter: Any, timer: Clock
) -> dict[str, Any]:
    """Time `b` against `a` (whose first round is done) and compare their first outputs."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _first_round(b, counter)
        result = _measure(a, b, spec, counter, timer)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    result["warnings"] = sorted({str(w.message) for w in caught})
    return result


def _measure(a: Side, b: Side, spec: dict[str, Any], counter: Any, timer: Clock) -> dict[str, Any]:
    tol = Tolerance(spec.get("rtol"), spec.get("atol"))
    comparison = compare_trees(
        probes.flatten(a.output),
        probes.flatten(b.output),
        tol,
        x64=jax.config.jax_enable_x64,  # type: ignore[attr-defined]  # a jax flag
    )
    long = a.first_s + b.first_s > spec["budget_s"] / 4  # the first calls warmed up enough
    for _ in range(0 if long else max(spec["warmup"] - 1, 0)):
        _round(a, counter)
        _round(b, counter)
    a.compiles = b.compiles = 0
    _timed_rounds(a, b, spec, counter, timer)
    return {
        "calls": len(a.calls),
        "clock": timer.name,
        "a": a.to_json(),
        "b": b.to_json(),
        "memory_a": _memory(a.fn, a.calls[0]),
        "memory_b": _memory(b.fn, b.calls[0]),
        "comparison": comparison.__dict__,
    }


def _timed_rounds(a: Side, b: Side, spec: dict[str, Any], counter: Any, timer: Clock) -> None:
    """ABBA rounds until the interval decides, `rounds` are done or the budget ends."""
    start = time.perf_counter()
    for i in range(spec["rounds"]):
        for side in (a, b) if i % 2 == 0 else (b, a):
            side.samples.append(_sample(side, counter, timer.now))
        if i + 1 >= MIN_PAIRS and _decided(a, b, spec):
            break
        if i + 1 >= MIN_ROUNDS and time.perf_counter() - start > spec["budget_s"]:
            break


def _decided(a: Side, b: Side, spec: dict[str, Any]) -> bool:
    floor = spec["tiny_floor"] if min(a.samples) < spec["tiny_s"] else spec["floor"]
    return decision(paired_interval(a.samples, b.samples), floor) is not Decision.UNDECIDED


def _first_round(side: Side, counter: Any) -> None:
    """The first call of each captured input: compiles; its time and compile cost are kept."""
    seconds = counter.seconds
    inputs = [call.fresh() for call in side.calls]
    start = time.perf_counter()
    outputs = probes.block([side.fn(*args, **kwargs) for args, kwargs in inputs])
    side.first_s = time.perf_counter() - start
    side.compile_s = counter.seconds - seconds
    side.deleted = probes.deleted_leaves(inputs[0])
    side.output = outputs[0]


def _sample(side: Side, counter: Any, now: Callable[[], float]) -> float:
    """Seconds per call (by `now`) over enough passes to last `MIN_SAMPLE_S`, judged by
    the side's latest pass."""
    passes = min(MAX_PASSES, math.ceil(MIN_SAMPLE_S / side.pass_s)) if side.pass_s > 0 else 1
    return sum(_round(side, counter, now) for _ in range(passes)) / passes


def _round(side: Side, counter: Any, now: Callable[[], float] = time.perf_counter) -> float:
    """One timed pass over the captured calls; returns seconds per call (by `now`)."""
    inputs = [call.fresh() for call in side.calls]
    before = counter.count
    wall, start = time.perf_counter(), now()
    probes.block([side.fn(*args, **kwargs) for args, kwargs in inputs])
    elapsed = now() - start
    side.pass_s = max(time.perf_counter() - wall, 1e-9)
    side.compiles += counter.count - before
    return elapsed / len(side.calls)


def _memory(fn: Any, call: Any) -> dict[str, int] | None:
    args, kwargs = call.fresh()
    try:
        return probes.compiled_memory(fn, args, kwargs)
    except Exception:  # not lowerable with these arguments: no compiled view
        return None
