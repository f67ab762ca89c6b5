"""Mail at the edges: sources, intake and ledger, message bodies, the command grammar, auth, outbox."""
