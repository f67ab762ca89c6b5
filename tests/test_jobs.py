"""The update job end to end over a Maildir: exactly once, cut-offs, dry runs, the lock, replay,
verify, and clear errors for damaged state files."""

import json
from datetime import datetime

import pytest
from fixtures.games import copy_game, deliver

from admin.jobs import update as jobs
from admin.engine.errors import StateError
from admin.mail.inbound.ledger import Ledger
from admin.library.cards import buried_cards

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
SAT = datetime.fromisoformat("2026-11-07T23:59:59+00:00")


def _inbox(game):
    return game.root / "mail" / "inbox"


def test_an_update_applies_each_email_once_and_moves_it_away(game_dir):
    deliver(_inbox(game_dir), "Alice <alice@example.org>", "PROPOSE Idea\nA new rule.\nEND", "2026-11-03T10:00")
    first = jobs.run_update_job(game_dir, at=WED)
    assert [s.status for s in first.screened] == ["applied"]
    assert list((_inbox(game_dir) / "new").glob("*.test")) == []
    again = jobs.run_update_job(game_dir, at=SAT)
    assert again.screened == []
    assert [p.number for p in game_dir.load().proposals] == [1]


def test_mail_after_the_cutoff_waits_for_the_next_update(game_dir):
    deliver(_inbox(game_dir), "bob@example.org", "STATUS", "2026-11-05T08:00")
    first = jobs.run_update_job(game_dir, at=WED)
    assert first.screened == []
    second = jobs.run_update_job(game_dir, at=SAT)
    assert [s.player for s in second.screened] == ["bob"]


def test_unknown_senders_and_auto_replies_are_never_acted_on(game_dir):
    deliver(_inbox(game_dir), "mallory@evil.example", "BUY 3", "2026-11-03T10:00")
    deliver(_inbox(game_dir), "alice@example.org", "STATUS", "2026-11-03T11:00",
            headers={"Auto-Submitted": "auto-replied"})
    outcome = jobs.run_update_job(game_dir, at=WED)
    assert sorted(s.status for s in outcome.screened) == ["ignored", "rejected"]
    ledger = Ledger.load(game_dir.state_dir)
    assert sorted(e.status for e in ledger.messages.values()) == ["ignored", "rejected"]


def test_a_duplicate_delivery_acts_once(game_dir):
    for when in ("2026-11-03T10:00", "2026-11-03T10:05"):
        deliver(_inbox(game_dir), "alice@example.org", "PROPOSE Idea\nText.\nEND", when,
                message_id="<same@example.org>", subject=f"sent at {when}")
    outcome = jobs.run_update_job(game_dir, at=WED)
    assert [s.status for s in outcome.screened] == ["applied"]
    statuses = sorted(e.status for e in Ledger.load(game_dir.state_dir).messages.values())
    assert statuses == ["applied", "duplicate"]


def test_a_crash_before_the_move_does_not_apply_mail_twice(game_dir):
    deliver(_inbox(game_dir), "alice@example.org", "PROPOSE Idea\nText.\nEND", "2026-11-03T10:00")

    class CrashOnMove(jobs.MaildirSource):
        def mark_processed(self, keys):
            raise KeyboardInterrupt("killed before the move")

    with pytest.raises(KeyboardInterrupt):
        jobs.run_update_job(game_dir, at=WED, source=CrashOnMove(_inbox(game_dir)))
    assert len(list((_inbox(game_dir) / "new").glob("*.test"))) == 1  # still in the inbox
    jobs.run_update_job(game_dir, at=SAT)
    assert len(game_dir.load().proposals) == 1
    assert list((_inbox(game_dir) / "new").glob("*.test")) == []


def test_a_dry_run_saves_nothing(game_dir):
    deliver(_inbox(game_dir), "alice@example.org", "PROPOSE Idea\nText.\nEND", "2026-11-03T10:00")

    def snapshot():
        return {p: p.read_bytes() for p in game_dir.state_dir.rglob("*") if p.is_file() and p.name != ".lock"}

    before = snapshot()
    outcome = jobs.run_update_job(game_dir, at=WED, dry_run=True)
    assert outcome.update == 1 and not outcome.committed
    assert [p.title for p in outcome.state.proposals] == ["Idea"]
    assert snapshot() == before
    assert len(list((_inbox(game_dir) / "new").glob("*.test"))) == 1


def test_replay_and_verify_after_several_updates(game_dir):
    deliver(_inbox(game_dir), "alice@example.org", "PROPOSE Idea\nText.\nEND", "2026-11-03T10:00")
    deliver(_inbox(game_dir), "bob@example.org", "VOTE 1 YES\nBUY", "2026-11-06T10:00")
    jobs.run_update_job(game_dir, at=WED)
    jobs.run_update_job(game_dir, at=SAT)
    assert jobs.replay_check(game_dir) == []
    assert jobs.verify(game_dir) == []


