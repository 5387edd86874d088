"""No import cycles among bleuprint's modules, type-only imports included.

The layers themselves are import-linter contracts in pyproject.toml (``lint-imports``, run by
.ci/run). Its ``acyclic_siblings`` contract compares siblings, so it cannot see a cycle through a
package's ``__init__`` (``cli/__init__.py`` importing ``cli.score``, which imports ``cli``); this
test looks at every module, packages' ``__init__`` included.
"""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest


def _cycles(package: str) -> list[str]:
    """Each import ``a -> b`` for which ``b`` reaches ``a`` again, as the whole loop."""
    graph = grimp.build_graph(package, exclude_type_checking_imports=False, cache_dir=None)
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer) - {importer}):
            # (a package importing its compiled extension is seen importing itself: no loop)
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                cycles.append(" -> ".join((importer, *back)))
    return cycles


def test_no_module_of_bleuprint_imports_one_that_imports_it_back() -> None:
    cycles = _cycles("bleuprint")
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_a_type_only_cycle_through_a_package_init_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the bleuprint test must catch and acyclic_siblings cannot: the package imports a
    # submodule, which imports the package back only for type hints.
    package = tmp_path / "cyclic_fixture"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "inner" / "__init__.py").write_text("from cyclic_fixture.inner import leaf\n")
    (package / "inner" / "leaf.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from cyclic_fixture.inner import Thing\n"
    )
    (package / "plain.py").write_text("import cyclic_fixture.inner.leaf\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _cycles("cyclic_fixture") == [
        "cyclic_fixture.inner -> cyclic_fixture.inner.leaf -> cyclic_fixture.inner",
        "cyclic_fixture.inner.leaf -> cyclic_fixture.inner -> cyclic_fixture.inner.leaf",
    ]
