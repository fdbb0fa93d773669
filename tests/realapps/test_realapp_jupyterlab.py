"""JupyterLab 4.5 (from the Python package index) on the web phone, through the CLI as an agent drives it (issue 24:
"Jupyter's menus do nothing when tapped"): File > New > Notebook by taps, the kernel dialog answered, the notebook
renamed through File > Rename Notebook… and its dialog's field, a folder made with the file browser's button.  Each
step is checked where the app keeps its work, the directory it serves; each reply is checked for what it says.

Lumino's submenu items have no role (a bare <li aria-haspopup tabindex=0>): the view once read them as Cell "New".
JupyterLab 4.6 acts on pointer events in its menus, and a finger's tap sends no pointermove, so no item answers a
tap on any phone (jupyterlab/jupyterlab#19124); the keys do (`press arrowdown`, `press enter`).  4.5 is pinned here;
docs/realapps-findings-5.md has the rest."""

from __future__ import annotations

import time
from pathlib import Path

from realapps_env import Cli, CliResult, JupyterLab


def ok(result: CliResult) -> str:
    assert result.code == 0, (result.out, result.err)
    assert "Traceback" not in result.out + result.err
    return result.out


def appears(path: Path, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def open_lab(cli: Cli, lab: JupyterLab) -> None:
    ok(cli("url", lab.url))
    ok(cli("wait", 'role=Button label=="New Folder"', "--timeout", "30000"))


def test_a_notebook_made_and_renamed_through_the_menus_by_taps(cli: Cli, jupyterlab: JupyterLab) -> None:
    open_lab(cli, jupyterlab)
    menu = ok(cli("tap", "role=MenuItem label==File"))
    assert 'MenuItem "New"' in menu, menu  # the submenu item, once text
    sub = ok(cli("tap", "role=MenuItem label==New"))
    assert 'MenuItem "Notebook"' in sub, sub
    dialog = ok(cli("tap", "role=MenuItem label==Notebook"))
    assert appears(jupyterlab.root / "Untitled.ipynb"), dialog
    assert 'Tab "Untitled.ipynb"' in dialog, dialog  # the reply shows the notebook it opened
    # its kernel dialog comes after a chain of requests (the file made, the notebook opened, the kernel specs read)
    # that has gaps with nothing on its way: on a loaded machine the reply can be still in one of them, so an agent
    # waits for it as SKILL.md says (a fresh-clone CI saw the reply without it, once in four runs)
    ok(cli("wait", 'role=Button label=="No Kernel"'))
    ok(cli("tap", 'role=Button label=="No Kernel"'))
    ok(cli("wait", 'role=Button label=="No Kernel"', "--gone"))
    menu = ok(cli("tap", "role=MenuItem label==File"))
    assert 'MenuItem "Rename Notebook…"' in menu, menu
    rename = ok(cli("tap", 'role=MenuItem label=="Rename Notebook…"'))
    # the dialog: its field focused with the name's stem selected, the keyboard up; one button of that name (its
    # header, a React root, is text)
    assert 'TextField value="Untitled.ipynb" [focused,selected text="Untitled"]' in rename, rename
    assert rename.count('Button "Rename File"') == 1, rename
    ok(cli("fill", "role=TextField focused=true", "Sums.ipynb"))
    ok(cli("tap", 'role=Button label=="Rename File"'))
    assert appears(jupyterlab.root / "Sums.ipynb")
    assert not (jupyterlab.root / "Untitled.ipynb").exists()
    assert 'Tab "Sums.ipynb"' in ok(cli("snapshot", "-i"))


def test_a_folder_made_with_the_file_browsers_button(cli: Cli, jupyterlab: JupyterLab) -> None:
    open_lab(cli, jupyterlab)
    made = ok(cli("tap", 'role=Button label=="New Folder"'))
    assert appears(jupyterlab.root / "Untitled Folder"), made
    # the launcher's cards read once each, their logos' alt text the same words as their labels
    ok(cli("wait", "role=Heading label==Console", "--timeout", "30000"))  # (the launcher draws after the kernels load)
    view = ok(cli("snapshot", "-i"))
    assert view.count('Button "Python 3 (ipykernel)"') == 2, view
    assert "(ipykernel) Python 3" not in view, view
