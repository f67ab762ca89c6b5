"""``deadlines.ics``: the coming updates' deadlines as an iCalendar file (RFC 5545, written with
the ``icalendar`` library), so players can subscribe to them. Deterministic: no clock is read
(every event's DTSTAMP is ``made``, the time the game's state was made: its last update's cutoff,
or the game's start before the first), so the same state builds the same file."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

#: how long before its deadline a deadline's calendar event starts (it ends at the deadline)
LEAD = timedelta(minutes=30)


def deadlines_ics(title: str, site_url: str, upcoming: list[tuple[int, int, str, str, str]],
                  votes: bool = True, made: datetime | None = None) -> bytes:
    """The calendar of ``upcoming`` deadlines: (update, week, slot, ISO time, shown); ``votes``
    False for a game without proposals (Technopoly, Timopoly), whose players send only commands;
    ``made`` when the state these deadlines come from was made (each event's DTSTAMP, in UTC as
    RFC 5545 asks; the first deadline when unknown)."""
    # imported here, when a site is built: the library takes 10 MB and a quarter of a second to
    # import, which every other job (an update's intake, replay, the CLI) would pay for nothing
    import icalendar

    host = urlsplit(site_url).hostname or "nomopoly.invalid"
    cal = icalendar.Calendar()
    cal.add("prodid", "-//nomopoly//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{title}: deadlines")
    for update, week, slot, iso, _ in upcoming:
        due = datetime.fromisoformat(iso)
        stamp = (made or due).astimezone(timezone.utc)
        event = icalendar.Event()
        event.add("uid", f"{_slug(title)}-update-{update}@{host}")
        event.add("dtstamp", stamp)
        event.add("dtstart", due - LEAD)
        event.add("dtend", due)
        event.add("summary", f"{title}: mail for update {update} closes")
        what = "commands, proposals and votes" if votes else "commands"
        event.add("description", f"Week {week}, {slot} update: {what} must arrive by the end of this event.")
        if site_url:
            event.add("url", f"{site_url}/howto.html")
        cal.add_component(event)
    ical: bytes = cal.to_ical()
    return ical


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-") or "game"
