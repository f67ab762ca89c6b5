"""Authenticated senders, end to end through the update job over a Maildir: the registered
address (case, display names, plus-addressing), secret tokens (hashed, never written anywhere in
clear) and DKIM/SPF results from the admin's own server. Mail that fails is archived, recorded as
rejected with its reason in the ledger and the update log, and never acted on."""

from __future__ import annotations

from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any, Sequence

import pytest

from admin.jobs import update as jobs
from admin.engine.errors import StateError
from admin.store.gamedir import GameDir
from admin.mail.inbound.auth import AuthSettings, check_dkim, covers, hash_token
from admin.mail.inbound.intake import archive_path
from admin.mail.inbound.ledger import Ledger, LedgerEntry
from admin.store.fileio import load_json

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
SAT = datetime.fromisoformat("2026-11-07T23:59:59+00:00")
PROPOSE = "PROPOSE Idea\nA new rule.\nEND"
SECRET = "Zq8xLr2vTt0k"
WRONG = "Wv5pNm1cXy9a"
AUTHSERV = "mx.admin.example"


def set_auth(game: GameDir, text: str) -> None:
    with open(game.settings_path, "a", encoding="utf-8") as fh:
        fh.write(f"[auth]\n{text}\n")


def send(game: GameDir, sender: str, body: str, *, when: str = "2026-11-03T10:00",
         subject: str = "moves", headers: Sequence[tuple[str, str]] = ()) -> bytes:
    """Deliver one message into the game's Maildir (headers may repeat); returns its bytes."""
    t = datetime.fromisoformat(when).replace(tzinfo=timezone.utc)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "admin@example.org", subject
    msg["Date"] = format_datetime(t)
    box = game.root / "mail" / "inbox"
    n = len(list((box / "new").iterdir())) + len(list((box / "cur").iterdir()))
    msg["Message-ID"] = f"<auth-{n}.{int(t.timestamp())}@test.invalid>"
    msg.set_content(body)
    # trace headers on top, as the receiving server prepends them, written as-is (folded too)
    trace = "".join(f"{name}: {value}\n".replace("\r\n", "\n") for name, value in headers)
    raw = trace.encode() + bytes(msg)
    (box / "new" / f"{int(t.timestamp())}.M{n}P1.test").write_bytes(raw)
    return raw


def update(game: GameDir, at: datetime = WED) -> jobs.UpdateOutcome:
    return jobs.run_update_job(game, at=at)


def ledger(game: GameDir) -> dict[str, LedgerEntry]:
    return Ledger.load(game.state_dir).messages


def logged(game: GameDir, n: int = 1) -> list[dict[str, Any]]:
    return load_json(game.update_logs()[n])["inputs"]["messages"]


def proposals(game: GameDir) -> list[str]:
    return [p.title for p in game.load().proposals]


@pytest.fixture
def game(game_dir: GameDir) -> GameDir:
    for sub in ("new", "cur", "tmp"):
        (game_dir.root / "mail" / "inbox" / sub).mkdir(parents=True, exist_ok=True)
    return game_dir


def assert_rejected_and_never_acted_on(game: GameDir, raw: bytes, reason: str) -> None:
    """Archived byte for byte, rejected with ``reason`` in the ledger and the update log, not done."""
    import hashlib

    digest = hashlib.sha256(raw).hexdigest()
    assert archive_path(game.state_dir, digest).read_bytes() == raw
    entry = ledger(game)[digest]
    assert entry.status == "rejected" and reason in (entry.reason or ""), entry
    [record] = [m for m in logged(game, entry.update or 0) if m["hash"] == digest]
    assert record["status"] == "rejected" and reason in record["reason"]
    assert proposals(game) == []


# -- the registered address ---------------------------------------------------------------------
@pytest.mark.parametrize("sender", ["ALICE@Example.ORG", "Alice Liddell <Alice@EXAMPLE.org>",
                                    '"Liddell, Alice (work)" <alice@example.org>'])
