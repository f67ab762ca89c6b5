"""Mail out: composing receipts and results, the outbox queue and its files, SMTP."""
