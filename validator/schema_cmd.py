"""`caveat schema NAME`: print a published JSON Schema (validator/schemas/NAME.schema.json)."""
from __future__ import annotations

import sys

import click


@click.command("schema")
@click.argument("name", required=False)
def schema_command(name):
    """Print the JSON Schema of a JSON output: json (check --format json), report
    (report.json); without NAME, list them."""
    from validator import schemas
    known = schemas.names()
    if not name:
        click.echo("\n".join(known))
        return
    try:
        sys.stdout.write(schemas.text(name))
    except KeyError:
        from validator.config import did_you_mean
        click.echo(f"caveat: no schema {name!r}{did_you_mean(name, known)} (known: {', '.join(known)})",
                   err=True)
        sys.exit(2)
