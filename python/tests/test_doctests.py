"""The examples in the native functions' docstrings run and hold
(pytest's --doctest-modules does not look inside an extension module)."""

import doctest

import pytest

import exact_collision as ec


@pytest.mark.parametrize("name", [n for n in ec.__all__ if n != "QueryError"])
def test_docstring_examples(name):
    f = getattr(ec, name)
    tests = doctest.DocTestFinder().find(f, name, globs={})
    assert tests and tests[0].examples, f"{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    r = runner.summarize(verbose=False)
    assert r.failed == 0 and r.attempted > 0
