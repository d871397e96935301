"""Built-in rule packs (data only: rules/<pack>/<CODE>.yaml). Installed as the package
``caveat_rules`` so validator.packs can find the YAML files in a non-editable install."""
