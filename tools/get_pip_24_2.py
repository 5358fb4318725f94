"""Offline stand-in for ansible-test's get-pip bootstrap (see docs/development.md).

ansible-test bootstraps pip into its sanity venvs by running a cached get-pip script; where the
host that serves it is unreachable, this file (copied into ~/.ansible/test/cache/ next to the pip
wheel from PyPI) installs pip from that wheel instead.
"""
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WHEEL = sorted(glob.glob(os.path.join(HERE, "pip-24.2-*.whl")))[-1]
sys.path.insert(0, WHEEL)  # import pip straight from the wheel (zip import)

from pip._internal.cli.main import main  # noqa: E402  (needs the wheel on sys.path first)

ARGS = [a for a in sys.argv[1:] if a not in ("--no-setuptools", "--no-wheel")]
sys.exit(main(["install", "--upgrade", "--force-reinstall"] + ARGS))
