"""Write the mail corpus: real-shaped ``.eml`` files and ``expected.yaml`` (hand-written outcomes).

Run ``python tests/mail_corpus/make_corpus.py`` after editing; the files it writes are checked in.
Each entry is (file name, raw bytes, expected). The expectations are written here by hand, next
to the message they describe; they are never computed by the code under test.

Expected keys: ``kind``; ``verdicts`` (``ok: <command dict>`` or ``error: <substring>``), repeated
``repeat`` times if given; optional ``sender``, ``message_id``, ``subject``, ``first_lines`` (the
line numbers of the verdicts), ``problems`` (substrings, in order) and ``max_bytes``.
"""

from __future__ import annotations

import base64
import quopri
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
ADMIN = "Nomopoly Admin <admin@nomopoly.example>"
Q = "\u201c"  # left curly quote


def eml(headers: list[tuple[str, str]], body: str | bytes, *, crlf: bool = False) -> bytes:
    head = "".join(f"{name}: {value}\n" for name, value in headers).encode("utf-8")
    data = head + b"\n" + (body.encode("utf-8") if isinstance(body, str) else body)
    return data.replace(b"\n", b"\r\n") if crlf else data


def std(sender: str, subject: str, msgid: str, *extra: tuple[str, str],
        ctype: str = 'text/plain; charset="UTF-8"', cte: str | None = None) -> list[tuple[str, str]]:
    headers = [
        ("Return-Path", f"<{sender.split('<')[-1].rstrip('>')}>"),
        ("MIME-Version", "1.0"),
        ("Date", "Tue, 3 Mar 2026 10:15:42 +0100"),
        ("Message-ID", f"<{msgid}>"),
        ("Subject", subject),
        ("From", sender),
        ("To", ADMIN),
        *extra,
        ("Content-Type", ctype),
    ]
    if cte:
        headers.append(("Content-Transfer-Encoding", cte))
    return headers


def qp(text: str, charset: str = "utf-8") -> str:
    return quopri.encodestring(text.encode(charset)).decode("ascii")


def b64(data: bytes) -> str:
    raw = base64.b64encode(data).decode("ascii")
    return "\n".join(raw[i : i + 76] for i in range(0, len(raw), 76)) + "\n"


def ok(**cmd: Any) -> dict[str, Any]:
    return {"ok": cmd}


def err(substring: str) -> dict[str, str]:
    return {"error": substring}


BUY14 = ok(cmd="buy", square=14)
VOTE7Y = ok(cmd="vote", proposal=7, choice="yes")
STATUS = ok(cmd="status")
#: a line of chatter (a greeting, a sign-off, an out-of-office sentence): ignored, briefly
CHAT = err("not a command: ignored")
GMAIL_QUOTE = (
    "On Mon, Mar 2, 2026 at 6:00 PM Nomopoly Admin <admin@nomopoly.example>\nwrote:\n\n"
    "> Update 12 is out. Your turn:\n> BUY 3\n> STATUS\n>\n"
)
ALICE = "Alice Smith <alice@example.com>"

ENTRIES: list[tuple[str, bytes, dict[str, Any]]] = []


def add(name: str, raw: bytes, **expected: Any) -> None:
    expected.setdefault("kind", "normal")
    ENTRIES.append((name, raw, expected))


# ---------------------------------------------------------------- clients and replies
gmail_plain = "BUY 14\nVOTE 7 yes\n\n" + GMAIL_QUOTE
gmail_html = ('<div dir="ltr"><div>BUY 14</div><div>VOTE 7 yes</div></div><br><div class="gmail_quote">'
              '<div dir="ltr" class="gmail_attr">On Mon, Mar 2, 2026 at 6:00 PM Nomopoly Admin &lt;'
              'admin@nomopoly.example&gt; wrote:<br></div><blockquote class="gmail_quote">Update 12'
              '<br>BUY 3</blockquote></div>\n')
