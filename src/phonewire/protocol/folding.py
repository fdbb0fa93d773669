"""Text as a person compares it: what ``label=`` and ``text=`` selectors match on (agent/selectors.py) and what the
web phone's ``find`` looks for off screen (scroll_plan.js folds the page's text with these same characters).

Pure: no I/O.
"""

from __future__ import annotations

from typing import Final

#: Quote marks: dropped wherever they are (``Deselect file "Sums.ipynb"`` reads as ``Deselect file Sums.ipynb``).
QUOTE_MARKS: Final = "\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e"
#: Punctuation stripped from both ends (``Action:`` reads as ``Action``; ``Save changes…`` as ``Save changes``).
EDGE_PUNCTUATION: Final = ".,:;!?\u2026*\u00b7\u2022\u2013\u2014-()[]{}<>|/\\\uff1a"
_DROP_QUOTES: Final = str.maketrans("", "", QUOTE_MARKS)


def fold(text: object) -> str:
    """``text`` as a person compares it: lower case, runs of whitespace one space, quote marks dropped, punctuation
    stripped from both ends (``"Action:"`` → ``action``; ``Deselect file "Sums.ipynb"`` → ``deselect file
    sums.ipynb``).  Text that is nothing but punctuation (``+``, ``…``) is kept as it is, lower-cased."""
    plain = " ".join(str(text).split()).lower()
    core = " ".join(plain.translate(_DROP_QUOTES).strip(EDGE_PUNCTUATION + " ").split())
    return core or plain
