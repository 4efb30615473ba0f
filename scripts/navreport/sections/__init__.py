"""The sections of the report, one module each; page.py lists them in page order and is the only caller of their build(ctx). base.py: what a section gives the page."""
