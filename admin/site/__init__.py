"""The static site: read the public state, render jinja2 templates, write a folder."""