def test_the_registered_address_matches_without_case_and_with_any_display_name(game, sender):
    send(game, sender, PROPOSE)
    [s] = update(game).screened
    assert (s.status, s.player) == ("applied", "alice")
    assert proposals(game) == ["Idea"]


def test_a_display_name_alone_does_not_make_a_sender(game):
    raw = send(game, "alice <mallory@evil.example>", PROPOSE)
    [s] = update(game).screened
    assert (s.status, s.player) == ("rejected", None)
    assert_rejected_and_never_acted_on(game, raw, "mallory@evil.example is not a registered player's address")


def test_an_encoded_display_name_holding_a_players_address_does_not_make_a_sender(game):
    raw = send(game, "mallory@evil.example", PROPOSE)
    path = next((game.root / "mail" / "inbox" / "new").iterdir())
    # the display name decodes to "Alice <alice@example.org>"
    raw = raw.replace(b"From: mallory@evil.example",
                      b"From: =?utf-8?q?Alice_=3Calice=40example=2Eorg=3E?= <mallory@evil.example>")
    path.write_bytes(raw)
    [s] = update(game).screened
    assert (s.status, s.player) == ("rejected", None)
    assert_rejected_and_never_acted_on(game, raw, "mallory@evil.example is not a registered player's address")


def test_plus_addressing_is_stripped_by_default(game):
    send(game, "Alice <Alice+Nomopoly@example.org>", PROPOSE)
    [s] = update(game).screened
    assert (s.status, s.player) == ("applied", "alice")


def test_plus_addressing_exact_refuses_a_tagged_address(game):
    set_auth(game, 'plus_addressing = "exact"')
    raw = send(game, "alice+nomopoly@example.org", PROPOSE)
    [s] = update(game).screened
    assert s.status == "rejected"
    assert_rejected_and_never_acted_on(game, raw, "is not a registered player's address")


def test_plus_addressing_exact_matches_a_tagged_registered_address_only_exactly(game):
    set_auth(game, 'plus_addressing = "exact"')
    jobs.add_player(game, "dave", "Dave+Game@Example.org")
    send(game, "dave+game@example.org", PROPOSE)
    send(game, "dave@example.org", "STATUS", when="2026-11-03T11:00")
    statuses = [(s.status, s.player) for s in update(game).screened]
    assert statuses == [("applied", "dave"), ("rejected", None)]


def test_plus_addressing_strip_matches_a_tagged_registered_address_by_its_base(game):
    jobs.add_player(game, "dave", "dave+game@example.org")
    send(game, "dave@example.org", PROPOSE)
    [s] = update(game).screened
    assert (s.status, s.player) == ("applied", "dave")


def test_a_removed_players_address_is_not_accepted(game):
    jobs.remove_player(game, "bob")
    raw = send(game, "bob@example.org", PROPOSE)
    update(game)
    assert_rejected_and_never_acted_on(game, raw, "is not a registered player's address")