add("gmail_reply_alternative.eml", eml(std(
    ALICE, "Re: [nomopoly] Update 12", "CAF=abc123@mail.gmail.com",
    ("In-Reply-To", "<update-12@nomopoly.example>"),
    ("References", "<update-11@nomopoly.example>\n <update-12@nomopoly.example>"),
    ctype='multipart/alternative; boundary="000000000000a1b2c3"'),
    f"--000000000000a1b2c3\nContent-Type: text/plain; charset=\"UTF-8\"\n\n{gmail_plain}\n"
    f"--000000000000a1b2c3\nContent-Type: text/html; charset=\"UTF-8\"\n"
    f"Content-Transfer-Encoding: quoted-printable\n\n{qp(gmail_html)}\n--000000000000a1b2c3--\n"),
    verdicts=[BUY14, VOTE7Y], sender="alice@example.com", message_id="CAF=abc123@mail.gmail.com",
    first_lines=[1, 2])

add("gmail_wrapped_wrote.eml", eml(std(ALICE, "Re: Update 12", "g2@mail.gmail.com"),
    "status\n\nOn Mon, Mar 2, 2026 at 6:00 PM Nomopoly Admin <\nadmin@nomopoly.example> wrote:\n"
    "\n> BUY 3\n"), verdicts=[STATUS])

outlook_plain = ("BUY 14\nNAME 14 Bob\u2019s Arcade\n\nBob\n\n"
                 "-----Original Message-----\nFrom: Nomopoly Admin <admin@nomopoly.example>\n"
                 "Sent: Monday, March 2, 2026 6:00 PM\nTo: Bob Jones\nSubject: Update 12\n"
                 "\nBUY 3\n")
add("outlook_desktop_original_message.eml", eml(std(
    "Bob Jones <Bob.Jones@Contoso.example>", "RE: Update 12",
    "DM6PR11MB1234.namprd11.prod.outlook.com",
    ("Thread-Topic", "Update 12"), ("X-MS-Has-Attach", ""),
    ctype='multipart/alternative; boundary="_000_DM6PR11MB_"'),
    "--_000_DM6PR11MB_\nContent-Type: text/plain; charset=\"windows-1252\"\n"
    "Content-Transfer-Encoding: quoted-printable\n\n" + qp(outlook_plain, "cp1252")
    + "\n--_000_DM6PR11MB_\nContent-Type: text/html; charset=\"windows-1252\"\n\n"
    "<html><body><p>BUY 14</p><p>NAME 14 Bob&#8217;s Arcade</p></body></html>\n"
    "--_000_DM6PR11MB_--\n", crlf=True),
    verdicts=[BUY14, ok(cmd="name", square=14, name="Bob\u2019s Arcade"), CHAT],
    sender="bob.jones@contoso.example")

add("outlook_web_header_block.eml", eml(std(
    "Carol <carol@outlook.example>", "Re: Update 12", "AM0PR02MB5555@outlook.example"),
    "VOTE P7 no\n\n________________________________\nFrom: Nomopoly Admin "
    "<admin@nomopoly.example>\nSent: Monday, March 2, 2026 18:00\nTo: carol@outlook.example\n"
    "Subject: Update 12\n\nBUY 3\n"), verdicts=[ok(cmd="vote", proposal=7, choice="no")])

outlook_html = ('<html><head><style>p {margin:0}</style></head><body><div dir="ltr">'
                '<div style="font-family:Calibri">BURY 10h</div><div>PLACE ks on square 9</div>'
                '</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%">'
                '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Nomopoly '
                'Admin &lt;admin@nomopoly.example&gt;<br><b>Sent:</b> Monday, March 2, 2026 6:00 PM'
                '<br><b>To:</b> Carol<br><b>Subject:</b> Update 12</font><div>BUY 3</div></div>'
                '</body></html>')
add("outlook_web_html_only.eml", eml(std(
    "Carol <carol@outlook.example>", "Re: Update 12", "AM0PR02MB6666@outlook.example",
    ctype='text/html; charset="iso-8859-1"', cte="quoted-printable"), qp(outlook_html, "latin-1")),
    verdicts=[ok(cmd="bury", card="10H"), ok(cmd="place", card="KS", square=9)])

add("apple_mail_reply.eml", eml(std(
    "Dave <dave@icloud.example>", "Re: Update 12", "8F2A1B3C-1D2E-4F5A-9B8C@icloud.example",
    ("X-Mailer", "Apple Mail (2.3774.600.62)"), ctype="text/plain; charset=us-ascii",
    cte="7bit"),
    "JOIN Dave Brubeck\n\n> On 2 Mar 2026, at 18:00, Nomopoly Admin <admin@nomopoly.example> "
    "wrote:\n> \n> BUY 3\n\n"), verdicts=[ok(cmd="join", name="Dave Brubeck")])

