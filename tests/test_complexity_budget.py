"""Complexity has a budget per function that only goes down (issue 26, item 7).

Ruff's complexity rules — C901 (McCabe complexity over 10), PLR0912 (more than 12 branches), PLR0915 (more than 50
statements) — are on for src, tests and bench. The functions that were over a limit when the rules were switched on
are listed in ``complexity_budget.json`` with their figure; ruff skips those files (``per-file-ignores`` in
pyproject.toml), and this test holds each of their functions to its figure instead:

* a function over a limit that the budget does not list fails (split it, or it is new and must not be complex);
* a listed function over its figure fails (the budget never goes up);
* a listed function now under its figure, or no longer over the limit, fails until the budget is lowered to match
  (``python tests/test_complexity_budget.py --lower`` rewrites it, and refuses to raise any figure).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET = Path(__file__).resolve().with_name("complexity_budget.json")
RULES = ("C901", "PLR0912", "PLR0915")
_FIGURE = re.compile(r"\((\d+) > \d+\)")
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)")

Figures = dict[str, list[int]]  # "path::function rule" → figures, highest first (a name may repeat in a file)


def measure() -> Figures:
    """Every function over a limit, by ruff itself (the project's limits are ruff's defaults; noqa ignored)."""
    ruff = Path(sys.executable).with_name("ruff")
    proc = subprocess.run(
        [str(ruff), "check", "--isolated", "--select", ",".join(RULES), "--ignore-noqa", "--output-format", "json",
         "--exit-zero", "src", "tests", "bench"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    out: Figures = {}
    for finding in json.loads(proc.stdout):
        path = Path(finding["filename"]).resolve().relative_to(ROOT)
        line = (ROOT / path).read_text(encoding="utf-8").splitlines()[finding["location"]["row"] - 1]
        name = m[1] if (m := _DEF.match(line)) else f"line {finding['location']['row']}"
        figure = _FIGURE.search(finding["message"])
        assert figure is not None, finding["message"]
        out.setdefault(f"{path}::{name} {finding['code']}", []).append(int(figure[1]))
    return {k: sorted(v, reverse=True) for k, v in sorted(out.items())}


def budget() -> Figures:
    data: Figures = json.loads(BUDGET.read_text(encoding="utf-8"))
    return data


def test_no_function_is_over_its_budget_and_the_budget_matches_the_code() -> None:
    now, allowed = measure(), budget()
    new = {k: v for k, v in now.items() if k not in allowed}
    over = {k: (v, allowed[k]) for k, v in now.items() if k in allowed and (len(v) > len(allowed[k]) or any(
        a > b for a, b in zip(v, allowed[k], strict=False)))}  # fmt: skip
    assert new == {}, "over a complexity limit and not in the budget: split these functions"
    assert over == {}, "over their budget (the budget never goes up): split these functions"
    assert now == allowed, "simpler than the budget: lower it (python tests/test_complexity_budget.py --lower)"


def test_ruff_skips_only_the_files_the_budget_lists() -> None:
    """The per-file-ignores that hand these rules to this test name exactly the budget's files."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ignores = config["tool"]["ruff"]["lint"]["per-file-ignores"]
    handed = {path for path, rules in ignores.items() if set(rules) & set(RULES)}
    assert handed == {key.split("::")[0] for key in budget()}


def dumps(figures: Figures) -> str:
    """One entry a line, so a diff shows which function got simpler."""
    return "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in figures.items()) + "\n}\n"


def lower() -> int:
    now, allowed = measure(), budget()
    raised = {k: v for k, v in now.items() if k not in allowed or v > allowed[k]}
    if raised:
        print(f"refusing to raise the budget: {raised}", file=sys.stderr)
        return 1
    BUDGET.write_text(dumps(now), encoding="utf-8")
    print(f"budget lowered: {len(allowed)} → {len(now)} entries")
    return 0


if __name__ == "__main__":
    raise SystemExit(lower() if sys.argv[1:] == ["--lower"] else 2)
