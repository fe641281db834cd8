"""Real code (issue 26): does autoopt find, and safely fix, what a person finds by reading?

Usage: python benchmarks/realcode.py --repos DIR [--mirror-root /work/.mirror] [--json PATH]

The cases file (benchmarks/realcode_cases.csv) lists sites in public JAX repositories,
labelled by hand before autoopt was run on them: repo (owner/name), commit, path, line
(`N`, or `CELL:N` in a notebook: the index of the cell in the notebook's `cells` list and
the line inside it, both as Jupyter shows them, the cell from 0), an optional end line,
rule, expectation (`real`: a correct, worthwhile win of that rule; `must-not`: a fix there
would be wrong; `nothing`: a fix would be correct but worthless), framework, an optional
`names` (argument names; see matching) and a one-line reason.

The script fetches nothing by itself. `--repos DIR` holds one checkout per repository,
named after the repository (`DIR/equinox` for patrick-kidger/equinox). With
`--mirror-root`, a checkout that is missing is written from a bare git directory under
it (`ROOT/owner+name/repo`, as the search tool's fetch leaves it) at the listed commit,
leaving out blobs the mirror lacks. A checkout that reports another commit (its `git
rev-parse HEAD` or `.realcode-commit`) is measured with a warning.

Each repository's labelled files are checked in one `python -m autoopt check --format
json` run from the repository root (this work tree on PYTHONPATH, cache off), so calls
into the repository's other files are followed. A finding matches a site when it has the
site's rule and its line lies in the site's lines (line to end) widened by WINDOW lines
on each side (a decorator above a `def`, a statement spread over lines); when the site
lists `names`, a finding must also mention one of them (for AO201: the argument donated).
Notebook sites are matched by cell and line in the cell, as autoopt reports them; a site
in a cell autoopt skips (IPython magics it cannot vouch for) cannot match and says so.
`--comment-magics` (a diagnostic) checks copies of the labelled files (and the `.py`
files beside them) in which every magic line is replaced by `pass  # <the line>`, so no
cell is skipped.

Reported, per framework and overall: real sites found (any matching finding), real sites
with a safe fix, must-not sites given a safe fix (target 0), nothing-to-do sites given a
safe fix (worthless), and every miss with the messages autoopt gave near the site.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).with_name("realcode_cases.csv")
WINDOW = 2
EXPECTS = ("real", "must-not", "nothing")
FRAMEWORKS = ("optax", "linen", "nnx", "equinox", "haiku", "plain")
MAGIC = re.compile(r"^(\s*)([%!].*)$", re.M)


@dataclass
class Site:
    """One hand-labelled site, and what autoopt said there."""

    repo: str
    commit: str
    path: str
    line: str
    end: str
    rule: str
    expect: str
    framework: str
    names: str
    reason: str
    span: tuple[int, int] | None = None  # lines as autoopt reports them; None: not analysed
    cell: int | None = None  # a notebook's cell as autoopt reports it (from 1)
    unmapped: str = ""
    findings: list[dict] = field(default_factory=list)  # matching findings
    nearby: list[dict] = field(default_factory=list)  # other findings in the window

    @property
    def checkout(self) -> str:
        """The checkout's folder name: the repository's name."""
        return self.repo.split("/")[1]

    @property
    def found(self) -> bool:
        return bool(self.findings)

    @property
    def safe(self) -> bool:
        return any(f["fix"] == "safe" for f in self.findings)


def load_cases(path: Path) -> list[Site]:
    """The sites of the cases file, checked for known expectations and frameworks."""
    with path.open(newline="") as handle:
        sites = [Site(**row) for row in csv.DictReader(handle)]
    for site in sites:
        if site.expect not in EXPECTS or site.framework not in FRAMEWORKS:
            raise SystemExit(f"{path}: bad expectation or framework in {site}")
    return sites


def prepare_checkout(repos: Path, repo: str, commit: str, mirror_root: Path | None) -> Path:
    """The checkout of `repo`, written from the mirror at `commit` when it is missing."""
    dest = repos / repo.split("/")[1]
    if not dest.exists():
        if mirror_root is None:
            raise SystemExit(f"{dest} is missing; pass --mirror-root or check it out")
        extract(_git_dir(mirror_root, repo), commit, dest)
    have = checkout_commit(dest)
    if have and have != commit:
        print(f"warning: {dest} is at {have}, the cases were labelled at {commit}", file=sys.stderr)
    return dest


def _git_dir(mirror_root: Path, repo: str) -> Path:
    base = mirror_root / repo.replace("/", "+")
    git_dir = base / "repo" if (base / "repo").is_dir() else base
    if not git_dir.is_dir():
        raise SystemExit(f"no mirror of {repo} under {mirror_root}")
    return git_dir


def extract(git_dir: Path, commit: str, dest: Path) -> None:
    """Write the tree of `commit` to `dest`, without the blobs the mirror lacks."""
    git = ["git", f"--git-dir={git_dir}"]
    tree = subprocess.run([*git, "ls-tree", "-r", commit], capture_output=True, text=True)
    if tree.returncode:
        raise SystemExit(f"{git_dir}: {tree.stderr.strip()}")
    blobs = [line.split(None, 3) for line in tree.stdout.splitlines()]
    shas = "\n".join(b[2] for b in blobs if b[1] == "blob")
    check = subprocess.run(
        [*git, "cat-file", "--batch-check"], input=shas, capture_output=True, text=True
    )
    missing = {line.split()[0] for line in check.stdout.splitlines() if line.endswith("missing")}
    excludes = [f":(exclude,literal){b[3]}" for b in blobs if b[2] in missing]
    dest.mkdir(parents=True)
    command = [*git, "archive", commit, "--", ".", *excludes]
    archive = subprocess.Popen(command, stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(dest)], stdin=archive.stdout, check=True)
    archive.wait()
    (dest / ".realcode-commit").write_text(commit + "\n")


def checkout_commit(dest: Path) -> str:
    """The commit a checkout says it holds ('' when it does not say)."""
    marker = dest / ".realcode-commit"
    if marker.exists():
        return marker.read_text().strip()
    head = subprocess.run(
        ["git", "-C", str(dest), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    return head.stdout.strip() if head.returncode == 0 else ""


def shadow(checkout: Path, paths: list[str], dest: Path) -> Path:
    """Copies of `paths` (and the .py files beside them) with IPython magics commented out."""
    folders = {(checkout / p).parent for p in paths}
    files = {f for d in folders for f in d.glob("*.py")} | {checkout / p for p in paths}
    for source in files:
        target = dest / source.relative_to(checkout)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix != ".ipynb":
            shutil.copyfile(source, target)
            continue
        document = json.loads(source.read_bytes())
        for cell in document["cells"]:
            if cell.get("cell_type") == "code":
                text = (
                    "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                )
                text = MAGIC.sub(r"\1pass  # \2", text)
                cell["source"] = text.splitlines(keepends=True)
        target.write_text(json.dumps(document))
    return dest


def map_lines(site: Site, checkout: Path) -> None:
    """Set the site's span as autoopt reports positions (notebooks: its cell, from 1, and
    lines in the cell), or why autoopt does not read it."""
    if ":" not in site.line:
        first = int(site.line)
        site.span = (first, int(site.end) if site.end else first)
        return
    if str(ROOT) not in sys.path:  # the notebook reader of the autoopt being measured
        sys.path.insert(0, str(ROOT))
    from autoopt.workspace.notebook import parse_notebook

    path = checkout / site.path
    analysed = parse_notebook(path, path.read_bytes(), site.path).cells
    (cell, first), (last_cell, last) = (
        (int(c), int(n)) for c, n in (p.split(":") for p in (site.line, site.end or site.line))
    )
    if cell not in analysed or last_cell != cell:
        site.unmapped = "cell not analysed by autoopt (IPython magic or empty)"
        return
    site.cell, site.span = cell + 1, (first, last)


def run_autoopt(checkout: Path, paths: list[str], jobs: int) -> dict:
    """autoopt's JSON report for `paths` (relative to `checkout`), checked from there."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu"}
    command = [sys.executable, "-m", "autoopt", "check", "--format", "json", "--exit-zero"]
    command += ["--no-progress", "--no-cache", "--jobs", str(jobs), *paths]
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
    try:  # exit 2 with a JSON document: some files could not be read; they are listed
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"autoopt failed in {checkout}:\n{done.stderr[-2000:]}") from None


