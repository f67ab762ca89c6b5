"""Rules in controlled English: a small language that reads like the seeds' own rules, so that the
text players vote on can also be what runs. :func:`~admin.nomic.rulelang.parse.parse_rule` reads a
rule into a typed :class:`~admin.nomic.rulelang.model.Rule` (or says which words it could not
read), and :func:`~admin.nomic.rulelang.words.rule_words` restates it in plain words."""
