"""Every citation in code and docs points to a file in the repository (issue 26, item 6).

Two rules, over every text file of src/, tests/, bench/, scripts/, docs/ and the README:
* nothing cites a document the repository does not hold — a decision record or work plan of the systems
  phonewire studied, or a design file outside the tree (the project's own records are docs/design/);
* every repository path a file names (``docs/…md``, ``tests/…py``, ``bench/…py``, ``src/…``, ``scripts/…``), and
  every relative link of a Markdown file, exists.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("src", "tests", "bench", "scripts", "docs")
SUFFIXES = {".py", ".md", ".js", ".sh", ".c", ".toml", ".txt"}
#: Citations of documents that are not in the repository (spelled in pieces, so this file does not cite them).
FOREIGN = [
    re.compile("ADR" + r"[ -]?0*5\b"),
    re.compile(r"\bOPT" + r" \d"),
    re.compile("DESIGN" + r"\.md"),
    re.compile("optimi[sz]ation" + r" plan", re.IGNORECASE),
]
PATH = re.compile(r"(?<![\w./-])((?:docs|tests|bench|src|scripts)/[\w./-]*\w\.(?:md|py|js|sh|c|json|xml|html))(?!\w)")
#: Paths written as examples of a pattern, not citations (``tests/x.py``, ``repro_X.py``).
PLACEHOLDER = re.compile(r"(?:^|/)[xX]\.\w+$|_X\.\w+$")
LINK = re.compile(r"\]\(([^)#:\s]+\.md)(?:#[^)]*)?\)")


def text_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for tree in TREES:
        for path in (ROOT / tree).rglob("*"):
            parts = set(path.relative_to(ROOT).parts)
            if parts & {"node_modules", "pyenv", "jupyenv", "__pycache__", "fixtures"} or path.suffix not in SUFFIXES:
                continue
            if path.is_file():
                files.append(path)
    return files


FILES = text_files()


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_project_has_its_own_decision_records() -> None:
    records = {p.name for p in (ROOT / "docs" / "design").glob("*.md")}
    assert {"README.md", "runner-lifecycle.md", "send-once-recovery.md", "view.md", "coordinates.md"} <= records


def test_no_citation_of_a_document_outside_the_repository() -> None:
    found = {}
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        cited = [m.group(0) for rx in FOREIGN for m in rx.finditer(text)]
        if cited:
            found[rel(path)] = cited
    assert found == {}, "cite a file in the repository instead (docs/design/ holds the project's records)"


def test_every_path_a_file_names_exists() -> None:
    missing = {}
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        gone = sorted({p for p in PATH.findall(text) if not (ROOT / p).exists() and not PLACEHOLDER.search(p)})
        if path.suffix == ".md":
            gone += sorted({link for link in LINK.findall(text) if not (path.parent / link).exists()})
        if gone:
            missing[rel(path)] = gone
    assert missing == {}