def test_verify_catches_a_forged_roll(game_dir):
    jobs.run_update_job(game_dir, at=WED)
    path = game_dir.state_dir / "results" / "0001.json"
    data = json.loads(path.read_text())
    label, sides, value = data["dice"]["rolls"][-1]
    data["dice"]["rolls"][-1] = [label, sides, value % sides + 1]
    path.write_text(json.dumps(data))
    assert any("recorded" in p for p in jobs.verify(game_dir))


def test_replay_check_notices_a_hand_edited_state(game_dir):
    jobs.run_update_job(game_dir, at=WED)
    players = game_dir.state_dir / "players.yaml"
    players.write_text(players.read_text().replace("money: 10000", "money: 99999", 1))
    assert jobs.replay_check(game_dir) == ["state/players.yaml differs from the replayed state: "
                                           "players.alice.money is 99999 on disk, 10000 in the replay"]


def test_the_same_game_and_mail_give_byte_identical_state(game_dir, tmp_path):
    deliver(_inbox(game_dir), "alice@example.org", "PROPOSE Idea\nText.\nEND\nBUY", "2026-11-03T10:00")
    other = copy_game(game_dir, tmp_path / "other")
    for g in (game_dir, other):
        jobs.run_update_job(g, at=WED)
        jobs.run_update_job(g, at=SAT)
    def files(g):
        return {p.relative_to(g.root): p.read_bytes() for d in (g.state_dir, g.rules_dir)
                for p in sorted(d.rglob("*")) if p.is_file() and p.name != ".lock"}

    assert files(game_dir) == files(other)
    assert len(files(game_dir)) > 20


def test_a_second_update_at_the_same_time_fails_cleanly(game_dir):
    with game_dir.lock():
        with pytest.raises(StateError, match="another nomopoly command is changing"):
            jobs.run_update_job(game_dir, at=WED)


def test_invalid_yaml_is_reported_with_file_and_line_and_nothing_is_written(game_dir):
    board = game_dir.state_dir / "board.yaml"
    board.write_text(board.read_text() + "  - number: [oops\n")
    before = {p: p.read_bytes() for p in game_dir.state_dir.glob("*.yaml")}
    with pytest.raises(StateError, match=r"board\.yaml:\d+:\d+: invalid YAML"):
        jobs.run_update_job(game_dir, at=WED)
    assert {p: p.read_bytes() for p in game_dir.state_dir.glob("*.yaml")} == before


def test_a_wrong_shape_names_the_file_and_field(game_dir):
    players = game_dir.state_dir / "players.yaml"
    players.write_text(players.read_text().replace("money: 10000", "money: lots", 1))
    with pytest.raises(StateError, match=r"players\.yaml: players\.alice\.money: expected a whole number, found 'lots'"):
        game_dir.load()


def test_buried_cards_live_in_their_own_tab_separated_file_and_survive_a_reload(game_dir):
    from admin.library.cards import BuriedCard

    state = game_dir.load()
    buried_cards(state).extend([BuriedCard(square=3, card="QS", player="alice", update=1),
                                BuriedCard(square=7, card="2H", player="bob", update=2)])
    with game_dir.lock():
        tx = jobs.Transaction(game_dir.state_dir)
        game_dir.stage_state(tx, state)
        tx.commit()
    lines = (game_dir.state_dir / "private" / "cards.buried.tsv").read_text().splitlines()
    assert lines == ["update\tsquare\tplayer\tcard", "1\t3\talice\tQS", "2\t7\tbob\t2H"]
    assert "buried" not in (game_dir.state_dir / "private.yaml").read_text()
    assert "QS" not in (game_dir.state_dir / "private" / "cards.yaml").read_text()
    assert buried_cards(game_dir.load()) == buried_cards(state)


def test_a_damaged_buried_cards_line_names_the_file_and_line(game_dir):
    path = game_dir.state_dir / "private" / "cards.buried.tsv"
    path.write_text("update\tsquare\tplayer\tcard\n1\t3\talice\tQS\ntwo\t3\tbob\n")
    with pytest.raises(StateError, match=r"cards\.buried\.tsv:3: expected 4 tab-separated columns \(update, square, player, card; "
                       r"update, square whole numbers\), found 'two\\t3\\tbob'"):
        game_dir.load()


def test_dot_files_in_a_maildir_are_not_messages(game_dir):
    for sub in ("new", "cur", "tmp"):
        (_inbox(game_dir) / sub).mkdir(parents=True, exist_ok=True)
        (_inbox(game_dir) / sub / ".keep").write_text("")
    deliver(_inbox(game_dir), "alice@example.org", "STATUS", "2026-11-03T10:00")
    outcome = jobs.run_update_job(game_dir, at=WED, dry_run=True)
    assert [s.player for s in outcome.screened] == ["alice"]
    outcome = jobs.run_update_job(game_dir, at=WED)
    assert [s.status for s in outcome.screened] == ["applied"]