add("apple_mail_wrapped_wrote.eml", eml(std(
    "Dave <dave@icloud.example>", "Re: Update 12", "AM2@icloud.example",
    ctype="text/plain; charset=utf-8"),
    "BUY\n\nOn 2 Mar 2026, at 18:00, Nomopoly Admin <admin@nomopoly.example>\nwrote:\n\nBUY 3\n"),
    verdicts=[ok(cmd="buy", square=None)])

apple_html = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8">'
              '</head><body style="overflow-wrap: break-word;">VOTE #7 abstain<div><br></div>'
              '<div>STATUS<br><div><br><blockquote type="cite"><div>On 2 Mar 2026, at 18:00, '
              'Nomopoly Admin wrote:</div><br><div><div>BUY 3</div></div></blockquote></div>'
              '</div></body></html>')
add("apple_mail_html_only.eml", eml(std(
    "Dave <dave@icloud.example>", "Re: Update 12", "AM3@icloud.example",
    ctype="text/html; charset=utf-8", cte="quoted-printable"), qp(apple_html)),
    verdicts=[ok(cmd="vote", proposal=7, choice="abstain"), STATUS])

flowed = ("PROPOSE Free Parking jackpot\nAll fines and taxes go into a pot in the middle of the "
          "\nboard. A player who lands on Free Parking takes the pot.\nEND\n-- \nErin\n")
add("thunderbird_flowed_signature.eml", eml(std(
    "Erin <erin@posteo.example>", "Proposal", "a1b2c3d4-e5f6@posteo.example",
    ("User-Agent", "Mozilla Thunderbird"), ctype="text/plain; charset=UTF-8; format=flowed",
    cte="8bit"), flowed),
    verdicts=[ok(cmd="propose", title="Free Parking jackpot",
                 text="All fines and taxes go into a pot in the middle of the board. A player who "
                      "lands on Free Parking takes the pot.")])

add("iphone_sent_from.eml", eml(std(
    "Frank <frank@me.example>", "Re: Update 12", "iphone-1@me.example",
    ctype="text/plain; charset=utf-8", cte="quoted-printable"),
    qp("Buy 14\n\nSent from my iPhone\n\n> On Mar 2, 2026, at 18:00, Nomopoly Admin "
       "<admin@nomopoly.example> wrote:\n> \n> BUY 3\n")), verdicts=[BUY14])

add("android_outlook_footer.eml", eml(std(
    "Gina <gina@example.org>", "Re: Update 12", "android-1@example.org"),
    "bury as\n\nGet Outlook for Android\n________________________________\nFrom: Nomopoly Admin\n"
    "Sent: Monday, March 2, 2026 6:00:00 PM\nTo: Gina\nSubject: Update 12\n\nBUY 3\n"),
    verdicts=[ok(cmd="bury", card="AS")])

add("android_galaxy_sent_from.eml", eml(std(
    "Hank <hank@example.net>", "Re: Update 12", "galaxy-1@example.net"),
    "VOTE 7 YES\n\n\nSent from my Galaxy\n\n\n-------- Original message --------\nFrom: Nomopoly "
    "Admin <admin@nomopoly.example>\nDate: 02/03/2026 18:00 (GMT+00:00)\nBUY 3\n"),
    verdicts=[VOTE7Y])

add("yahoo_sent_from.eml", eml(std(
    "Ivy <ivy@yahoo.example>", "Re: Update 12", "yahoo-1@yahoo.example"),
    "STATUS\n\nSent from Yahoo Mail on Android\n\n  On Mon, Mar 2, 2026 at 18:00, Nomopoly Admin"
    "<admin@nomopoly.example> wrote:   BUY 3\n"), verdicts=[STATUS])

add("quoted_commands_ignored.eml", eml(std(ALICE, "Re: Update 12", "quoted-1@example.com"),
    "> BUY 3\nBUY 14\n  > > VOTE 7 no\n>STATUS\nVOTE 7 yes\n"),
    verdicts=[BUY14, VOTE7Y], first_lines=[2, 5])