@pytest.mark.parametrize("table, problem", [
    ('plus_addressing = "keep"', 'plus_addressing = \'keep\': use "strip" or "exact"'),
    ("require_dkim = true", "require_dkim needs authserv_id"),
    ("require_tokens = true", "unknown setting(s) require_tokens"),
])
def test_bad_auth_settings_are_clear_errors_and_nothing_is_taken_in(game, table, problem):
    set_auth(game, table)
    send(game, "alice@example.org", PROPOSE)
    with pytest.raises(StateError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        update(game)
    assert game.load().update == 0 and proposals(game) == []


# -- tokens -------------------------------------------------------------------------------------
@pytest.fixture
def token_game(game: GameDir) -> GameDir:
    set_auth(game, "require_token = true")
    jobs.set_token(game, "alice", SECRET)
    jobs.add_player(game, "dave", "dave@example.org", "Dv7tokenNine")
    return game


def test_tokens_are_stored_hashed_never_in_clear(token_game):
    private = (token_game.state_dir / "private.yaml").read_text()
    assert hash_token(SECRET) in private and hash_token("Dv7tokenNine") in private
    for path in token_game.state_dir.rglob("*"):
        if path.is_file():
            text = path.read_bytes()
            assert SECRET.encode() not in text and b"Dv7tokenNine" not in text, path


def test_the_right_token_lets_the_email_act(token_game):
    send(token_game, "alice@example.org", f"TOKEN {SECRET}\n{PROPOSE}")
    send(token_game, "dave@example.org", "token Dv7tokenNine\nVOTE 1 YES", when="2026-11-03T11:00")
    statuses = [(s.status, s.player) for s in update(token_game).screened]
    assert statuses == [("applied", "alice"), ("applied", "dave")]
    assert proposals(token_game) == ["Idea"]


@pytest.mark.parametrize("body, reason", [
    (f"TOKEN {WRONG}\n{PROPOSE}", "the TOKEN line does not match your secret"),
    (PROPOSE, "requires your secret on a line TOKEN <secret>; none was found"),
    (f"TOKEN {SECRET} {SECRET}\n{PROPOSE}", "requires your secret on a line TOKEN <secret>"),
    (f"{PROPOSE}\n> TOKEN {SECRET}", "none was found"),  # a quoted line is not a command
])
def test_a_wrong_or_missing_token_rejects_the_whole_email(token_game, body, reason):
    raw = send(token_game, "alice@example.org", body)
    [s] = update(token_game).screened
    assert (s.status, s.player) == ("rejected", "alice")
    assert_rejected_and_never_acted_on(token_game, raw, reason)


def test_another_players_token_does_not_authenticate(token_game):
    raw = send(token_game, "alice@example.org", f"TOKEN Dv7tokenNine\n{PROPOSE}")
    update(token_game)
    assert_rejected_and_never_acted_on(token_game, raw, "does not match your secret")


def test_a_player_without_a_token_is_told_to_ask_for_one(token_game):
    raw = send(token_game, "bob@example.org", f"TOKEN {SECRET}\n{PROPOSE}")
    update(token_game)
    assert_rejected_and_never_acted_on(token_game, raw, "bob has none yet: ask the Admin for one")


def test_a_new_token_replaces_the_old_one(token_game):
    jobs.set_token(token_game, "alice", "N3wSecretAbc")
    old = send(token_game, "alice@example.org", f"TOKEN {SECRET}\nSTATUS")
    send(token_game, "alice@example.org", f"TOKEN N3wSecretAbc\n{PROPOSE}", when="2026-11-03T11:00")
    statuses = [s.status for s in update(token_game).screened]
    assert statuses == ["rejected", "applied"]
    assert ledger(token_game)[__import__("hashlib").sha256(old).hexdigest()].status == "rejected"


def test_the_secret_never_appears_in_the_log_results_ledger_or_site(token_game, tmp_path):
    from admin.site.build import build_site

    send(token_game, "alice@example.org", f"TOKEN {SECRET}\n{PROPOSE}")
    send(token_game, "alice@example.org", f"Token: {SECRET}\nSTATUS", when="2026-11-03T11:00")
    send(token_game, "alice@example.org", f"TOKEN {SECRET} extra\nSTATUS", when="2026-11-03T12:00")
    send(token_game, "alice@example.org", "", subject=f"Re: TOKEN {SECRET}", when="2026-11-03T13:00")
    send(token_game, "alice@example.org", f"TOKEN {WRONG}\nSTATUS", when="2026-11-03T14:00")
    send(token_game, "dave@example.org", "TOKEN Dv7tokenNine\nVOTE 1 YES", when="2026-11-03T15:00")
    outcome = update(token_game)
    assert [s.status for s in outcome.screened] == ["applied", "rejected", "rejected", "applied",
                                                    "rejected", "applied"]
    site = build_site(token_game, tmp_path / "site")
    places = [token_game.state_dir / "log", token_game.state_dir / "results",
              token_game.state_dir / "ledger", site]
    files = [p for place in places for p in ([place] if place.is_file() else place.rglob("*")) if p.is_file()]
    assert len(files) > 10
    for path in files:
        data = path.read_bytes()
        for secret in (SECRET, WRONG, "Dv7tokenNine"):
            assert secret.encode() not in data, f"{secret} in {path}"
    # ... while the raw archive keeps the email as it came (private, never published)
    archived = b"".join(p.read_bytes() for p in (token_game.state_dir / "mail").rglob("*.eml"))
    assert SECRET.encode() in archived


# -- DKIM and SPF results from the admin's own server ------------------------------------------
@pytest.fixture
def dkim_game(game: GameDir) -> GameDir:
    set_auth(game, f'require_dkim = true\nauthserv_id = "{AUTHSERV}"')
    return game


PASSES = {
    "dkim pass": [f"{AUTHSERV}; dkim=pass (2048-bit key) header.d=example.org header.i=@example.org"],
    "spf pass": [f"{AUTHSERV}; spf=pass smtp.mailfrom=alice@example.org"],
    "dkim fail, spf pass": [f"{AUTHSERV};\r\n dkim=fail header.d=example.org;\r\n spf=pass smtp.mailfrom=example.org"],
    "authserv-id in another case": ["MX.Admin.Example; dkim=pass header.d=example.org"],
    "OpenDKIM's comment with a semicolon": [
        f"{AUTHSERV}; dkim=pass (2048-bit key; unprotected) header.d=example.org header.i=@example.org"],
    "OpenDMARC's header above OpenDKIM's": [
        f"{AUTHSERV}; dmarc=pass (p=none dis=none) header.from=example.org",
        f"{AUTHSERV}; dkim=pass (2048-bit key; unprotected) header.d=example.org header.i=@example.org"],
}
FAILS = {
    "dkim and spf fail": [f"{AUTHSERV}; dkim=fail header.d=example.org; spf=fail smtp.mailfrom=example.org"],
    "forged by another server": ["mx.evil.example; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org"],
    "forged below a real fail": [f"{AUTHSERV}; dkim=none; spf=softfail smtp.mailfrom=example.org",
                                 "mx.evil.example; dkim=pass header.d=example.org"],
    "pass for another domain": [f"{AUTHSERV}; dkim=pass header.d=evil.example; spf=pass smtp.mailfrom=evil.example"],
    "pass for a look-alike domain": [f"{AUTHSERV}; dkim=pass header.d=ample.org"],
    "pass for the top-level domain": [f"{AUTHSERV}; dkim=pass header.d=org; spf=pass smtp.mailfrom=org"],
    "forged pass below the server's fail, under its dmarc header": [
        f"{AUTHSERV}; dmarc=fail header.from=example.org", f"{AUTHSERV}; dkim=fail header.d=example.org",
        f"{AUTHSERV}; dkim=pass header.d=example.org"],
    "no header at all": [],
    "a prefix of the authserv-id": ["mx.admin.example.evil.example; dkim=pass header.d=example.org"],
    "a pass inside a quoted reason": [
        f'{AUTHSERV}; dkim=fail reason="x;dkim=pass header.d=example.org x" header.d=example.org'],
}

#: Authentication-Results as real servers write them (genuine) and as a sender forges them,
#: checked without an update: (header values top first, sender, whether the email may act)
DKIM_CASES = {
    "plain dkim pass": ([f"{AUTHSERV}; dkim=pass header.d=example.org"], True),
    "a version after the authserv-id": ([f"{AUTHSERV} 1; dkim=pass header.d=example.org"], True),
    "OpenDKIM's job id": ([f"{AUTHSERV}/4A1B2C3D; dkim=pass header.d=example.org"], True),
    "OpenDKIM's key comment": ([f"{AUTHSERV}; dkim=pass (2048-bit key; unprotected) header.d=example.org "
                                "header.i=@example.org header.b=\"AbC/dEf+\""], True),
    "folded over lines": ([f"{AUTHSERV};\r\n\tdkim=pass\r\n\t header.d=example.org"], True),
    "spf pass with the full address": ([f"{AUTHSERV}; spf=pass smtp.mailfrom=alice@example.org"], True),
    "dkim pass for a parent domain, mail from a subdomain": (
        [f"{AUTHSERV}; dkim=pass header.d=example.org"], True),
    "a comment carrying a pass": ([f"{AUTHSERV}; dkim=fail (;dkim=pass header.d=example.org ) "
                                   "header.d=evil.example"], False),
    "a quoted string carrying a pass": ([f'{AUTHSERV}; dkim=fail reason=";dkim=pass header.d=example.org x" '
                                         "header.d=evil.example"], False),
    "a comment in the authserv-id": ([f"mx.evil.example ({AUTHSERV}); dkim=pass header.d=example.org"], False),
    "a pass without a domain": ([f"{AUTHSERV}; dkim=pass"], False),
    "a pass for a look-alike domain": ([f"{AUTHSERV}; dkim=pass header.d=ample.org"], False),
    "a pass for the domain as a prefix": ([f"{AUTHSERV}; dkim=pass header.d=example.org.evil.example"], False),
    "another method's pass": ([f"{AUTHSERV}; dkim=fail header.d=example.org; x-fake=pass header.d=example.org"],
                              False),
    "dmarc pass alone": ([f"{AUTHSERV}; dmarc=pass header.from=example.org"], False),
    "neutral dkim": ([f"{AUTHSERV}; dkim=neutral header.d=example.org"], False),
    "the admin's server below a forged header": (
        [f"{AUTHSERV}; dkim=fail header.d=example.org", f"{AUTHSERV}; dkim=pass header.d=example.org"], False),
    "a job id on another server": (["mx.evil.example/ABC; dkim=pass header.d=example.org"], False),
    "unparseable garbage with a pass in it": ([f"{AUTHSERV}; ;; dkim==pass header.d=example.org ((("], False),
    "none at all": ([f"{AUTHSERV}; none"], False),
    "OpenDMARC's header above OpenDKIM's": ([f"{AUTHSERV}; dmarc=pass (p=none dis=none) header.from=example.org",
                                             f"{AUTHSERV}; dkim=pass header.d=example.org header.i=@example.org"],
                                            True),
    "OpenDKIM's, OpenDMARC's and another server's in any order": (
        [f"{AUTHSERV}; dmarc=pass header.from=example.org", "mx.other.example; dkim=fail header.d=example.org",
         f"{AUTHSERV}/1A2B; dkim=pass header.d=example.org"], True),
    "spf in the top header, dkim below it": ([f"{AUTHSERV}; spf=fail smtp.mailfrom=example.org",
                                              f"{AUTHSERV}; dkim=pass header.d=example.org"], True),
    "a forged dkim pass below the server's dkim fail, both under its dmarc header": (
        [f"{AUTHSERV}; dmarc=fail header.from=example.org", f"{AUTHSERV}; dkim=fail header.d=example.org",
         f"{AUTHSERV}; dkim=pass header.d=example.org"], False),
    "a forged spf pass below the server's spf fail": ([f"{AUTHSERV}; spf=fail smtp.mailfrom=example.org",
                                                       f"{AUTHSERV}; spf=pass smtp.mailfrom=example.org"], False),
    "a pass for the top-level domain": ([f"{AUTHSERV}; dkim=pass header.d=org"], False),
    "an spf pass for the top-level domain": ([f"{AUTHSERV}; spf=pass smtp.mailfrom=postmaster@org"], False),
    "a pass for the top-level domain with a trailing dot": ([f"{AUTHSERV}; dkim=pass header.d=org."], False),
}


@pytest.mark.parametrize("case", DKIM_CASES)
def test_authentication_results_are_read_by_rfc_8601(case):
    headers, passes = DKIM_CASES[case]
    settings = AuthSettings(require_dkim=True, authserv_id=AUTHSERV)
    sender = "alice@mail.example.org" if "subdomain" in case else "alice@example.org"
    problem = check_dkim(sender, headers, settings)
    assert (problem is None) == passes, problem


#: (signing domain, sender's domain, whether the pass vouches for the sender)
COVERS = [
    ("example.org", "example.org", True), ("example.org", "mail.example.org", True),
    ("example.co.uk", "shop.example.co.uk", True), ("EXAMPLE.org", "example.ORG", True),
    ("org", "example.org", False), ("co.uk", "example.co.uk", False), ("uk", "example.co.uk", False),
    ("github.io", "alice.github.io", False), ("ample.org", "example.org", False),
    ("example.org", "example.org.evil.example", False), ("", "example.org", False),
    ("mail.example.org", "example.org", False),
]


@pytest.mark.parametrize("signer,domain,passes", COVERS)
def test_a_pass_vouches_for_the_domain_or_a_registrable_parent_never_a_public_suffix(signer, domain, passes):
    assert covers(signer, domain) is passes
    settings = AuthSettings(require_dkim=True, authserv_id=AUTHSERV)
    assert (check_dkim(f"alice@{domain}", [f"{AUTHSERV}; dkim=pass header.d={signer or 'x'}"], settings)
            is None) is passes


@pytest.mark.parametrize("results", PASSES.values(), ids=PASSES.keys())
def test_a_pass_recorded_by_the_admins_server_lets_the_email_act(dkim_game, results):
    send(dkim_game, "alice@example.org", PROPOSE, headers=[("Authentication-Results", r) for r in results])
    [s] = update(dkim_game).screened
    assert (s.status, s.player) == ("applied", "alice")
    assert proposals(dkim_game) == ["Idea"]


def test_a_pass_for_the_parent_domain_covers_a_subdomain_sender(dkim_game):
    jobs.add_player(dkim_game, "dave", "dave@mail.example.org")
    send(dkim_game, "dave@mail.example.org", PROPOSE,
         headers=[("Authentication-Results", f"{AUTHSERV}; dkim=pass header.d=example.org")])
    [s] = update(dkim_game).screened
    assert (s.status, s.player) == ("applied", "dave")


@pytest.mark.parametrize("results", FAILS.values(), ids=FAILS.keys())
def test_no_pass_from_the_admins_server_rejects_the_email(dkim_game, results):
    raw = send(dkim_game, "alice@example.org", PROPOSE,
               headers=[("Authentication-Results", r) for r in results])
    [s] = update(dkim_game).screened
    assert (s.status, s.player) == ("rejected", "alice")
    assert_rejected_and_never_acted_on(
        dkim_game, raw, f"pass DKIM or SPF for example.org, and {AUTHSERV}'s server recorded no pass")


def test_dkim_and_tokens_together_need_both(game):
    set_auth(game, f'require_token = true\nrequire_dkim = true\nauthserv_id = "{AUTHSERV}"')
    jobs.set_token(game, "alice", SECRET)
    good = [("Authentication-Results", f"{AUTHSERV}; dkim=pass header.d=example.org")]
    send(game, "alice@example.org", f"TOKEN {SECRET}\n{PROPOSE}")  # no DKIM pass
    send(game, "alice@example.org", f"TOKEN {WRONG}\n{PROPOSE}", headers=good, when="2026-11-03T11:00")
    send(game, "alice@example.org", f"TOKEN {SECRET}\nPROPOSE Other\nText.\nEND", headers=good,
         when="2026-11-03T12:00")
    assert [s.status for s in update(game).screened] == ["rejected", "rejected", "applied"]
    assert proposals(game) == ["Other"]


def test_rejected_mail_stays_rejected_and_is_not_taken_again(dkim_game):
    raw = send(dkim_game, "alice@example.org", PROPOSE)
    update(dkim_game)
    assert update(dkim_game, SAT).screened == []
    entries = list(ledger(dkim_game).values())
    assert [(e.status, e.update) for e in entries] == [("rejected", 1)]
    assert_rejected_and_never_acted_on(dkim_game, raw, "recorded no pass")
    assert not list((dkim_game.root / "mail" / "inbox" / "new").iterdir())  # moved away all the same


def test_settings_are_read_from_the_auth_table():
    s = AuthSettings.from_dict({"plus_addressing": "exact", "require_token": True, "require_dkim": True,
                                "authserv_id": AUTHSERV})
    assert (s.plus_addressing, s.require_token, s.require_dkim, s.authserv_id) == ("exact", True, True, AUTHSERV)
    assert AuthSettings.from_dict({}) == AuthSettings()


def test_only_the_topmost_header_of_our_own_server_counts():
    from admin.mail.inbound.auth import AuthSettings, check_dkim

    settings = AuthSettings(require_dkim=True, authserv_id="mx.game.example")
    ours_fail = "mx.game.example; dkim=fail header.d=example.org; spf=fail smtp.mailfrom=example.org"
    forged_pass = "mx.game.example; dkim=pass header.d=example.org"
    assert check_dkim("alice@example.org", [ours_fail, forged_pass], settings) is not None
    assert check_dkim("alice@example.org", [forged_pass, ours_fail], settings) is None


def test_an_encoded_word_hiding_angle_brackets_cannot_borrow_a_players_address():
    from admin.mail.inbound.message import read_message

    for name in (b"=?utf-8?q?Alice_<alice@example.org>?=", b"=?utf-8?q?Alice_=3Calice@example.org=3E?="):
        mail = read_message(b"From: " + name + b" <mallory@evil.example>\r\nSubject: x\r\n\r\nBUY\r\n")
        assert mail.sender == "mallory@evil.example"


def test_a_token_given_is_checked_even_where_none_is_required(game):
    """Issue 20, item 7: with require_token = false a wrong TOKEN line was answered "your token was
    checked" and the email acted. A token given is checked all the same: a wrong one is refused."""
    set_auth(game, "require_token = false")
    jobs.set_token(game, "alice", SECRET)
    wrong = send(game, "alice@example.org", f"TOKEN {WRONG}\n{PROPOSE}")
    none_issued = send(game, "bob@example.org", f"TOKEN {SECRET}\nSTATUS", when="2026-11-03T11:00")
    send(game, "carol@example.org", "STATUS", when="2026-11-03T11:30")  # no token: fine, none required
    statuses = [(s.status, s.player) for s in update(game).screened]
    assert statuses == [("rejected", "alice"), ("applied", "bob"), ("applied", "carol")]
    assert_rejected_and_never_acted_on(game, wrong, "the TOKEN line does not match your secret")
    assert proposals(game) == []
    assert none_issued  # bob's: see the next test


def test_a_token_line_from_a_player_with_no_token_is_noted_and_the_rest_carried_out(game):
    """Issue 30: a TOKEN line from a player who has no token made the whole email refused; there
    is nothing to check it against, and a forger gains nothing from it: the line is noted in the
    receipt (never "checked"), the rest of the email is carried out, the secret never recorded."""
    from email import message_from_bytes, policy

    from admin.mail.outbound.mailout import mail_out

    set_auth(game, "require_token = false")
    send(game, "bob@example.org", f"TOKEN {SECRET}\n{PROPOSE}")
    [s] = update(game).screened
    assert (s.status, s.player) == ("applied", "bob")
    assert proposals(game) == ["Idea"]
    [record] = logged(game)
    assert record["lines"][0]["text"] == "TOKEN ********"
    assert record["lines"][0]["note"].startswith("bob has no token in this game")
    mail_out(game, 1)
    [receipt] = [message_from_bytes(p.read_bytes(), policy=policy.default).get_body(("plain",)).get_content()
                 for p in (game.state_dir / "outbox").rglob("*.eml") if b"X-Nomopoly-Kind: receipt" in p.read_bytes()]
    assert ("line 1: TOKEN ********\r\n    NOT DONE: bob has no token in this game, so this line was not "
            "needed and not checked; leave it out (or ask the Admin for a token)") in receipt, receipt
    assert "your token was checked" not in receipt and SECRET not in receipt
    assert "DONE: bob made proposal 1" in receipt, receipt
