"""Writes the hostile-input corpus: raw emails built to break a mail reader.

    python tests/hostile/make_corpus.py OUT_DIR [--from alice@example.org]

Every file is ``<name>.eml``; the bytes are deterministic (no clock, no randomness), so a run today
and a run next year feed the update the same inputs. The big ones (a 12 MB mail, a zip bomb) are
made on demand rather than checked in; tests/test_reliability.py calls :func:`write_corpus` into a
temp folder and feeds every file through a real update.
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from pathlib import Path
from typing import Callable

CRLF = b"\r\n"


def _headers(sender: str, subject: bytes, mid: str, extra: list[bytes] | None = None) -> bytes:
    lines = [b"From: " + sender.encode(), b"To: admin@example.org", b"Subject: " + subject,
             b"Date: Wed, 04 Nov 2026 10:00:00 +0000", b"Message-ID: <" + mid.encode() + b">",
             b"MIME-Version: 1.0", *(extra or [])]
    return CRLF.join(lines) + CRLF


def _plain(sender: str, name: str, body: bytes, charset: bytes = b"utf-8", extra=None,
           subject: bytes | None = None) -> bytes:
    return (_headers(sender, subject or name.encode(), f"hostile-{name}@test.invalid",
                     [b"Content-Type: text/plain; charset=" + charset, *(extra or [])]) + CRLF + body)


def huge_mail(sender: str) -> bytes:
    """12 MB of command lines: far above the 1 MB default size cap."""
    line = b"BUY 1  # " + b"x" * 60 + CRLF
    return _plain(sender, "huge-mail", line * (12_000_000 // len(line)))


def deep_mime(sender: str, depth: int = 2000) -> bytes:
    """2,000 nested multipart/mixed parts around one text part with a command."""
    parts = [b"--b%d" % i + CRLF + b"Content-Type: multipart/mixed; boundary=\"b%d\"" % (i + 1) + CRLF + CRLF
             for i in range(depth)]
    inner = (b"--b%d" % depth + CRLF + b"Content-Type: text/plain" + CRLF + CRLF + b"STATUS" + CRLF
             + b"--b%d--" % depth + CRLF)
    closing = b"".join(b"--b%d--" % i + CRLF for i in reversed(range(depth)))
    return (_headers(sender, b"deep", "hostile-deep-mime@test.invalid",
                     [b"Content-Type: multipart/mixed; boundary=\"b0\""]) + CRLF
            + b"".join(parts) + inner + closing)


def zip_bomb(sender: str) -> bytes:
    """A text part with a command, and a zip attachment that inflates to 200 MB of zeros."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open("zeros.bin", "w") as fh:
            chunk = b"\0" * 1_000_000
            for _ in range(200):
                fh.write(chunk)
    import base64

    payload = base64.encodebytes(buf.getvalue()).replace(b"\n", CRLF)
    return (_headers(sender, b"zip", "hostile-zip-bomb@test.invalid",
                     [b"Content-Type: multipart/mixed; boundary=\"zz\""]) + CRLF
            + b"--zz" + CRLF + b"Content-Type: text/plain" + CRLF + CRLF + b"STATUS" + CRLF
            + b"--zz" + CRLF + b"Content-Type: application/zip; name=\"bomb.zip\"" + CRLF
            + b"Content-Transfer-Encoding: base64" + CRLF
            + b"Content-Disposition: attachment; filename=\"bomb.zip\"" + CRLF + CRLF
            + payload + b"--zz--" + CRLF)


def many_commands(sender: str) -> bytes:
    """10,000 command lines (a verdict for each, or a clear refusal)."""
    cmds = [b"BUY", b"STATUS", b"VOTE 1 YES", b"NAME 3 Pall Mall", b"FLY TO THE MOON", b"BURY 7S"]
    return _plain(sender, "ten-thousand-lines", CRLF.join(cmds[i % len(cmds)] for i in range(10_000)) + CRLF)


