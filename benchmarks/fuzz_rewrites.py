"""Differential fuzzer for the default (safe-only) rewrite (issue 27 item 6).

In the spirit of Csmith: generate small deterministic JAX programs from a seed, each a
module whose `main()` returns arrays and values (and may print), rewrite each with
`autoopt.api.optimize_source(code)`, run original and rewrite, and compare what they
return (tests/hazards/test_hazards.py `compare`: container types, array kind, dtype,
shape, ints exactly, floats with allclose), the exception type if one is raised, and
what they print. The rewrite must also be idempotent.

A program composes one or two parts: a loop skeleton (`SKELETONS`) whose hazard
mutations (`MUTATIONS`) are each on or off by the seeded RNG, or a hazard fragment of
one of issue 27's classes (benchmarks/fuzz_hazards.py), rendered as its hazard or as
its benign twin. Programs run in worker processes that import jax once and fork a
child per batch (benchmarks/fuzz_runner.py). A failing program is shrunk (mutations,
then parts, then lines, dropped one at a time while the failure persists) and written
to `--out`. The run prints a summary table (also as JSON with `--json PATH`).

    python benchmarks/fuzz_rewrites.py --seed 0 --count 3000 --jobs 2 --no-shrink
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.fuzz_hazards import CLASSES, FRAGMENTS, fragment_class  # noqa: E402
from benchmarks.fuzz_runner import run_codes  # noqa: E402

# skeleton -> the mutation classes it can take
SKELETONS: dict[str, tuple[str, ...]] = {
    "train_step": ("print_in_step", "global_rebound", "alias_after", "dtype_change"),
    "float_losses": ("print_in_step", "list_alias", "alias_after"),
    "host_asarray": ("host_copyto", "host_out", "host_slice", "dtype_change"),
    "at_set": ("big_index", "alias_after", "dtype_change"),
    "concat_grow": ("list_alias", "dtype_change", "alias_after"),
    "stack_examples": ("print_in_step", "global_rebound", "list_alias"),
}
MUTATIONS = sorted({m for ms in SKELETONS.values() for m in ms})
SKELETON_SHARE = 0.4  # a part is a skeleton with mutations, else a hazard fragment
HAZARD_SHARE = 0.6  # a fragment renders its hazard, else its benign twin
HEADER = [
    "import functools",
    "import logging",
    "import math",
    "import sys",
    "",
    "import jax",
    "import jax.numpy as jnp",
    "import numpy as np",
]


@dataclass
class Part:
    """A skeleton with its mutations, or (`skeleton` empty) a hazard fragment."""

    skeleton: str
    k: int
    n: int
    mutations: frozenset[str]
    fragment: str = ""
    hazard: bool = False

    @property
    def label(self) -> str:
        return self.skeleton or f"{self.fragment}:{'hazard' if self.hazard else 'benign'}"


@dataclass
class Program:
    name: str
    parts: list[Part]
    drop_lines: frozenset[int] = frozenset()

    def code(self) -> str:
        lines = render(self.parts)
        return "\n".join(line for i, line in enumerate(lines) if i not in self.drop_lines) + "\n"


def generate(seed: int, index: int) -> Program:
    rng = random.Random(f"{seed}:{index}")
    parts = []
    for k in range(rng.choice((1, 1, 2))):
        if rng.random() < SKELETON_SHARE:
            skeleton = rng.choice(sorted(SKELETONS))
            muts = frozenset(m for m in SKELETONS[skeleton] if rng.random() < 0.35)
            parts.append(Part(skeleton, k, rng.randint(2, 5), muts))
        else:
            name = rng.choice(sorted(FRAGMENTS))
            hazard = rng.random() < HAZARD_SHARE
            parts.append(Part("", k, rng.randint(2, 5), frozenset(), name, hazard))
    return Program(f"f{seed}_{index:05d}", parts)


def _part(p: Part) -> tuple[list[str], list[str], list[str]]:
    """(module-level lines, lines of main's body, names main returns)."""
    if p.fragment:
        made = FRAGMENTS[p.fragment](p.k, p.n, p.hazard)
        return made.top, made.body, made.ret
    k, n, m = p.k, p.n, p.mutations
    top: list[str] = []
    body: list[str] = []
    ret: list[str] = []
    if p.skeleton == "train_step":
        top += [f"LR{k} = 0.1", "", f"def step{k}(state, x):"]
        if "print_in_step" in m:
            top.append(f'    print("step{k}", x.shape)')
        top += [f"    return state - LR{k} * jnp.tanh(state * x)", ""]
        if "global_rebound" in m:
            body.append(f"global LR{k}")
        body += [
            f"state{k} = jnp.ones(4)",
            f"xs{k} = jnp.linspace(0.0, 1.0, {4 * n}).reshape({n}, 4)",
        ]
        if "alias_after" in m:
            body.append(f"start{k} = state{k}")
        body.append(f"for i in range({n}):")
        if "dtype_change" in m:
            body.append(f"    x{k} = xs{k}[i].astype(jnp.float32 if i % 2 else jnp.float16)")
        else:
            body.append(f"    x{k} = xs{k}[i]")
        body.append(f"    state{k} = step{k}(state{k}, x{k})")
        if "global_rebound" in m:
            body.append(f"    LR{k} = LR{k} * 0.5")
        ret.append(f"state{k}")
        if "alias_after" in m:
            ret.append(f"start{k} + 1")
    elif p.skeleton == "float_losses":
        top += [f"def loss{k}(w):"]
        if "print_in_step" in m:
            top.append(f'    print("loss{k}")')
        top += ["    return jnp.sum(w * w)", ""]
        body += [f"losses{k} = []", f"w{k} = jnp.arange(3.0)"]
        if "list_alias" in m:
            body.append(f"kept{k} = losses{k}")
        body += [
            f"for i in range({n}):",
            f"    w{k} = w{k} * 0.9 + i",
            f"    losses{k}.append(float(loss{k}(w{k})))",
        ]
        if "list_alias" in m:
            body.append(f"    kept{k}.append(len(kept{k}))")
        ret.append(f"losses{k}")
        if "alias_after" in m:
            ret.append(f"w{k}")
    elif p.skeleton == "host_asarray":
        dtype = "np.float32" if "dtype_change" in m else "np.float64"
        body += [
            f"host{k} = np.arange(12, dtype=np.float64).reshape(3, 4)",
            f"acc{k} = jnp.zeros(4)",
            f"for i in range({n}):",
        ]
        if "host_copyto" in m:
            body.append(f"    np.copyto(host{k}, host{k} * 0.5 + i)")
        if "host_out" in m:
            body.append(f"    np.add(host{k}, 1.0, out=host{k})")
        if "host_slice" in m:
            body.append(f"    host{k}[0, :] = i")
        body += [
            f"    d{k} = jnp.asarray(host{k}.astype({dtype}))"
            if "dtype_change" in m
            else f"    d{k} = jnp.asarray(host{k})",
            f"    acc{k} = acc{k} + d{k}[0] * d{k}[2]",
        ]
        ret += [f"acc{k}", f"host{k}"]
    elif p.skeleton == "at_set":
        body += [f"arr{k} = jnp.zeros({n})"]
        if "alias_after" in m:
            body.append(f"orig{k} = arr{k}")
        body.append(f"for i in range({n}):")
        index = f"(i * 1000003) % {n}" if "big_index" in m else "i"
        value = "i * 2" if "dtype_change" in m else "i * 2.0"
        body.append(f"    arr{k} = arr{k}.at[{index}].set({value})")
        ret.append(f"arr{k}")
        if "alias_after" in m:
            ret.append(f"orig{k}")
    elif p.skeleton == "concat_grow":
        body.append(f"grown{k} = jnp.zeros((0, 3))")
        if "list_alias" in m:
            body.append(f"parts{k} = [grown{k}]")
        if "alias_after" in m:
            body.append(f"first{k} = grown{k}")
        body += [f"for i in range({n}):"]
        if "dtype_change" in m:
            body.append(f"    row{k} = jnp.full((1, 3), i, dtype=jnp.int32)")
        else:
            body.append(f"    row{k} = jnp.full((1, 3), float(i))")
        body.append(f"    grown{k} = jnp.concatenate([grown{k}, row{k}])")
        if "list_alias" in m:
            body.append(f"    parts{k}.append(grown{k})")
        ret.append(f"grown{k}")
        if "list_alias" in m:
            ret.append(f"len(parts{k})")
        if "alias_after" in m:
            ret.append(f"first{k}")
    elif p.skeleton == "stack_examples":
        top += [f"SCALE{k} = 2.0", "", f"def per_example{k}(x):"]
        if "print_in_step" in m:
            top.append(f'    print("example{k}")')
        top += [f"    return jnp.sum(x * x) * SCALE{k}", ""]
        if "global_rebound" in m:
            body.append(f"global SCALE{k}")
        body += [
            f"batch{k} = jnp.arange({3 * n}.0).reshape({n}, 3)",
            f"outs{k} = []",
        ]
        if "list_alias" in m:
            body.append(f"seen{k} = outs{k}")
        body += [
            f"for i in range(batch{k}.shape[0]):",
            f"    outs{k}.append(per_example{k}(batch{k}[i]))",
        ]
        if "global_rebound" in m:
            body.append(f"    SCALE{k} = SCALE{k} + 1.0")
        body.append(f"ys{k} = jnp.stack(outs{k})")
        ret.append(f"ys{k}")
        if "list_alias" in m:
            ret.append(f"len(seen{k})")
    return top, body, ret


def render(parts: list[Part]) -> list[str]:
    top = [*HEADER, ""]
    body: list[str] = []
    globals_: list[str] = []
    ret: list[str] = []
    for p in parts:
        t, b, r = _part(p)
        top += t
        globals_ += [line for line in b if line.startswith("global ")]
        body += [line for line in b if not line.startswith("global ")]
        ret += r
    lines = [*top, "", "def main():"]
    lines += ["    " + g for g in globals_]
    lines += ["    " + line for line in body]
    lines.append("    return (" + ", ".join(ret) + (",)" if len(ret) == 1 else ")"))
    return lines


# --- running -------------------------------------------------------------------------


@dataclass
class Outcome:
    name: str
    parts: list[Part]
    fixed: bool = False
    rules: list[str] = field(default_factory=list)
    failure: str | None = None  # value | crash | output | exception | non-idempotent | ...
    detail: str = ""
    code: str = ""
    new_code: str = ""


def _rewrite(code: str) -> tuple[str, list[str]]:
    from autoopt.api import optimize_source

    result = optimize_source(code, path="prog.py")
    return result.new_source, sorted({f.rule for f in result.applied})


def _judge(before: dict, after: dict) -> tuple[str | None, str]:
    from tests.hazards.test_hazards import compare, compare_stdout

    if before["ok"] != after["ok"]:
        kind = "crash" if before["ok"] else "value"
        return kind, f"{before.get('error', 'ok')} -> {after.get('error', 'ok')}"
    if not before["ok"]:
        a, b = before["error"].split(":")[0], after["error"].split(":")[0]
        if a != b:
            return "exception", f"{a} -> {b}"
    else:
        diff = compare(before["value"], after["value"])
        if diff:
            return "value", diff
    if "stdout" in before and "stdout" in after:
        diff = compare_stdout(before["stdout"], after["stdout"])
        if diff:
            return "output", diff
    return None, ""


def check_codes(
    programs: dict[str, str], execute: bool = True
) -> dict[str, tuple[bool, list[str], str | None, str, str]]:
    """name -> (fixed, rules, failure kind or None, detail, rewritten code)."""
    results: dict[str, tuple] = {}
    to_run: dict[str, str] = {}
    for name, code in programs.items():
        try:
            new, rules = _rewrite(code)
        except Exception as exc:
            results[name] = (False, [], "rewrite-error", f"{type(exc).__name__}: {exc}", "")
            continue
        idem = None
        try:
            again, again_rules = _rewrite(new)
            if again != new:
                idem = "second rewrite applied " + ", ".join(again_rules)
        except Exception as exc:
            idem = f"second rewrite raised {type(exc).__name__}: {exc}"
        results[name] = (
            new != code,
            rules,
            "non-idempotent" if idem else None,
            idem or "",
            new,
        )
        if new != code:
            to_run[f"{name}_a"] = code
            to_run[f"{name}_b"] = new
    if to_run and execute:
        records = run_codes(to_run)
        for name, (fixed, rules, _, _, new) in list(results.items()):
            if fixed and f"{name}_a" in records:
                kind, detail = _judge(records[f"{name}_a"], records[f"{name}_b"])
                if kind:  # a changed result outranks non-idempotence
                    results[name] = (fixed, rules, kind, detail, new)
    return results


def _fails(program: Program, kind: str) -> bool:
    code = program.code()
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    got = check_codes({program.name: code}, execute=kind != "non-idempotent")[program.name]
    return got[2] == kind


def shrink(program: Program, kind: str) -> Program:
    """Drop mutations, then parts, then lines, one at a time while `kind` persists."""
    changed = True
    while changed:
        changed = False
        for i, part in enumerate(program.parts):
            for m in sorted(part.mutations):
                parts = list(program.parts)
                parts[i] = Part(part.skeleton, part.k, part.n, part.mutations - {m})
                cand = Program(program.name, parts)
                if _fails(cand, kind):
                    program, changed = cand, True
                    break
        if len(program.parts) > 1:
            for i in range(len(program.parts)):
                cand = Program(program.name, program.parts[:i] + program.parts[i + 1 :])
                if _fails(cand, kind):
                    program, changed = cand, True
                    break
    lines = render(program.parts)
    for i in range(len(lines)):
        if not lines[i].strip() or lines[i].lstrip().startswith(("import", "def main", "return (")):
            continue
        cand = Program(program.name, program.parts, program.drop_lines | {i})
        if _fails(cand, kind):
            program = cand
    return program


def worker(seed: int, indices: list[int], out: str | None, do_shrink: bool) -> list[Outcome]:
    os.environ["JAX_PLATFORMS"] = "cpu"
    for key in ("XLA_FLAGS", "JAX_ENABLE_X64"):
        os.environ.pop(key, None)
    import jax  # noqa: F401  imported once, no backend; each child starts its own

    outcomes = []
    batch = 50  # programs per forked child (fuzz_runner.py): two runs each
    for start in range(0, len(indices), batch):
        progs = {p.name: p for p in (generate(seed, i) for i in indices[start : start + batch])}
        results = check_codes({n: p.code() for n, p in progs.items()})
        for name, (fixed, rules, kind, detail, new) in results.items():
            prog = progs[name]
            o = Outcome(name, prog.parts, fixed, rules)
            o.failure, o.detail, o.code, o.new_code = kind, detail, prog.code(), new
            if kind and do_shrink:
                small = shrink(prog, kind)
                o.code = small.code()
                o.new_code = check_codes({name: o.code}, execute=False)[name][4]
            if kind and out:
                path = Path(out)
                path.mkdir(parents=True, exist_ok=True)
                header = f"# fuzz failure: {kind}: {detail}\n# seed {seed}, {name}\n"
                (path / f"{name}.py").write_text(header + o.code)
            outcomes.append(o)
    return outcomes


def run(seed: int, count: int, jobs: int, out: str | None, do_shrink: bool = True) -> list[Outcome]:
    chunks = [list(range(j, count, jobs)) for j in range(jobs)]
    if jobs == 1:
        return worker(seed, chunks[0], out, do_shrink)
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=ctx) as pool:
        futures = [pool.submit(worker, seed, c, out, do_shrink) for c in chunks if c]
        outcomes = [o for f in futures for o in f.result()]
    return sorted(outcomes, key=lambda o: o.name)


