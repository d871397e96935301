"""caveat's judging layer: rule packs, the rule engine, the command line and the renderers.

``__version__`` is the one place the version is written: pyproject.toml reads it from here
(``[tool.setuptools.dynamic]``), and the output formats print it without asking the installed
package's metadata (importing importlib.metadata cost a one-file check ~30 ms).
"""
__version__ = "0.1.0"
