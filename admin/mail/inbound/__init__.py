"""Mail in: sources (Maildir, IMAP), intake and the ledger, the message's text, who sent it, how much
of it is read, and the command grammar."""