def summary(outcomes: list[Outcome], seconds: float) -> dict:
    """The run's figures: programs, safe fixes, rules, skeletons, hazard classes, failures."""
    rules, skeletons, mutations, classes, fragments = (Counter() for _ in range(5))
    for o in outcomes:
        rules.update(o.rules)
        for part in o.parts:
            if part.fragment:
                key = f"{fragment_class(part.fragment)} {'hazard' if part.hazard else 'benign'}"
                classes[key] += 1
                classes[f"{key} fixed"] += o.fixed
                fragments[part.label] += 1
            else:
                skeletons[part.skeleton] += 1
                mutations.update(part.mutations)
    failures = Counter(o.failure for o in outcomes if o.failure)
    return {
        "programs": len(outcomes),
        "safe_fixed_programs": sum(o.fixed for o in outcomes),
        "rules": dict(sorted(rules.items())),
        "hazard_classes": dict(sorted(classes.items())),
        "fragments": dict(sorted(fragments.items())),
        "skeletons": dict(sorted(skeletons.items())),
        "mutations": dict(sorted(mutations.items())),
        "failures": dict(sorted(failures.items())),
        "non_idempotent": failures.get("non-idempotent", 0),
        "seconds": round(seconds, 1),
        "failed": [
            {"name": o.name, "kind": o.failure, "detail": o.detail, "code": o.code}
            for o in outcomes
            if o.failure
        ],
    }


