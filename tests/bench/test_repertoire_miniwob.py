"""The phone's repertoire on MiniWoB++ (issue 24), through the CLI as an agent drives it (bench/bench_repertoire.py's
scripted agent: the CLI's view and its actions' diffs, nothing else): highlight-text and highlight-text-2 by
``select-text``, copy-paste and copy-paste-2 by ``select-text --all`` and the phone's copy and paste shortcuts,
text-editor (Quill) by selecting a word or everything and tapping the toolbar's named buttons and colour swatches.
The judge is the page's own reward (its Submit handler reads ``getSelection()``, the answer field, Quill's
contents).  The seeds cover each kind of text-editor task: a word styled, everything styled, a word coloured,
everything coloured.  The full figure (20 episodes a task) is the bench's; docs/miniwob-report.md has it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_repertoire as rep

pytestmark = [pytest.mark.realapp, pytest.mark.e2e]

SEEDS = {
    "highlight-text": ["repertoire-0"],
    "highlight-text-2": ["repertoire-0", "repertoire-1"],
    "copy-paste": ["repertoire-0", "repertoire-1"],  # the answer field below the text area, then above it
    "copy-paste-2": ["repertoire-0"],
    # a word styled, everything coloured, everything styled, a word coloured
    "text-editor": ["kind-0", "kind-2", "kind-3", "repertoire-3"],
}


def test_a_scripted_agent_solves_the_selection_clipboard_and_editor_tasks_through_the_cli() -> None:
    episodes = rep.run_seeds(SEEDS)
    assert [(e.task, e.seed) for e in episodes] == [(t, s) for t, seeds in SEEDS.items() for s in seeds]
    failed = [(e.task, e.seed, e.reward, e.note, e.instruction) for e in episodes if not (e.reward or 0) > 0]
    assert failed == []
    editor = [e.instruction for e in episodes if e.task == "text-editor"]
    assert any("give the text" in q and "style" in q for q in editor)
    assert any("give everything the style" in q for q in editor)
    assert any("give the text" in q and "the color" in q for q in editor)
    assert any("make everything the color" in q for q in editor)
    # each episode is a look, START, and the task's one or two turns
    assert all(e.calls <= 4 for e in episodes), [(e.task, e.calls) for e in episodes]