add("greeting_and_thanks.eml", eml(std(ALICE, "my moves", "greet-1@example.com"),
    "Hi Admin,\n\nBUY 14\nPLACE 5X ON 3\n\nThanks!\nAlice\n"),
    verdicts=[CHAT, BUY14, err('"PLACE 5X ON 3": "5X" is not a card'), CHAT, CHAT])

# ---------------------------------------------------------------- HTML and MIME structure
add("html_only_divs.eml", eml(std(
    ALICE, "moves", "html-1@example.com", ctype="text/html; charset=utf-8"),
    "<html><body><div>BUY 14</div><div>vote 7 YES<br></div><div>NAME 14 <b>Big</b> "
    "<i>Top</i></div>\n<p>STATUS</p></body></html>\n"),
    verdicts=[BUY14, VOTE7Y, ok(cmd="name", square=14, name="Big Top"), STATUS])

add("html_inline_bold_and_entities.eml", eml(std(
    ALICE, "moves", "html-2@example.com", ctype="text/html; charset=utf-8"),
    "<p><b>BUY</b>&nbsp;14</p><p>NAME 14 Fish &amp; Chips</p><!-- BUY 99 -->"
    "<script>BUY 98</script>\n"),
    verdicts=[BUY14, ok(cmd="name", square=14, name="Fish & Chips")])

add("alternative_plain_preferred.eml", eml(std(
    ALICE, "moves", "alt-1@example.com", ctype='multipart/alternative; boundary="b1"'),
    "--b1\nContent-Type: text/plain; charset=utf-8\n\nBUY 14\n--b1\n"
    "Content-Type: text/html; charset=utf-8\n\n<p>BUY 14</p><p>STATUS</p>\n--b1--\n"),
    verdicts=[BUY14])

add("related_html_with_image.eml", eml(std(
    ALICE, "moves", "rel-1@example.com", ctype='multipart/related; boundary="r1"'),
    "--r1\nContent-Type: text/html; charset=utf-8\n\n<p>STATUS</p><img src=\"cid:img1\">\n--r1\n"
    "Content-Type: image/png\nContent-ID: <img1>\nContent-Transfer-Encoding: base64\n\n"
    + b64(b"\x89PNG\r\n\x1a\n" + bytes(range(256))) + "--r1--\n"), verdicts=[STATUS])

add("attachment_pdf.eml", eml(std(
    ALICE, "moves", "att-1@example.com", ctype='multipart/mixed; boundary="m1"'),
    "--m1\nContent-Type: text/plain; charset=utf-8\n\nBUY 14\nSee the attached map.\n--m1\n"
    "Content-Type: application/pdf; name=\"map.pdf\"\nContent-Disposition: attachment; "
    "filename=\"map.pdf\"\nContent-Transfer-Encoding: base64\n\n" + b64(b"%PDF-1.4\nBUY 3\n" * 40)
    + "--m1--\n"), verdicts=[BUY14, CHAT])

add("attachment_text_file_ignored.eml", eml(std(
    ALICE, "moves", "att-2@example.com", ctype='multipart/mixed; boundary="m2"'),
    "--m2\nContent-Type: multipart/alternative; boundary=\"a2\"\n\n--a2\nContent-Type: text/plain;"
    " charset=utf-8\n\nVOTE 7 yes\n--a2\nContent-Type: text/html; charset=utf-8\n\n<p>VOTE 7 yes"
    "</p>\n--a2--\n--m2\nContent-Type: text/plain; name=\"notes.txt\"\nContent-Disposition: "
    "attachment; filename=\"notes.txt\"\n\nBUY 3\nSTATUS\n--m2--\n"), verdicts=[VOTE7Y])

add("forwarded_rfc822_attachment.eml", eml(std(
    ALICE, "Fwd: old moves", "fwd-3@example.com", ctype='multipart/mixed; boundary="m3"'),
    "--m3\nContent-Type: text/plain; charset=utf-8\n\nSTATUS\n--m3\nContent-Type: message/rfc822"
    "\nContent-Disposition: attachment\n\nFrom: alice@example.com\nSubject: moves\n\nBUY 3\n"
    "--m3--\n"), verdicts=[STATUS])

nested = "".join(f'Content-Type: multipart/mixed; boundary="n{i}"\n\n--n{i}\n' for i in range(60))
add("deep_mime_nesting.eml", eml(std(
    ALICE, "STATUS", "deep-1@example.com", ctype='multipart/mixed; boundary="top"'),
    "--top\n" + nested + "Content-Type: text/plain\n\nBUY 14\n"),
    verdicts=[STATUS], first_lines=[0], problems=["nest deeper"])

