"""The settings mail out works from: the game's sender, its title and site, its timezone and
when reminders go, and the SMTP server when there is one (``[mail]`` and ``[mail.smtp]`` in
``nomopoly.toml``), read once per mail-out, and the messages they make."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timezone, tzinfo
from email.message import EmailMessage

from admin.engine.errors import MailError
from admin.engine.model import GameState
from admin.mail.outbound import compose
from admin.mail.outbound.smtp import SmtpConfig
from admin.store.gamedir import GameDir

DEFAULT_FROM = "nomopoly@localhost"
DEFAULT_REMIND_HOURS = 24.0


# -- settings ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MailSettings:
    """Mail-out settings from ``nomopoly.toml``: ``[mail]`` ``from_address``, ``from_name``,
    ``admin_address``, ``remind_hours`` (24), ``remind_proposals`` (false), and ``[mail.smtp]``
    (when absent, the outbox folder is the delivery)."""

    game_id: str
    from_address: str
    from_name: str
    admin_address: str | None
    remind_hours: float
    remind_proposals: bool
    smtp: SmtpConfig | None
    smtp_error: str | None
    site_url: str
    title: str
    #: the game's timezone ([game] timezone): the times the mail shows are in it
    zone: tzinfo = timezone.utc

    @classmethod
    def read(cls, game: GameDir, state: GameState) -> MailSettings:
        from admin.jobs.deadlines import game_zone

        settings = game.settings()
        mail = settings.section("mail")
        table = settings.section("mail.smtp")
        smtp, smtp_error = None, None
        if table:
            try:
                smtp = SmtpConfig.from_dict(table)
            except MailError as e:
                smtp_error = str(e)
        imap_user = str(settings.section("mail.imap").get("user", ""))
        from_address = (smtp.from_address if smtp else None) or str(
            mail.get("from_address") or table.get("from_address")
            or (imap_user if "@" in imap_user else DEFAULT_FROM))
        title = settings.title or str(settings.section("game").get("title") or state.name)
        hours = mail.get("remind_hours", DEFAULT_REMIND_HOURS)
        if isinstance(hours, bool) or not isinstance(hours, (int, float)) or hours <= 0:
            raise MailError(f"[mail] remind_hours = {hours!r} in nomopoly.toml must be a number of "
                            "hours above 0, e.g. remind_hours = 24")
        admin = mail.get("admin_address")
        if admin is not None and (not isinstance(admin, str) or "@" not in admin):
            raise MailError(f"[mail] admin_address = {admin!r} in nomopoly.toml is not a mail "
                            "address; use e.g. admin_address = \"admin@example.org\"")
        return cls(game_id=state.name, from_address=from_address,
                   from_name=str((smtp.from_name if smtp else None) or mail.get("from_name") or title),
                   admin_address=admin, remind_hours=float(hours),
                   remind_proposals=bool(mail.get("remind_proposals", False)), smtp=smtp,
                   smtp_error=smtp_error, site_url=settings.site_url, title=title, zone=game_zone(game))

    @property
    def domain(self) -> str:
        return self.from_address.rpartition("@")[2]

    @property
    def sender(self) -> str:
        return compose.address_of(self.from_name, self.from_address)

    def message_id(self, purpose: str) -> str:
        return compose.make_message_id(self.game_id, purpose, self.domain)

    def message(self, *, purpose: str, to: str, subject: str, kind: str, body: str,
                extra_headers: dict[str, str] | None = None) -> EmailMessage:
        answer = kind in ("receipt", "ack")
        auto = compose.AUTO_SUBMITTED_RECEIPT if answer else compose.AUTO_SUBMITTED_RESULTS
        return compose.new_message(sender=self.sender, to=to, subject=subject,
                             message_id=self.message_id(purpose), auto_submitted=auto, kind=kind,
                             body=body, extra_headers=extra_headers)

    def text_args(self) -> dict[str, str]:
        return {"title": self.title, "site_url": self.site_url}