def nul_bytes(sender: str) -> bytes:
    """NUL bytes in the subject, the sender's name and the body, inside commands."""
    return (_headers(sender.replace("<", "N\0ame <", 1) if "<" in sender else sender, b"nul\0subject",
                     "hostile-nul@test.invalid", [b"Content-Type: text/plain; charset=utf-8"])
            + CRLF + b"BUY\0" + CRLF + b"ST\0ATUS" + CRLF + b"\0\0\0" + CRLF + b"VOTE 1\0YES" + CRLF)


def invalid_utf8(sender: str) -> bytes:
    """Invalid UTF-8 in every header and the body, which claims to be UTF-8."""
    bad = b"\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc"
    return (b"From: " + bad + b" <" + sender.split("<")[-1].strip(">").encode() + b">" + CRLF
            + b"To: admin" + bad + b"@example.org" + CRLF + b"Subject: " + bad + CRLF
            + b"Date: " + bad + CRLF + b"Message-ID: <hostile-utf8" + bad + b"@test.invalid>" + CRLF
            + b"Content-Type: text/plain; charset=utf-8" + CRLF + b"X-" + bad + b": " + bad + CRLF + CRLF
            + b"BUY " + bad + CRLF + bad + CRLF + b"STATUS" + CRLF + b"NAME 3 " + bad + CRLF)


def bogus_charset(sender: str) -> bytes:
    """A charset nobody has heard of, with 8-bit bytes and an encoded-word subject in it too."""
    return _plain(sender, "bogus-charset", b"BUY\r\nNAME 3 Caf\xe9 \xff\r\n", charset=b"x-no-such-charset",
                  subject=b"=?x-no-such-charset?B?////?=")


def header_injection(sender: str) -> bytes:
    """Encoded words that decode to CRLF + Bcc/To headers, in Subject and From's name."""
    import base64

    evil = base64.b64encode(b"hi\r\nBcc: victim@example.com\r\nX-Injected: yes").decode()
    from_evil = base64.b64encode(b"Eve\r\nTo: other@example.com").decode()
    address = sender.split("<")[-1].strip(">")
    return (b"From: =?utf-8?B?" + from_evil.encode() + b"?= <" + address.encode() + b">" + CRLF
            + b"To: admin@example.org" + CRLF + b"Subject: =?utf-8?B?" + evil.encode() + b"?=" + CRLF
            + b"Reply-To: =?utf-8?B?" + evil.encode() + b"?= <" + address.encode() + b">" + CRLF
            + b"Message-ID: <hostile-injection@test.invalid>" + CRLF
            + b"Date: Wed, 04 Nov 2026 10:00:00 +0000" + CRLF
            + b"Content-Type: text/plain; charset=utf-8" + CRLF + CRLF
            + b"STATUS" + CRLF + b"NAME 3 Evil\r\nBcc: x@example.com" + CRLF)


def one_mb_line(sender: str) -> bytes:
    """One line of about 1 MB (just under the size cap with its headers), starting with a command."""
    return _plain(sender, "one-mb-line", b"NAME 3 " + b"A" * 990_000 + CRLF)


def many_headers(sender: str) -> bytes:
    """20,000 headers before a short body."""
    extra = [b"X-Filler-%d: %s" % (i, b"v" * 20) for i in range(20_000)]
    return _plain(sender, "many-headers", b"STATUS" + CRLF, extra=extra)


def many_parts(sender: str) -> bytes:
    """5,000 sibling text parts, each with a command."""
    body = b"".join(b"--p" + CRLF + b"Content-Type: text/plain" + CRLF + CRLF + b"STATUS" + CRLF
                    for _ in range(5000)) + b"--p--" + CRLF
    return (_headers(sender, b"many parts", "hostile-many-parts@test.invalid",
                     [b"Content-Type: multipart/mixed; boundary=\"p\""]) + CRLF + body)


def empty_parts_flood(sender: str) -> bytes:
    """70,000 empty MIME parts in under 1 MB: refused before the parser builds a part for each."""
    body = b"".join(b"--e" + CRLF + CRLF for _ in range(70_000)) + b"--e--" + CRLF
    return (_headers(sender, b"parts", "hostile-empty-parts@test.invalid",
                     [b"Content-Type: multipart/mixed; boundary=\"e\""]) + CRLF + body)