# ---------------------------------------------------------------- transfer encodings, charsets
add("quoted_printable_utf8.eml", eml(std(
    ALICE, "moves", "qp-1@example.com", cte="quoted-printable"),
    "NAME 14 Caf=C3=A9 Cr=C3=A8me Br=C3=BBl=C3=A9e on the corner of the long avenue by t=\nhe sea\n"
    "BUY=2014\n"),
    verdicts=[ok(cmd="name", square=14,
                 name="Café Crème Brûlée on the corner of the long avenue by the sea"), BUY14])

add("base64_utf8.eml", eml(std(ALICE, "moves", "b64-1@example.com", cte="base64"),
    b64("JOIN Zoë Ñúñez\r\nVOTE 7 yes\r\n".encode("utf-8"))),
    verdicts=[ok(cmd="join", name="Zoë Ñúñez"), VOTE7Y])

add("windows_1252.eml", eml(std(
    ALICE, "moves", "cp-1@example.com", ctype="text/plain; charset=windows-1252", cte="8bit"),
    "NAME 5 \u201cDeluxe\u201d Caf\u00e9 \u2013 \u20ac1\nBUY 14\n".encode("cp1252")),
    verdicts=[ok(cmd="name", square=5, name="\u201cDeluxe\u201d Café \u2013 \u20ac1"), BUY14])

add("iso_8859_1.eml", eml(std(
    "=?iso-8859-1?q?J=FCrgen_M=FCller?= <juergen@example.de>", "=?iso-8859-1?q?Z=FCge?=",
    "latin-1@example.de", ctype="text/plain; charset=iso-8859-1", cte="8bit"),
    "NAME 3 Gro\u00dfe Stra\u00dfe\nSTATUS\n".encode("latin-1")),
    verdicts=[ok(cmd="name", square=3, name="Große Straße"), STATUS],
    sender="juergen@example.de", subject="Züge")

add("bogus_charset_utf42_utf8_bytes.eml", eml(std(
    ALICE, "moves", "bogus-1@example.com", ctype='text/plain; charset="utf-42"'),
    "JOIN Renée\n".encode("utf-8")),
    verdicts=[ok(cmd="join", name="Renée")], problems=['"utf-42" is unknown'])

add("bogus_charset_utf42_latin1_bytes.eml", eml(std(
    ALICE, "moves", "bogus-2@example.com", ctype="text/plain; charset=utf-42"),
    "JOIN Ren\u00e9e\nBUY 14\n".encode("latin-1")),
    verdicts=[ok(cmd="join", name="Renée"), BUY14], problems=['"utf-42" is unknown'])

add("invalid_utf8.eml", eml(std(ALICE, "moves \xff", "bad-utf8@example.com",
                                cte="8bit"), b"BUY 14\nJOIN Bad \xc3\x28 Bytes\xff\n"),
    verdicts=[BUY14, ok(cmd="join", name="Bad \ufffd( Bytes\ufffd")], problems=["replaced"])

add("no_charset_8bit_latin1.eml", eml(std(
    ALICE, "moves", "nocs-1@example.com", ctype="text/plain"), b"JOIN Jos\xe9\n"),
    verdicts=[ok(cmd="join", name="José")], problems=["not valid UTF-8"])

add("crlf_line_endings.eml", eml(std(ALICE, "moves", "crlf-1@example.com"),
    "BUY 14\nVOTE 7 yes\n\nPROPOSE\nLine one.\nLine two.\nEND\n", crlf=True),
    verdicts=[BUY14, VOTE7Y, ok(cmd="propose", title="Line one.", text="Line one.\nLine two.")],
    first_lines=[1, 2, 4])

add("nul_bytes.eml", eml(std(ALICE, "moves", "nul-1@example.com"),
    b"BU\x00Y 14\n\x00\nVOTE 7 \x00yes\n"), verdicts=[BUY14, VOTE7Y])

# ---------------------------------------------------------------- cut-offs
add("signature_dash_dash_space.eml", eml(std(ALICE, "moves", "sig-1@example.com"),
    "BUY 14\n-- \nAlice Smith\nBUY is what I do\n"), verdicts=[BUY14])

