"""The peer for the full site build: Pelican building as many markdown pages, in the same run."""

from __future__ import annotations

import contextlib
import io
import logging
import random
import tempfile
import time
from pathlib import Path

WORDS = ("square", "dice", "bank", "rent", "health", "card", "vote", "player", "week", "board",
         "money", "owner", "admin", "proposal", "token", "bonus", "fine", "end", "start", "turn")


def write_content(folder: Path, pages: int, seed: int = 7) -> None:
    """``pages`` markdown articles of about 2 KB each (a heading, paragraphs, a list, a table)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(pages):
        para = lambda: " ".join(rng.choice(WORDS) for _ in range(60))  # noqa: E731
        rows = "\n".join(f"| p{i:04d} | {rng.randint(0, 5000)} | {rng.randint(0, 10)} |" for i in range(12))
        (folder / f"page-{n:04d}.md").write_text(
            f"Title: Update {n}\nDate: 2026-01-{1 + n % 28:02d} 12:00\nCategory: updates\n\n"
            f"## What happened\n\n{para()}\n\n{para()}\n\n- {para()[:80]}\n- {para()[:80]}\n\n"
            f"| player | money | health |\n| --- | --- | --- |\n{rows}\n", encoding="utf-8")


def pelican_build(content: Path, output: Path) -> float:
    """Seconds for one Pelican build of ``content`` into ``output`` (in this process, no cache)."""
    from pelican import Pelican
    from pelican.settings import read_settings

    logging.getLogger("pelican").setLevel(logging.ERROR)
    settings = read_settings(None, override={
        "PATH": str(content), "OUTPUT_PATH": str(output), "SITEURL": "", "RELATIVE_URLS": True,
        "LOAD_CONTENT_CACHE": False, "CACHE_CONTENT": False, "DELETE_OUTPUT_DIRECTORY": True,
        "FEED_ALL_ATOM": None, "CATEGORY_FEED_ATOM": None, "TRANSLATION_FEED_ATOM": None,
        "AUTHOR_FEED_ATOM": None, "AUTHOR_FEED_RSS": None, "TIMEZONE": "UTC",
        "DEFAULT_LANG": "en", "SITENAME": "Peer", "MARKDOWN": {"extension_configs": {
            "markdown.extensions.tables": {}, "markdown.extensions.extra": {}}},
    })
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):  # its "Done: ..." line
        Pelican(settings).run()
    return time.perf_counter() - started


def pelican_available() -> bool:
    try:
        import pelican  # noqa: F401
    except ImportError:
        return False
    return True


class PelicanPeer:
    """A content folder of ``pages`` markdown pages, built again on each :meth:`run`."""

    def __init__(self, pages: int) -> None:
        self.pages = pages
        self._tmp = tempfile.TemporaryDirectory(prefix="nomopoly-pelican-")
        self.content = Path(self._tmp.name) / "content"
        write_content(self.content, pages)

    def run(self) -> float:
        return pelican_build(self.content, Path(self._tmp.name) / "output")

    def close(self) -> None:
        self._tmp.cleanup()