def unterminated_multipart(sender: str) -> bytes:
    """A multipart whose boundary never comes, and a broken base64 part."""
    return (_headers(sender, b"broken", "hostile-unterminated@test.invalid",
                     [b"Content-Type: multipart/alternative; boundary=\"never\""]) + CRLF
            + b"--nope" + CRLF + b"Content-Type: text/plain" + CRLF
            + b"Content-Transfer-Encoding: base64" + CRLF + CRLF + b"!!!not base64***" + CRLF)


def html_only(sender: str) -> bytes:
    """HTML only, with script, style, a 5,000-deep tag nest and a command."""
    html = (b"<html><head><style>p{}</style><script>alert('x')</script></head><body>"
            + b"<div>" * 5000 + b"<p>STATUS</p><p>BUY</p>" + b"</div>" * 5000 + b"</body></html>")
    return _plain(sender, "html-only", html, extra=[]).replace(b"text/plain", b"text/html", 1)


def binary_garbage(sender: str) -> bytes:
    """Bytes 0-255 repeated, with no header/body separator at all."""
    return bytes(range(256)) * 400


def no_sender(sender: str) -> bytes:
    """No From header at all."""
    return (b"To: admin@example.org" + CRLF + b"Subject: who am I" + CRLF
            + b"Message-ID: <hostile-no-sender@test.invalid>" + CRLF + CRLF + b"BUY" + CRLF)


def spoofed_sender(sender: str) -> bytes:
    """An outsider whose From display name is an encoded word that decodes to a player's
    name and address: ``=?utf-8?B?...?= <mallory@evil.example>`` where ... is "Bob <bob@example.org>"."""
    import base64

    name = base64.b64encode(b"Bob <bob@example.org>").decode()
    return (b"From: =?utf-8?B?" + name.encode() + b"?= <mallory@evil.example>" + CRLF
            + b"To: admin@example.org" + CRLF + b"Subject: it is me, Bob" + CRLF
            + b"Message-ID: <hostile-spoof@test.invalid>" + CRLF
            + b"Date: Wed, 04 Nov 2026 10:00:00 +0000" + CRLF + CRLF + b"BUY" + CRLF + b"STATUS" + CRLF)


def empty(sender: str) -> bytes:
    return b""


def proposal_bomb(sender: str) -> bytes:
    """A PROPOSE block of 200,000 characters and a PROPOSE that never ENDs."""
    text = (b"word " * 40_000).strip()
    return _plain(sender, "proposal-bomb", b"PROPOSE Huge" + CRLF + text + CRLF + b"END" + CRLF
                  + b"PROPOSE Never ends" + CRLF + b"ADD RULE VI: x" + CRLF)


def hundred_thousand_commands(sender: str) -> bytes:
    """100,000 lines ``BUY 9`` (600 KB): read up to the line limit, carried out up to the command limit."""
    return _plain(sender, "hundred-thousand-commands", (b"BUY 9" + CRLF) * 100_000)


def hundred_thousand_junk(sender: str) -> bytes:
    """100,000 lines of junk (each a different word): the receipt must stay small."""
    return _plain(sender, "hundred-thousand-junk", b"".join(b"zq%d" % i + CRLF for i in range(100_000)))


def rfc2231_content_type(sender: str) -> bytes:
    """A Content-Type with 20,000 RFC 2231 parameter segments (460 KB): refused before parsing."""
    params = b"".join(b"; name*%d*=utf-8''a%%41" % i for i in range(20_000))
    return (_headers(sender, b"rfc2231", "hostile-rfc2231@test.invalid",
                     [b"Content-Type: text/plain" + params]) + CRLF + b"STATUS" + CRLF)


def long_part_headers(sender: str) -> bytes:
    """Two hundred parts, each with a 2 KB Content-Disposition."""
    part = (b"--p" + CRLF + b"Content-Type: text/plain" + CRLF + b"Content-Disposition: inline; "
            + b"; ".join(b"x%d=y" % i for i in range(300)) + CRLF + CRLF + b"STATUS" + CRLF)
    return (_headers(sender, b"long part headers", "hostile-long-part-headers@test.invalid",
                     [b"Content-Type: multipart/mixed; boundary=\"p\""]) + CRLF + part * 200 + b"--p--" + CRLF)


