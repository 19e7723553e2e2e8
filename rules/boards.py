"""Square names and side labels shared by the board games (Mak-yek, Northcott).

Standard library only; no game imports another, both import this.

Squares are named as on a chess board: file letter ``a``..``h`` then the 1-based rank
(``"c4"``); files and ranks are 0-based inside the engines. A board game's sides are seats
0 and 1; the colours are only labels, the same in every board game's state (``colors``).
"""

from __future__ import annotations

from typing import Any

FILES = "abcdefgh"
#: seat -> colour label, as the states show it in ``colors`` (DESIGN 4.5)
COLORS = ("white", "black")


def square_name(file: int, rank: int) -> str:
    """``(0, 0)`` -> ``"a1"``: file and rank are 0-based."""
    return f"{FILES[file]}{rank + 1}"


def parse_square(text: Any, ranks: int = 8, files: int = 8) -> tuple[int, int] | None:
    """``"c4"`` -> ``(2, 3)`` (0-based file, rank); ``None`` for anything else or off a board of
    ``files`` x ``ranks`` (at most 8 files, at most 99 ranks)."""
    if not isinstance(text, str) or not 2 <= len(text) <= 3:
        return None
    file = FILES.find(text[0])
    digits = text[1:]
    if not 0 <= file < files or not all(c in "0123456789" for c in digits) or digits[0] == "0":
        return None
    rank = int(digits) - 1
    return (file, rank) if rank < ranks else None
