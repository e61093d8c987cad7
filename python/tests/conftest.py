"""Shared set-up of the Python package's tests, and the result line the
project's test summary reads (tests/summary.sh: "lk-result: P passed, F
failed"; skipped tests are counted in neither)."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.environ.get("LK_TOP_SRCDIR", os.path.normpath(os.path.join(HERE, "..", "..")))
BUILDDIR = os.environ.get("LK_TOP_BUILDDIR", "")


def mech(name):
    return os.path.join(SRCDIR, "mechanisms", name)


@pytest.fixture
def srcdir():
    return SRCDIR


@pytest.fixture
def builddir():
    if not BUILDDIR:
        pytest.skip("LK_TOP_BUILDDIR is not set (run through make check)")
    return BUILDDIR


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    stats = terminalreporter.stats
    passed = len(stats.get("passed", []))
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    for rep in stats.get("skipped", []):
        if isinstance(rep.longrepr, tuple):
            terminalreporter.write_line("skipped: %s: %s" % (rep.nodeid, rep.longrepr[2]))
    terminalreporter.write_line("lk-result: %d passed, %d failed" % (passed, failed))
    sys.stdout.flush()