add("signature_bare_dash_dash.eml", eml(std(ALICE, "moves", "sig-2@example.com"),
    "STATUS\n--\nAlice\n"), verdicts=[STATUS])

add("forwarded_gmail_marker.eml", eml(std(ALICE, "Fwd: Update 12", "fwd-1@example.com"),
    "STATUS\n\n---------- Forwarded message ---------\nFrom: Nomopoly Admin "
    "<admin@nomopoly.example>\nDate: Mon, Mar 2, 2026 at 6:00 PM\nSubject: Update 12\n\nBUY 3\n"),
    verdicts=[STATUS])

add("forwarded_apple_marker.eml", eml(std(ALICE, "Fwd: Update 12", "fwd-2@example.com"),
    "BUY 14\n\nBegin forwarded message:\n\nFrom: Nomopoly Admin <admin@nomopoly.example>\n"
    "Subject: Update 12\n\nBUY 3\n"), verdicts=[BUY14])

add("french_reply.eml", eml(std("Léa <lea@example.fr>", "RE: Update 12", "fr-1@example.fr"),
    "VOTE 7 yes\n\nLe lun. 2 mars 2026 à 18:00, Nomopoly Admin <admin@nomopoly.example> a\n"
    "écrit :\n\nBUY 3\n"), verdicts=[VOTE7Y])

add("german_reply.eml", eml(std("Jörg <joerg@example.de>", "AW: Update 12", "de-1@example.de"),
    "STATUS\n\nAm Mo., 2. März 2026 um 18:00 Uhr schrieb Nomopoly Admin <admin@nomopoly.example>:"
    "\n\nBUY 3\n"), verdicts=[STATUS])

# ---------------------------------------------------------------- subject, proposals, tokens
add("subject_only_plain.eml", eml(std(ALICE, "Re: [nomopoly] VOTE 7 yes", "subj-1@example.com"),
    "\n\n"), verdicts=[VOTE7Y], first_lines=[0])

add("subject_only_signature_body.eml", eml(std(
    ALICE, "Fwd: RE: BUY 14", "subj-2@example.com", ctype="text/html; charset=utf-8"),
    "<div><br></div><div>-- <br>Alice</div>\n"), verdicts=[BUY14], first_lines=[0])

add("proposal_block.eml", eml(std(ALICE, "Proposal", "prop-1@example.com"),
    "# my proposal this week\nPROPOSE Rent doubles\nRent doubles on a monopoly.\n\n"
    "# This is part of the text\n  * even on railroads\n\nEND\nVOTE 7 yes\n"),
    verdicts=[ok(cmd="propose", title="Rent doubles",
                 text="Rent doubles on a monopoly.\n\n# This is part of the text\n"
                      "  * even on railroads"), VOTE7Y], first_lines=[2, 9])

add("proposal_missing_end.eml", eml(std(ALICE, "Proposal", "prop-2@example.com"),
    "PROPOSE\nEvery player gets $10.\nBUY 14\n-- \nAlice\n"),
    verdicts=[{**ok(cmd="propose", text="Every player gets $10.\nBUY 14"),
               "note": "has no END, so its text was read to the end of your email (line 3)"}])

add("token_and_commands.eml", eml(std(ALICE, "moves", "tok-1@example.com"),
    "TOKEN 9f8e7d6c\nBUY 14\n"), verdicts=[ok(cmd="token", secret="<redacted>"), BUY14])

add("missing_from_and_message_id.eml",
    b"Subject: =?utf-8?q?STATUS?=\nDate: not a date\nMessage-ID:\n: empty name\n"
    b"Content-Type: text/plain; charset=\"utf-8\nFrom: <<@@>>\nX-Broken header without colon\n"
    b"\nSTATUS\n", verdicts=[CHAT, STATUS], sender="", message_id="sha256:",
    first_lines=[1, 3])

add("long_proposal_10000_lines.eml", eml(std(ALICE, "Proposal", "long-1@example.com"),
    "PROPOSE The long one\n" + "".join(f"Clause {i}: players may trade.\n" for i in range(10_000))
    + "END\nSTATUS\n"),
    verdicts=[ok(cmd="propose", title="The long one"), STATUS], first_lines=[1, 10_003])

