"""The house stays small enough to find things in (issue 56): no module over 400 lines, in the
core or the reference solvers; no folder of the core with more than 15 modules (``cli/`` and
``problems/`` hold one module per command or family and may hold more); the package root at
most 8. A module is a ``.py`` file, ``__init__.py`` included. The harness's own tighter rule
(at most 12 modules at its top) is ``test_layers.test_harness_is_a_few_small_rooms``."""

from __future__ import annotations

from pathlib import Path

from tests.house.import_graph import BASELINES, BASELINES_ROOT, PACKAGE, SRC

MODULE_LINES = 400
FOLDER_MODULES = 15
ROOT_MODULES = 8
#: Folders of the core (relative to the package) that hold one module per command or family.
MANY_MODULES = ("cli", "problems")


def long_modules(roots: list[Path], most: int = MODULE_LINES) -> dict[str, int]:
    """Every module below ``roots`` longer than ``most`` lines, with its length."""
    out = {}
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > most:
                out[str(path.relative_to(root.parent))] = n
    return out


def crowded_folders(package: Path, most: int = FOLDER_MODULES, root_most: int = ROOT_MODULES,
                    excepted: tuple[str, ...] = MANY_MODULES) -> dict[str, int]:
    """Every folder of ``package`` (the package itself included) with more modules than it
    may hold: ``root_most`` for the package, ``most`` for the others but ``excepted``."""
    out = {}
    for folder in sorted({p.parent for p in package.rglob("*.py")}):
        relative = folder.relative_to(package).as_posix()
        if relative in excepted:
            continue
        limit = root_most if folder == package else most
        n = sum(1 for _ in folder.glob("*.py"))
        if n > limit:
            out[relative] = n
    return out


def test_no_module_over_400_lines() -> None:
    assert long_modules([SRC / PACKAGE, BASELINES_ROOT / BASELINES]) == {}


def test_no_folder_of_the_core_is_crowded() -> None:
    assert crowded_folders(SRC / PACKAGE) == {}


def test_the_checks_see_what_they_count() -> None:
    """Both checks read the real tree: the package has its modules and the cli its many."""
    counts = {f: sum(1 for _ in (SRC / PACKAGE / f).glob("*.py")) for f in MANY_MODULES}
    assert all(n > 1 for n in counts.values()), counts
    assert long_modules([SRC / PACKAGE], most=100)  # the core has modules longer than 100 lines
    assert "cli" in crowded_folders(SRC / PACKAGE, most=FOLDER_MODULES, excepted=())


def test_the_checks_catch_a_planted_long_module_and_crowded_folders(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "room").mkdir(parents=True)
    (package / "cli").mkdir()
    for i in range(ROOT_MODULES + 1):
        (package / f"root{i}.py").write_text("x = 1\n")
    for i in range(FOLDER_MODULES + 1):
        (package / "room" / f"m{i}.py").write_text("x = 1\n")
        (package / "cli" / f"c{i}.py").write_text("x = 1\n")
    (package / "room" / "long.py").write_text("x = 1\n" * (MODULE_LINES + 1))
    (package / "room" / "fits.py").write_text("x = 1\n" * MODULE_LINES)
    assert long_modules([package]) == {"pkg/room/long.py": MODULE_LINES + 1}
    assert crowded_folders(package) == {".": ROOT_MODULES + 1, "room": FOLDER_MODULES + 3}
