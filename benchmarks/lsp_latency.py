"""Language server latency on a 2,000-line JAX module, incremental and full side by side.

Starts `python -m autoopt.frontends.lsp` twice, as users get it (incremental reparse) and
with `AUTOOPT_LSP_INCREMENTAL=0` (the whole text parsed and analysed afresh on every
change), opens a generated module in each, then measures (1) change -> publishDiagnostics
for that version, over single-line edits, and (2) textDocument/codeAction and
codeAction/resolve on a finding. Prints median, 90th percentile and spread in
milliseconds, and the ratio of the medians; `--json` prints them as JSON.

    python benchmarks/lsp_latency.py [--lines 2000] [--edits 40] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

URI = "file:///tmp/autoopt-bench/model.py"

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"

#: A jitted layer, a Python helper and a plain (rarely called) array function: no findings.
BLOCK = """

SCALE_{i} = 0.5


@jax.jit
def layer_{i}(params, x):
    h = jnp.dot(x, params["w"]) + params["b"]
    return jax.nn.gelu(h) * SCALE_{i}


def init_{i}(key, n_in, n_out):
    k1, k2 = jax.random.split(key)
    w = jax.random.normal(k1, (n_in, n_out)) / np.sqrt(n_in)
    return {{"w": w, "b": jnp.zeros(n_out)}}


def describe_{i}(params):
    shapes = {{name: tuple(value.shape) for name, value in params.items()}}
    return ", ".join(f"{{k}}={{v}}" for k, v in sorted(shapes.items()))
"""

#: One missing-jit finding every `FINDING_EVERY` blocks.
FINDING = """

def step_{i}(u, alpha):
    lap = jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1)
    return u + alpha * lap


def simulate_{i}(u):
    for _ in range(100):
        u = step_{i}(u, 0.1)
    return u
"""
FINDING_EVERY = 10


def module(lines: int) -> str:
    """A JAX module of about `lines` lines with findings (AO101, AO201) every ten blocks,
    whose `main` runs the simulations (the program's eager entry)."""
    parts, i, simulated = [HEADER], 0, []
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(BLOCK.format(i=i))
        if i % FINDING_EVERY == 0:
            parts.append(FINDING.format(i=i))
            simulated.append(f"    u = simulate_{i}(u)\n")
        i += 1
    return "".join([*parts, "\n\ndef main():\n    u = jnp.zeros(64)\n", *simulated])


class Client(LanguageClient):
    """Records when diagnostics for each document version arrive."""

    def __init__(self) -> None:
        super().__init__("autoopt-bench", "1")
        self.arrived: dict[int, tuple[float, list[lsp.Diagnostic]]] = {}

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: lsp.PublishDiagnosticsParams) -> None:
            self.arrived[params.version or 0] = (time.perf_counter(), params.diagnostics)


async def until(check, timeout: float = 300.0) -> None:
    deadline = time.perf_counter() + timeout
    while not check():
        if time.perf_counter() > deadline:
            raise TimeoutError("no diagnostics")
        await asyncio.sleep(0.001)


def edit(version: int, line: int) -> lsp.DidChangeTextDocumentParams:
    """Replace `SCALE_k = ...` on `line` with a new value (a one-line incremental change)."""
    change = lsp.TextDocumentContentChangePartial(
        range=lsp.Range(lsp.Position(line, 0), lsp.Position(line + 1, 0)),
        text=f"SCALE_{version} = {version / 100}\n",
    )
    return lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version, URI), [change]
    )


async def diagnostics_latency(client: Client, text: str, edits: int) -> list[float]:
    lines = text.splitlines()
    scale_lines = [n for n, line in enumerate(lines) if line.startswith("SCALE_")]
    times = []
    for version in range(2, edits + 2):
        line = scale_lines[version % len(scale_lines)]
        sent = time.perf_counter()
        client.text_document_did_change(edit(version, line))
        await until(lambda v=version: v in client.arrived)
        times.append(client.arrived[version][0] - sent)
    return times


async def action_latency(client: Client, line: int, repeats: int) -> tuple[list, list]:
    params = lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(URI),
        lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)),
        lsp.CodeActionContext(diagnostics=[]),
    )
    listed, resolved = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        actions = await client.text_document_code_action_async(params)
        listed.append(time.perf_counter() - start)
        start = time.perf_counter()
        action = await client.code_action_resolve_async(actions[0])
        resolved.append(time.perf_counter() - start)
        assert action.edit is not None
    return listed, resolved


def summary(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    p90 = statistics.quantiles(ms, n=10, method="inclusive")[-1] if len(ms) > 1 else ms[0]
    return {"median_ms": round(statistics.median(ms), 1), "p90_ms": round(p90, 1),
            "min_ms": round(ms[0], 1), "max_ms": round(ms[-1], 1), "n": len(ms)}  # fmt: skip


async def measure(lines: int, edits: int, incremental: bool) -> dict[str, object]:
    text = module(lines)
    client = Client()
    env = {**os.environ, "AUTOOPT_LSP_INCREMENTAL": "1" if incremental else "0"}
    await client.start_io(sys.executable, "-m", "autoopt.frontends.lsp", env=env)
    caps = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(
            code_action=lsp.CodeActionClientCapabilities(
                resolve_support=lsp.ClientCodeActionResolveOptions(properties=["edit"])
            )
        )
    )
    await client.initialize_async(lsp.InitializeParams(capabilities=caps))
    client.initialized(lsp.InitializedParams())
    opened = time.perf_counter()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(URI, "python", 1, text))
    )
    await until(lambda: 1 in client.arrived)
    first = client.arrived[1][0] - opened
    findings = client.arrived[1][1]
    change = await diagnostics_latency(client, text, edits)
    listed, resolved = await action_latency(client, findings[0].range.start.line, edits)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {
        "lines": text.count("\n"),
        "findings": len(findings),
        "open_ms": round(first * 1000, 1),
        "diagnostics_after_change": summary(change),
        "code_action": summary(listed),
        "code_action_resolve": summary(resolved),
    }


async def side_by_side(lines: int, edits: int) -> dict[str, object]:
    """Full, then incremental, in one run on the same machine."""
    full = await measure(lines, edits, incremental=False)
    incremental = await measure(lines, edits, incremental=True)
    ratio = (
        full["diagnostics_after_change"]["median_ms"]  # type: ignore[index]
        / incremental["diagnostics_after_change"]["median_ms"]  # type: ignore[index]
    )
    return {"full": full, "incremental": incremental, "median_ratio": round(ratio, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(side_by_side(args.lines, args.edits))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for mode in ("full", "incremental"):
        run = result[mode]
        print(f"{mode}: {run['lines']} lines, {run['findings']} findings, open {run['open_ms']} ms")
        for key in ("diagnostics_after_change", "code_action", "code_action_resolve"):
            print(f"  {key:26s} {run[key]}")
    print(f"median ratio, full / incremental: {result['median_ratio']}")


if __name__ == "__main__":
    main()