def match(site: Site, findings: list[dict]) -> None:
    """Attach the findings at the site: the site's rule (and names), and the others."""
    if site.span is None:
        return
    low, high = site.span[0] - WINDOW, site.span[1] + WINDOW
    names = [n for n in site.names.split(";") if n]
    for finding in findings:
        if Path(finding["path"]).as_posix() != site.path or not low <= finding["line"] <= high:
            continue
        if finding.get("cell") != site.cell:
            continue
        named = not names or any(n in finding["message"] for n in names)
        same = finding["rule"] == site.rule and named
        (site.findings if same else site.nearby).append(_brief(finding))


def _brief(finding: dict) -> dict:
    keys = ("rule", "line", "fix", "message")
    return {key: finding[key] for key in keys}


def measure(sites: list[Site], args: argparse.Namespace, scratch: Path) -> dict:
    """Run autoopt on every repository's labelled files and match findings to sites."""
    errors: list[dict] = []
    by_repo: dict[str, list[Site]] = defaultdict(list)
    for site in sites:
        by_repo[site.repo].append(site)
    for repo, group in sorted(by_repo.items()):
        checkout = prepare_checkout(args.repos, repo, group[0].commit, args.mirror_root)
        paths = sorted({s.path for s in group})
        if args.comment_magics:
            checkout = shadow(checkout, paths, scratch / group[0].checkout)
        for site in group:
            map_lines(site, checkout)
        report = run_autoopt(checkout, paths, args.jobs)
        errors += [{"repo": repo, **e} for e in report.get("errors", [])]
        for site in group:
            match(site, report["findings"])
    return {"errors": errors}