def _address(sender: str) -> bytes:
    return sender.split("<")[-1].strip(">").encode()


def from_two_addresses(sender: str) -> bytes:
    """``From: alice@example.org <mallory@evil.example>``: a player's address as a display name."""
    return _plain(_address(sender).decode() + " <mallory@evil.example>", "from-two-addresses", b"BUY" + CRLF)


def from_list(sender: str) -> bytes:
    """``From: alice@example.org;mallory@evil.example``: two addresses run together."""
    return _plain(_address(sender).decode() + ";mallory@evil.example", "from-list", b"BUY" + CRLF)


def from_encoded_domain(sender: str) -> bytes:
    """``From: alice@=?utf-8?q?example.org?=``: the domain in an encoded word."""
    local, _, domain = _address(sender).decode().partition("@")
    return _plain(f"{local}@=?utf-8?q?{domain}?=", "from-encoded-domain", b"BUY" + CRLF)


def out_of_office(sender: str) -> bytes:
    """An out-of-office reply with ``Precedence: auto_reply`` and no In-Reply-To."""
    return _plain(sender, "out-of-office", b"I am away until Monday." + CRLF + b"STATUS" + CRLF,
                  extra=[b"Precedence: auto_reply", b"X-Autoreply: yes"], subject=b"Out of office")


def control_characters(sender: str) -> bytes:
    """ESC, BEL and a right-to-left override in a square's name and a proposal's title."""
    return _plain(sender, "control-characters",
                  "NAME 3 Evil[31m ‮Street".encode() + CRLF
                  + "PROPOSE Title ]0;x ‮gnirts".encode() + CRLF + b"Some text." + CRLF
                  + b"END" + CRLF)


def refused_line_escapes(sender: str) -> bytes:
    """A line that is no command, holding ESC sequences (clear the screen, recolour) and RLO: its
    quote in the receipt must show them as escapes, never raw."""
    return _plain(sender, "refused-line-escapes",
                  "HELLO [2J[31m ‮evil‬ world".encode() + CRLF + b"STATUS" + CRLF)


def token_without_token(sender: str) -> bytes:
    """A TOKEN line from a player who has no token (none required): noted, the rest carried out."""
    return _plain(sender, "token-without-token", b"TOKEN not-a-real-secret" + CRLF + b"STATUS" + CRLF)


CORPUS: dict[str, Callable[[str], bytes]] = {
    "huge-mail": huge_mail, "deep-mime-nesting": deep_mime, "zip-bomb": zip_bomb,
    "ten-thousand-lines": many_commands, "nul-bytes": nul_bytes, "invalid-utf8": invalid_utf8,
    "bogus-charset": bogus_charset, "header-injection": header_injection, "one-mb-line": one_mb_line,
    "many-headers": many_headers, "many-parts": many_parts, "unterminated-multipart": unterminated_multipart,
    "html-only": html_only, "binary-garbage": binary_garbage, "no-sender": no_sender, "empty": empty,
    "spoofed-sender": spoofed_sender,
    "proposal-bomb": proposal_bomb,
    "hundred-thousand-commands": hundred_thousand_commands, "hundred-thousand-junk": hundred_thousand_junk,
    "rfc2231-content-type": rfc2231_content_type, "long-part-headers": long_part_headers,
    "from-two-addresses": from_two_addresses, "from-list": from_list, "from-encoded-domain": from_encoded_domain,
    "out-of-office": out_of_office, "control-characters": control_characters,
    "empty-parts-flood": empty_parts_flood, "refused-line-escapes": refused_line_escapes,
    "token-without-token": token_without_token,
}


def write_corpus(out: Path, sender: str = "Alice <alice@example.org>") -> dict[str, Path]:
    """Write every corpus file into ``out``; returns name -> path."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, make in CORPUS.items():
        path = out / f"{name}.eml"
        path.write_bytes(make(sender))
        paths[name] = path
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--from", dest="sender", default="Alice <alice@example.org>")
    args = ap.parse_args(argv)
    for name, path in write_corpus(args.out, args.sender).items():
        print(f"{path}  {path.stat().st_size:>10} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
