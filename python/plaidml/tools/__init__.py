# ===- tools/__init__.py - The package's commands -------------------------===#
#
# The console entry points pip installs (pyproject.toml): plaidml-setup
# (setup.py), plaidml-run (run.py) and plaidbench (bench.py), written on the
# package's API. The C++ tools of the same names in build/bin do the same
# from a build tree; docs/Python.md lists the differences.
#
# ===----------------------------------------------------------------------===#