def tally(sites: list[Site]) -> dict[str, dict[str, int]]:
    """Counts per framework and overall."""
    table: dict[str, dict[str, int]] = {}
    for group in (*FRAMEWORKS, "all"):
        chosen = [s for s in sites if group in ("all", s.framework)]
        if not chosen:
            continue
        real = [s for s in chosen if s.expect == "real"]
        bad = [s for s in chosen if s.expect == "must-not"]
        idle = [s for s in chosen if s.expect == "nothing"]
        table[group] = {
            "real": len(real),
            "real_found": sum(s.found for s in real),
            "real_safe": sum(s.safe for s in real),
            "must_not": len(bad),
            "must_not_safe": sum(s.safe for s in bad),
            "must_not_found": sum(s.found for s in bad),
            "nothing": len(idle),
            "nothing_safe": sum(s.safe for s in idle),
        }
    return table


def rule_table(sites: list[Site]) -> str:
    """Real sites per rule: labelled, found, safe fix; and sites autoopt did not read."""
    rules = sorted({s.rule for s in sites if s.expect == "real"})
    rows = ["| rule | real | found | safe fix |", "|---|---|---|---|"]
    for rule in rules:
        real = [s for s in sites if s.expect == "real" and s.rule == rule]
        found, safe = sum(s.found for s in real), sum(s.safe for s in real)
        rows.append(f"| {rule} | {len(real)} | {found} | {safe} |")
    unread = [s for s in sites if s.unmapped]
    kinds = ", ".join(f"{e} {sum(s.expect == e for s in unread)}" for e in EXPECTS)
    rows.append(f"\nSites in cells autoopt does not read: {len(unread)} ({kinds}).")
    return "\n".join(rows)


def _pct(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.0f}%)" if whole else "-"


def markdown_table(table: dict[str, dict[str, int]]) -> str:
    """The per-framework table as markdown."""
    head = (
        "| framework | real | found | safe fix | must-not | safe fix (target 0) "
        "| nothing | safe fix (worthless) |\n|---|---|---|---|---|---|---|---|"
    )
    rows = [
        f"| {name} | {t['real']} | {_pct(t['real_found'], t['real'])} "
        f"| {_pct(t['real_safe'], t['real'])} | {t['must_not']} "
        f"| {t['must_not_safe']} | {t['nothing']} | {t['nothing_safe']} |"
        for name, t in table.items()
    ]
    return "\n".join([head, *rows])


def describe(site: Site) -> str:
    """One site and what autoopt said at it, for the lists of misses and wrong fixes."""
    where = f"{site.checkout}/{site.path}:{site.line} {site.rule} ({site.framework})"
    lines = [f"- {where}: {site.reason}"]
    if site.unmapped:
        lines.append(f"  - {site.unmapped}")
    for finding in site.findings:
        lines.append(f"  - {finding['rule']} [{finding['fix']}] {finding['message']}")
    if not site.findings and not site.unmapped:
        lines.append(f"  - no {site.rule} finding within {WINDOW} lines")
    for finding in site.nearby:
        lines.append(f"  - nearby {finding['rule']} [{finding['fix']}] {finding['message']}")
    return "\n".join(lines)


def report(sites: list[Site], table: dict, errors: list[dict]) -> str:
    """The whole markdown report: table, wrong and worthless fixes, misses, errors."""
    wrong = [s for s in sites if s.expect == "must-not" and s.safe]
    idle = [s for s in sites if s.expect == "nothing" and s.safe]
    missed = [s for s in sites if s.expect == "real" and not s.safe]
    parts = [markdown_table(table), "", rule_table(sites)]
    for title, chosen in (
        ("Must-not sites given a safe fix", wrong),
        ("Nothing-to-do sites given a safe fix", idle),
        ("Real sites without a safe fix", missed),
    ):
        parts.append(f"\n### {title} ({len(chosen)})\n")
        parts += [describe(s) for s in chosen] or ["none"]
    if errors:
        parts.append("\n### autoopt errors\n")
        parts += [f"- {e['repo']}: {e['path']}: {e['message']}" for e in errors]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", type=Path, required=True, help="one checkout per repo")
    parser.add_argument("--mirror-root", type=Path, help="bare git mirrors (owner+name/repo)")
    parser.add_argument("--cases", type=Path, default=CASES, help="the labelled sites (CSV)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--jobs", type=int, default=1, help="autoopt worker processes")
    parser.add_argument(
        "--comment-magics", action="store_true", help="diagnostic: check copies without magics"
    )
    args = parser.parse_args(argv)
    sites = load_cases(args.cases)
    args.repos.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="realcode-") as scratch:
        extra = measure(sites, args, Path(scratch))
    table = tally(sites)
    print(report(sites, table, extra["errors"]))
    if args.json:
        document = {
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "window": WINDOW,
            "comment_magics": args.comment_magics,
            "table": table,
            "sites": [asdict(s) for s in sites],
            **extra,
        }
        args.json.write_text(json.dumps(document, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