def table(figures: dict) -> str:
    """`summary` as a text table, then each failing program."""
    lines = [
        f"programs             {figures['programs']}",
        f"safe-fixed programs  {figures['safe_fixed_programs']}",
        f"failures             {sum(figures['failures'].values())} {figures['failures']}",
        f"non-idempotent       {figures['non_idempotent']}",
        f"wall time (s)        {figures['seconds']}",
        "programs each rule fixed:",
    ]
    lines += [f"  {rule:8} {count:6}" for rule, count in figures["rules"].items()]
    lines.append("hazard classes: fragments rendered (in a safe-fixed program)")
    got = figures["hazard_classes"]
    for cls in CLASSES:
        h, hf = got.get(f"{cls} hazard", 0), got.get(f"{cls} hazard fixed", 0)
        b, bf = got.get(f"{cls} benign", 0), got.get(f"{cls} benign fixed", 0)
        lines.append(f"  {cls:14} hazard {h:5} ({hf:5})   benign twin {b:5} ({bf:5})")
    lines.append("skeletons: " + ", ".join(f"{k} {v}" for k, v in figures["skeletons"].items()))
    lines.append("mutations: " + ", ".join(f"{k} {v}" for k, v in figures["mutations"].items()))
    for bad in figures["failed"]:
        lines += [f"--- {bad['name']}: {bad['kind']}: {bad['detail']}", bad["code"]]
    return "\n".join(lines)


def report(outcomes: list[Outcome]) -> str:
    """`table` of `outcomes`, for a test's message."""
    return table(summary(outcomes, 0.0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=None, help="folder for the failing programs")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--json", default=None, help="also write the summary as JSON here")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    outcomes = run(args.seed, args.count, args.jobs, args.out, not args.no_shrink)
    figures = summary(outcomes, time.perf_counter() - start)
    print(table(figures))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 1 if any(o.failure for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