add("many_commands_10000_lines.eml", eml(std(ALICE, "moves", "long-2@example.com"),
    "VOTE 7 yes\n" * 10_000), verdicts=[VOTE7Y], repeat=10_000)

add("oversize_pasted_image.eml", eml(std(
    ALICE, "BUY 14", "big-1@example.com", ctype='multipart/mixed; boundary="o1"'),
    "--o1\nContent-Type: text/plain\n\nBUY 14\n--o1\nContent-Type: image/jpeg\n"
    "Content-Transfer-Encoding: base64\n\n" + b64(bytes(range(256)) * 120) + "--o1--\n"),
    verdicts=[], max_bytes=20_000, problems=["the limit is 20000 bytes"])

# ---------------------------------------------------------------- auto-replies and bounces
OOO = "I am out of the office until Monday.\n"
add("auto_submitted_auto_replied.eml", eml(std(
    ALICE, "Automatic reply: Update 12", "ooo-1@example.com", ("Auto-Submitted", "auto-replied")),
    OOO), kind="auto-reply", verdicts=[CHAT])
add("auto_submitted_no_is_normal.eml", eml(std(
    ALICE, "moves", "ooo-2@example.com", ("Auto-Submitted", "no")), "BUY 14\n"), verdicts=[BUY14])
add("x_autoreply.eml", eml(std(
    ALICE, "Out of office", "ooo-3@example.com", ("X-Autoreply", "yes")), OOO),
    kind="auto-reply", verdicts=[CHAT])
add("x_autorespond.eml", eml(std(
    ALICE, "Vacation", "ooo-4@example.com", ("X-Autorespond", "Vacation")), OOO),
    kind="auto-reply", verdicts=[CHAT])
add("precedence_bulk.eml", eml(std(
    ALICE, "Newsletter", "bulk-1@example.com", ("Precedence", "bulk")), "STATUS\n"),
    kind="auto-reply", verdicts=[STATUS])
add("precedence_junk.eml", eml(std(
    ALICE, "Newsletter", "junk-1@example.com", ("Precedence", "junk")), "STATUS\n"),
    kind="auto-reply", verdicts=[STATUS])
add("mailing_list_id.eml", eml(std(
    ALICE, "[games] weekly", "list-1@example.com", ("List-Id", "<games.lists.example>"),
    ("Precedence", "list")), "STATUS\n"), kind="auto-reply", verdicts=[STATUS])
add("list_unsubscribe.eml", eml(std(
    ALICE, "Deals", "list-2@example.com", ("List-Unsubscribe", "<mailto:unsub@example.com>")),
    "STATUS\n"), kind="auto-reply", verdicts=[STATUS])
add("bounce_mailer_daemon_report.eml", eml(std(
    "Mail Delivery Subsystem <MAILER-DAEMON@mx.example.com>", "Undelivered Mail Returned to "
    "Sender", "bounce-1@mx.example.com",
    ctype='multipart/report; report-type=delivery-status; boundary="rep"'),
    "--rep\nContent-Type: text/plain\n\nThis is the mail system.\n--rep\nContent-Type: "
    "message/delivery-status\n\nFinal-Recipient: rfc822; bob@example.com\nAction: failed\n--rep--"
    "\n"), kind="bounce", verdicts=[CHAT])
add("bounce_postmaster.eml", eml(std(
    "postmaster@example.org", "Delivery failure", "bounce-2@example.org"),
    "STATUS\n"), kind="bounce", verdicts=[STATUS], sender="postmaster@example.org")
add("bounce_null_return_path.eml", eml(
    [("Return-Path", "<>")] + std(ALICE, "Returned mail", "bounce-3@example.com")[1:],
    "BUY 14\n"), kind="bounce", verdicts=[BUY14])


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def main() -> None:
    for old in HERE.glob("*.eml"):
        old.unlink()
    expected: dict[str, Any] = {}
    for name, raw, exp in ENTRIES:
        (HERE / name).write_bytes(raw)
        expected[name] = exp
    with open(HERE / "expected.yaml", "w", encoding="utf-8") as f:
        f.write("# Written by make_corpus.py from hand-written expectations; edit it there.\n")
        yaml.dump(expected, f, Dumper=_NoAliases, sort_keys=True, allow_unicode=True, width=100)
    print(f"wrote {len(ENTRIES)} messages to {HERE}")


if __name__ == "__main__":
    main()
