"""The examples in the docstrings run and hold: the native functions' (which
pytest's --doctest-modules does not see inside an extension module) and the
Python modules' of the installed package."""

import doctest
import importlib

import pytest

import exact_collision as ec


@pytest.mark.parametrize("module", ["exact_collision", "exact_collision.ccd_csv", "exact_collision.distributed"])
def test_module_examples(module):
    r = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert r.failed == 0 and r.attempted > 0


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


def test_stub_names_match_the_module():
    """Every function of the native module has a stub, and every stub a function."""
    import ast
    from pathlib import Path

    import exact_collision._native as native

    stub = Path(native.__file__).with_name("_native.pyi")
    tree = ast.parse(stub.read_text())
    defs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    funcs = {n for n in dir(native) if callable(getattr(native, n)) and not n.startswith("_") and n != "QueryError"}
    assert defs == funcs
