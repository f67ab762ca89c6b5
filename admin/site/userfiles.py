"""What a build wrote, and what the user put beside it: a rebuild replaces only the former.

The build writes a whole new folder and swaps it in (:mod:`admin.site.build`). Its manifest lists
every file it wrote: the pages (``pages``) and the rest (``other``: static files, records, the
cache). Anything else in a folder built before (``.git/``, ``CNAME``, a ``robots.txt`` of the
user's) was put there by someone else, and goes into the new folder before the swap: hard-linked
(no copy of a big ``.git``; the old folder is then removed, the new one holds the same files), or
copied where a link cannot be made. The old folder is untouched until the swap, so a build killed
at any point loses nothing of the user's.

A site built by an older version has no ``other`` list: what counts as the build's there is its
pages, what the new build writes, and the build's own folders (``static/``, ``records/``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

#: the folders only the build writes (for a site whose manifest does not list its other files)
_BUILD_FOLDERS = ("static", "records")


def written_files(folder: Path, pages: dict[str, Any]) -> list[str]:
    """Every file under ``folder`` that is not a page, as relative POSIX paths, sorted: the
    manifest's ``other`` list (what the build wrote besides its pages)."""
    out = []
    for top, dirs, files in os.walk(folder):
        rel = Path(top).relative_to(folder)
        for name in files:
            path = (rel / name).as_posix()
            if path not in pages:
                out.append(path)
    return sorted(out)


def users_files(old: Path, manifest_name: str, manifest: Any) -> list[str]:
    """The files and folders in ``old`` (a site built before, whose manifest ``manifest_name``
    read as ``manifest``: :func:`admin.site.writer.read_manifest`) that its build did not write, as relative POSIX paths (a folder wholly
    the user's is one entry); [] when ``old`` holds no site."""
    if not isinstance(manifest, dict):
        return []
    pages, other = manifest.get("pages"), manifest.get("other")
    built = (set(pages) if isinstance(pages, dict) else set()) | {manifest_name}
    legacy = not isinstance(other, list)
    if isinstance(other, list):
        built |= {p for p in other if isinstance(p, str)}
    out: list[str] = []

    def visit(folder: Path, rel: str) -> None:
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                path = f"{rel}{entry.name}"
                if path in built or (legacy and path.split("/")[0] in _BUILD_FOLDERS):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    prefix = path + "/"
                    if any(b.startswith(prefix) for b in built):
                        visit(Path(entry.path), prefix)  # the build wrote into it: look inside
                        continue
                out.append(path)

    visit(old, "")
    return out


def carry_over(old: Path, new: Path, manifest_name: str, manifest: Any) -> list[str]:
    """Put into ``new`` (the build about to be swapped in) what the user added to ``old`` (whose
    manifest read as ``manifest``); a path the new build writes itself is the build's. Returns
    the paths carried over."""
    carried = []
    for path in users_files(old, manifest_name, manifest):
        source, target = old / path, new / path
        if os.path.lexists(target):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            os.symlink(os.readlink(source), target)
        elif source.is_dir():
            shutil.copytree(source, target, symlinks=True, copy_function=_link)
        else:
            _link(str(source), str(target))
        carried.append(path)
    return carried


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
