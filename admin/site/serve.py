"""``nomopoly serve``: preview the site on 127.0.0.1, rebuilt whenever the game changes.

It builds the site, serves the built folder with :mod:`http.server`, and polls the modification
times of the files under ``state/``, ``rules_md/`` and the game's ``site_templates/`` (and
``nomopoly.toml``): when one changes, the site is rebuilt (incrementally) and swapped in, so the
next request sees it. A build that fails is reported and the previous site stays up. No new
dependency, no JavaScript: reload the page to see the change.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

from admin.engine.errors import NomopolyError
from admin.store.gamedir import GameDir
from admin.site.build import build
from admin.site.writer import BuildReport

WATCHED = ("state", "rules_md", "site_templates")
#: what the site never shows and that changes on its own: not worth a rebuild
IGNORED_PARTS = frozenset({"mail", "outbox", "ledger", "log"})


def snapshot(game: GameDir) -> dict[str, tuple[int, int]]:
    """path -> (mtime_ns, size) of every watched file."""
    out: dict[str, tuple[int, int]] = {}
    candidates = [game.settings_path]
    for name in WATCHED:
        folder = game.root / name
        if folder.is_dir():
            for dirpath, dirnames, filenames in os.walk(folder):
                dirnames[:] = sorted(d for d in dirnames
                                     if not d.startswith(".") and d not in IGNORED_PARTS)
                candidates += [Path(dirpath) / f for f in filenames if not f.startswith(".")]
    for path in candidates:
        try:
            st = path.stat()
        except OSError:
            continue
        out[str(path)] = (st.st_mtime_ns, st.st_size)
    return out


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site; a missing page gets the site's own 404 page; no request log."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # a preview: always the latest build
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class Preview:
    """The build, the server and the watcher; :func:`serve` runs one until interrupted."""

    def __init__(self, game: GameDir, *, host: str = "127.0.0.1", port: int = 8000,
                 out: Path | None = None, echo: Callable[[str], None] = print) -> None:
        self.game, self.host, self.port, self.echo = game, host, port, echo
        self.out = Path(out) if out is not None else game.root / "site"
        self.server: http.server.ThreadingHTTPServer | None = None
        self.seen: dict[str, tuple[int, int]] = {}
        self.builds = 0
        self.last: BuildReport | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host.decode() if isinstance(host, bytes) else host}:{port}/"

    def rebuild(self) -> bool:
        """Build now; on failure say why and keep serving the previous site."""
        self.seen = snapshot(self.game)
        try:
            self.last = build(self.game, self.out)
        except NomopolyError as exc:
            self.echo(f"build failed, still serving the previous site: {exc}")
            return False
        except Exception as exc:  # a broken template: report it, keep serving
            self.echo(f"build failed, still serving the previous site: {type(exc).__name__}: {exc}")
            return False
        self.builds += 1
        self.echo(f"built: {self.last.summary()}")
        return True

    def start(self) -> str:
        """Listen, build, then serve in a background thread; return the URL."""
        handler = functools.partial(_Handler, directory=str(self.out))
        try:
            self.server = http.server.ThreadingHTTPServer((self.host, self.port), handler)
        except OSError as exc:
            raise NomopolyError(f"cannot serve on {self.host}:{self.port}: {exc.strerror or exc}; "
                                "pick another port with --port (0: any free one)") from None
        if not self.rebuild() and not self.out.is_dir():
            self.server.server_close()  # not serving yet: shutdown() would wait for ever
            self.server = None
            raise NomopolyError(f"the site could not be built into {self.out}; fix the error above")
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, name="nomopoly-serve", daemon=True).start()
        return self.url

    def changed(self) -> bool:
        return snapshot(self.game) != self.seen

    def check(self) -> bool:
        """Rebuild if a watched file changed since the last build; True if it rebuilt."""
        if not self.changed():
            return False
        # let a writer finish (an update writes several files): wait until nothing moves (5 s at most)
        before = snapshot(self.game)
        for _ in range(25):
            time.sleep(0.2)
            now = snapshot(self.game)
            if now == before:
                break
            before = now
        return self.rebuild()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


def serve(game: GameDir, *, host: str = "127.0.0.1", port: int = 8000, out: Path | None = None,
          interval: float = 1.0, echo: Callable[[str], None] = print,
          stop: threading.Event | None = None, started: Callable[[str], None] | None = None) -> None:
    """Serve the game's site until ``stop`` is set (or Ctrl-C), rebuilding it on every change."""
    preview = Preview(game, host=host, port=port, out=out, echo=echo)
    url = preview.start()
    echo(f"Serving {preview.out} at {url} (rebuilt when state/, rules_md/ or site_templates/ "
         "change; Ctrl-C to stop)")
    if started is not None:
        started(url)
    stop = stop or threading.Event()
    try:
        while not stop.wait(interval):
            preview.check()
    except KeyboardInterrupt:
        echo("stopped")
    finally:
        preview.stop()
