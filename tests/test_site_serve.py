"""``nomopoly serve``: the preview server builds, serves on loopback and rebuilds on a change."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from fixtures.browser import make_game, write_state

from admin.site.serve import serve


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def _wait_for(predicate, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_serve_previews_the_site_and_rebuilds_when_a_template_changes(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", updates=2)
    stop, urls, said = threading.Event(), [], []
    thread = threading.Thread(target=serve, kwargs=dict(
        game=game, port=0, interval=0.1, echo=said.append, stop=stop, started=urls.append), daemon=True)
    thread.start()
    try:
        assert _wait_for(lambda: bool(urls)), said
        base = urls[0]
        assert base.startswith("http://127.0.0.1:") and not base.endswith(":8000/")
        status, html = _get(base + "index.html")
        assert status == 200 and "Fixture Nomopoly" in html and "house-banner" not in html
        status, missing = _get(base + "no/such/page.html")
        assert status == 404 and "Not found" in missing

        # a template override: the next request sees the rebuilt page
        (game.root / "site_templates").mkdir()
        (game.root / "site_templates" / "index.html").write_text(
            '{% extends "bundled/index.html" %}{% block content %}<p id="house-banner">Welcome'
            '</p>{{ super() }}{% endblock %}', encoding="utf-8")
        assert _wait_for(lambda: 'id="house-banner"' in _get(base + "index.html")[1]), said

        # a broken template keeps the previous site up and says why
        (game.root / "site_templates" / "index.html").write_text("{% extends 'nope.html' %}",
                                                                  encoding="utf-8")
        assert _wait_for(lambda: any("build failed" in s for s in said)), said
        assert 'id="house-banner"' in _get(base + "index.html")[1]

        # a state change (a new week) shows up too
        (game.root / "site_templates" / "index.html").unlink()
        state = game.load()
        state.week = 9
        write_state(game.root, state)
        assert _wait_for(lambda: "Week 9 · update" in _get(base + "index.html")[1]), said
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def test_serve_fails_clearly_when_the_port_is_taken(tmp_path: Path) -> None:
    import socket

    import pytest

    from admin.engine.errors import NomopolyError

    game = make_game(tmp_path / "g", updates=1)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(NomopolyError, match=rf"127\.0\.0\.1:{port}.*--port"):
            serve(game, port=port, echo=lambda *_: None, stop=threading.Event())
    assert not (game.root / "site").exists()  # it did not build before it could listen
