"""The ledger's files (``state/ledger/``): settled rows read back exactly, a broken row named, a
month rewritten whole, a ledger edited by hand read as its rows say, and a ledger read about a
few messages (as an update reads it) answering for them exactly as a whole one would."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from admin.engine.errors import StateError
from admin.mail.inbound import ledger as ledger_rows
from admin.mail.inbound.ledger import Ledger, LedgerEntry


def test_settled_rows_read_back_exactly(tmp_path):
    ledger = Ledger()
    tricky = "a\ttab, a\nnewline, a \\ backslash, a \r return, \x1c and \u2028"
    entries = [LedgerEntry(f"{i:064x}", f"list:{i}", f"<m{i}@x>", f"2026-1{i % 2 + 1}-03T09:00:00+00:00",
                           status, i or None, reason)
               for i, (status, reason) in enumerate([("applied", None), ("rejected", tricky),
                                                     ("ignored", "auto-reply"), ("duplicate", "same id"),
                                                     ("pending", None)])]
    for e in entries:
        ledger.add(e)
    ledger.write(tmp_path)
    assert Ledger.load(tmp_path).messages == {e.hash: e for e in entries}


@pytest.mark.parametrize("row, problem", [
    ("h\tm\tk\t2026-11-03T09:00:00+00:00\tbogus\t1\t\n", "2026-11.tsv:1.status: 'bogus' is not one of"),
    ("h\tm\tk\t2026-11-03T09:00:00+00:00\tapplied\tone\t\n", "2026-11.tsv:1.update: expected a whole number"),
    ("h\tm\tk\tapplied\t1\t\n", "2026-11.tsv:1: expected 7 tab-separated fields"),
])
def test_a_broken_ledger_row_is_named_with_its_file_and_line(tmp_path, row, problem):
    folder = tmp_path / "ledger"
    folder.mkdir()
    (folder / "2026-11.tsv").write_text(row, encoding="utf-8")
    with pytest.raises(StateError, match=problem.replace(".", r"\.")):
        Ledger.load(tmp_path)


def _settled(i: int, month: str, status: str = "applied", message_id: str | None = None) -> LedgerEntry:
    return LedgerEntry(f"{i:064x}", f"list:{i}", message_id or f"<m{i}@x>",
                       f"2026-{month}-0{i % 9 + 1}T09:00:00+00:00", status, 1)  # type: ignore[arg-type]


def test_settling_rewrites_only_the_touched_month_with_every_row_of_it(tmp_path):
    ledger = Ledger()
    old = [_settled(i, "10") for i in range(3)]
    same_month = [_settled(i, "11") for i in range(3, 6)]
    fresh = LedgerEntry(f"{9:064x}", "list:9", "<m9@x>", "2026-11-20T09:00:00+00:00")
    for e in [*old, *same_month, fresh]:
        ledger.add(e)
    ledger.write(tmp_path)
    before = (tmp_path / "ledger" / "2026-11.tsv").read_text(encoding="utf-8")

    loaded = Ledger.load(tmp_path)
    loaded.settle(fresh.hash, "applied", 2, None)
    files = {p.name: text for p, text in loaded.files(tmp_path).items()}

    assert sorted(files) == ["2026-11.tsv", "pending.yaml"]
    assert files["2026-11.tsv"] == before + f"{fresh.hash}\t<m9@x>\tlist:9\t2026-11-20T09:00:00+00:00\tapplied\t2\t\n"
    assert loaded.get(fresh.hash) == LedgerEntry(fresh.hash, "list:9", "<m9@x>", fresh.received, "applied", 2)
    assert loaded.get("f" * 64) is None


def test_message_ids_name_every_entry_but_duplicates(tmp_path):
    ledger = Ledger()
    first, dup = _settled(1, "10", message_id="<same@x>"), _settled(2, "10", "duplicate", "<same@x>")
    pending = LedgerEntry(f"{3:064x}", "list:3", "<new@x>", "2026-11-01T09:00:00+00:00")
    for e in (first, dup, pending):
        ledger.add(e)
    ledger.write(tmp_path)

    assert Ledger.load(tmp_path).message_ids() == {"<same@x>": first.hash, "<new@x>": pending.hash}


def test_a_row_filed_under_another_month_is_rewritten_in_its_own(tmp_path):
    folder = tmp_path / "ledger"
    folder.mkdir()
    stray = _settled(1, "11")
    (folder / "2026-10.tsv").write_text(
        f"{stray.hash}\t{stray.message_id}\t{stray.key}\t{stray.received}\tapplied\t1\t\n", encoding="utf-8")
    ledger = Ledger.load(tmp_path)
    ledger.add(_settled(2, "11"))

    rows = ledger.files(tmp_path)[folder / "2026-11.tsv"].splitlines()

    assert [row.split("\t")[0] for row in rows] == [stray.hash, f"{2:064x}"]


def _eager(folder: Path) -> dict[str, LedgerEntry]:
    """What a ledger held when every row became an entry as it was read (the rows' meaning)."""
    out: dict[str, LedgerEntry] = {}
    for path in sorted(folder.glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").split("\n")[:-1]:
            h, mid, key, received, status, update, reason = [ledger_rows._unescape(c) for c in line.split("\t")]
            out[h] = LedgerEntry(h, key, mid, received, status, int(update) if update else None,  # type: ignore[arg-type]
                                 reason or None)
    return out


def test_a_ledger_edited_by_hand_reads_as_its_rows_say_the_last_row_of_a_message_counting(tmp_path):
    folder = tmp_path / "ledger"
    folder.mkdir()
    h = [f"{i:064x}" for i in range(6)]
    (folder / "2026-10.tsv").write_text(
        f"{h[0]}\t<a@x>\tk0\t2026-10-01T09:00:00+00:00\tapplied\t1\t\n"
        f"{h[1]}\t<b@x>\tk1\t2026-10-02T09:00:00+00:00\tpending\t\t\n"  # pending, by hand
        f"{h[2]}\t<c@x>\tk2\t2026-11-02T09:00:00+00:00\tapplied\t1\ta\\ttab\n"  # filed in the wrong month
        f"{h[3]}\t<d@x>\tk3\t2026-10-03T09:00:00+00:00\tapplied\t1\t\n", encoding="utf-8")
    (folder / "2026-11.tsv").write_text(
        f"{h[0]}\t<a@x>\tk0\t2026-11-01T09:00:00+00:00\tduplicate\t1\tsame id\n"  # h0 again: now a duplicate
        f"{h[4]}\t<e@x>\tk4\t2026-11-03T09:00:00+00:00\tignored\t2\t\n", encoding="utf-8")
    expected = _eager(folder)
    ledger = Ledger.load(tmp_path)

    assert ledger.messages == expected
    assert ledger.message_ids() == {e.message_id: d for d, e in expected.items() if e.status != "duplicate"}
    assert [e.hash for e in ledger.pending(None)] == [h[1]]

    ledger.settle(h[1], "applied", 3, None)
    ledger.add(LedgerEntry(h[5], "k5", "<f@x>", "2026-11-04T09:00:00+00:00", "rejected", 3, "x"))
    files = {p.name: text for p, text in ledger.files(tmp_path).items()}
    expected[h[1]].status, expected[h[1]].update = "applied", 3
    expected[h[5]] = LedgerEntry(h[5], "k5", "<f@x>", "2026-11-04T09:00:00+00:00", "rejected", 3, "x")
    for month in ("2026-10", "2026-11"):
        rows = sorted((e for e in expected.values() if e.received.startswith(month)),
                      key=lambda e: (e.received, e.hash))
        assert files[f"{month}.tsv"] == "".join(
            "\t".join(ledger_rows._escape(getattr(e, f)) for f in ledger_rows._FIELDS) + "\n" for e in rows)


def test_a_month_file_holding_a_row_of_another_month_does_not_lose_it_when_rewritten(tmp_path):
    folder = tmp_path / "ledger"
    folder.mkdir()
    stray, own = _settled(1, "11"), _settled(2, "10")
    (folder / "2026-10.tsv").write_text("".join(
        f"{e.hash}\t{e.message_id}\t{e.key}\t{e.received}\tapplied\t1\t\n" for e in (stray, own)), encoding="utf-8")
    ledger = Ledger.load(tmp_path)
    ledger.settle(own.hash, "rejected", 2, "by the Admin")  # 2026-10.tsv is rewritten

    files = {p.name: text for p, text in ledger.files(tmp_path).items()}

    assert [row.split("\t")[0] for row in files["2026-10.tsv"].splitlines()] == [own.hash]
    assert [row.split("\t")[0] for row in files["2026-11.tsv"].splitlines()] == [stray.hash]


# -- a ledger read about a few messages, as an update reads it -------------------------------------
def _row(e: LedgerEntry) -> str:
    return "\t".join(ledger_rows._escape(getattr(e, f)) for f in ledger_rows._FIELDS) + "\n"


def _game_ledger(tmp_path: Path, rng: random.Random, rows: int) -> list[LedgerEntry]:
    """A ledger of three months as intake and updates write it: some duplicates, reasons with tabs
    and backslashes, and a few messages still pending."""
    entries = []
    for i in range(rows):
        month = ("09", "10", "11")[i * 3 // rows]
        status = rng.choice(["applied", "applied", "rejected", "ignored", "duplicate", "pending"])
        mid = f"<m{rng.randrange(rows)}@x>" if status == "duplicate" else f"<m{i}@x>"
        reason = rng.choice([None, "auto-reply", "a\ttab and a \\ backslash"]) if status != "pending" else None
        entries.append(LedgerEntry(f"{rng.getrandbits(256):064x}", f"inbox:{i}", mid,
                                   f"2026-{month}-{i % 28 + 1:02d}T09:{i % 60:02d}:00+00:00", status,  # type: ignore[arg-type]
                                   None if status == "pending" else 1 + i % 5, reason))
    ledger = Ledger()
    for e in entries:
        ledger.add(e)
    ledger.write(tmp_path)
    return entries


@pytest.mark.parametrize("seed", range(12))
def test_a_ledger_read_about_some_messages_answers_for_them_as_the_whole_ledger_does(tmp_path, seed):
    rng = random.Random(seed)
    entries = _game_ledger(tmp_path, rng, 120)
    asked = rng.sample(entries, 8)
    about = [(e.hash, e.message_id) for e in asked] + [(f"{rng.getrandbits(256):064x}", "<m3@x>"),
                                                     (f"{rng.getrandbits(256):064x}", "<never@x>")]
    whole, part = Ledger.load(tmp_path), Ledger.load(tmp_path, about=about)

    for h, mid in about:
        assert part.get(h) == whole.get(h)
        assert part.message_ids().get(mid) == whole.message_ids().get(mid)
    assert part.pending(None) == whole.pending(None)
    # the same work on both: settle what was pending, take in two new messages, one a duplicate
    for ledger in (whole, part):
        for e in ledger.pending(None):
            ledger.settle(e.hash, "applied", 9, None)
        ledger.add(LedgerEntry(about[-1][0], "inbox:new", "<never@x>", "2026-11-30T10:00:00+00:00",
                               "rejected", 9, "late"))
        ledger.add(LedgerEntry(about[-2][0], "inbox:dup", "<m3@x>", "2026-10-30T10:00:00+00:00",
                               "duplicate", None, "the same Message-ID"))
    assert part.files(tmp_path) == whole.files(tmp_path)


def test_a_ledger_read_about_some_messages_refuses_to_answer_for_others(tmp_path):
    entries = _game_ledger(tmp_path, random.Random(1), 30)
    part = Ledger.load(tmp_path, about=[(entries[0].hash, entries[0].message_id)])

    assert part.get(entries[0].hash) == entries[0]
    with pytest.raises(LookupError, match="read about 1 messages, not "):
        part.get(entries[1].hash)
    with pytest.raises(LookupError, match="some messages only"):
        part.messages  # noqa: B018


@pytest.mark.parametrize("edit", ["a message in two rows", "a row in another month's file"])
def test_a_ledger_edited_by_hand_is_read_whole_even_when_read_about_some_messages(tmp_path, edit):
    entries = _game_ledger(tmp_path, random.Random(2), 30)
    folder = tmp_path / "ledger"
    moved = next(e for e in entries if e.received.startswith("2026-09") and e.status != "pending")
    if edit == "a message in two rows":
        again = LedgerEntry(moved.hash, moved.key, moved.message_id, "2026-11-29T09:00:00+00:00", "ignored", 3)
        with open(folder / "2026-11.tsv", "a", encoding="utf-8") as fh:
            fh.write(_row(again))
    else:
        with open(folder / "2026-10.tsv", "a", encoding="utf-8") as fh:
            fh.write(_row(moved))
    whole = Ledger.load(tmp_path)

    part = Ledger.load(tmp_path, about=[(entries[0].hash, entries[0].message_id)])

    assert part.messages == whole.messages
    assert part.message_ids() == whole.message_ids()
