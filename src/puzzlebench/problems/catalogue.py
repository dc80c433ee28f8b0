"""The one table of problem families, and how a family is found.

Families come from three places, like solvers:

* every module of this package — each concrete ``Problem`` subclass that defines its own
  ``id`` is registered, so a new built-in family is one new file and no other edit;
* installed distributions' entry points in the group ``puzzlebench.problems`` (each names a
  ``Problem`` subclass or instance);
* a reference ``package.module:attr`` or ``path/to/file.py:attr`` given where a problem id
  goes (the CLI's PROBLEM argument, a study's ``problem`` key, ``get_problem``). A family
  loaded by reference is added to the environment variable ``PUZZLEBENCH_PROBLEMS``
  (comma-separated references, which a user may also set), so the processes the harness
  starts — workers, each run's own process — load it too.

Ids are unique: a second family with a taken id is refused.

A problem family is *judge code*: its validator decides every verdict, in the judge's
process. The harness isolates solvers (``harness.run.isolation``), not problems, so a problem
plugin is trusted as the validators are — install or name only families you would trust to
judge. It is never loaded because a solver asked for it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import pkgutil
import re
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from puzzlebench.problems.base import Instance, InvalidInstanceError, Problem
from puzzlebench.solvers.plugin_loader import PluginLoadError, load_attribute

ENTRY_POINT_GROUP = "puzzlebench.problems"
ENV_VAR = "PUZZLEBENCH_PROBLEMS"

PROBLEMS: dict[str, Problem] = {}
#: Where each family not built into the project comes from (a ``module:attr`` or file
#: reference, an entry point, a module): its validator is that code's, and records say so.
ORIGINS: dict[str, str] = {}
#: What a family's id may be.
PROBLEM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+=-]{0,63}")


def register_problem(problem: Problem | type[Problem], origin: str = "") -> Problem:
    """Add a family to the table (an instance, or a class built with no arguments)."""
    obj = problem() if isinstance(problem, type) else problem
    if not isinstance(obj, Problem):
        raise InvalidInstanceError(f"{origin or problem!r} is not a puzzlebench Problem")
    pid = getattr(obj, "id", None)
    if not isinstance(pid, str) or PROBLEM_ID.fullmatch(pid) is None:
        raise InvalidInstanceError(f"{origin or problem!r} declares no usable id (1-64 "
                                   "letters, digits and . _ + = -, starting with a letter or "
                                   "digit: it names files of reports and exports)")
    held = PROBLEMS.get(pid)
    if held is not None and type(held) is not type(obj):
        raise InvalidInstanceError(f"problem id {pid!r} is taken by {type(held).__qualname__}")
    PROBLEMS.setdefault(pid, obj)
    if origin and not _built_in(type(PROBLEMS[pid])):
        ORIGINS.setdefault(pid, origin)
    return PROBLEMS[pid]


def _built_in(cls: type) -> bool:
    return cls.__module__.startswith(f"{__package__}.")


def family_origin(problem_id: str) -> str:
    """Where a family's code comes from ('' for the project's own families): a judgement by
    its validator is a judgement by that code."""
    if problem_id in ORIGINS:
        return ORIGINS[problem_id]
    found = PROBLEMS.get(problem_id)
    if found is None or _built_in(type(found)):
        return ""
    return f"module {type(found).__module__}"


def _load_reference(ref: str) -> Problem:
    try:
        target: Any = load_attribute(ref, "problem")
    except PluginLoadError as exc:
        raise InvalidInstanceError(str(exc)) from None
    problem = register_problem(target, f"{ref} (sha256 {_digest(ref)})")
    refs = [r for r in os.environ.get(ENV_VAR, "").split(",") if r]
    if ref not in refs:
        os.environ[ENV_VAR] = ",".join([*refs, ref])
    return problem


def _digest(ref: str) -> str:
    """The first 12 hex digits of the SHA-256 of the file a ``module:attr`` or
    ``path.py:attr`` reference loads ('unknown' where it cannot be read)."""
    target = ref.rpartition(":")[0]
    try:
        if target.endswith(".py"):
            path = Path(target)
        else:
            spec = importlib.util.find_spec(target)
            path = Path(spec.origin) if spec is not None and spec.origin else Path()
        return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    except (OSError, ImportError, ValueError):
        return "unknown"


def _discover_entry_points() -> None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            register_problem(ep.load(), f"entry point {ep.name}")
        except Exception as exc:  # a broken plugin must not take the built-ins down
            print(f"puzzlebench: warning: problem entry point {ep.name!r} not loaded: {exc}",
                  file=sys.stderr)


def get_problem(problem_id: str) -> Problem:
    """The family for an id or a ``module:attr`` reference (InvalidInstanceError naming the
    known ids otherwise)."""
    if problem_id in PROBLEMS:
        return PROBLEMS[problem_id]
    if ":" in problem_id:
        return _load_reference(problem_id)
    raise InvalidInstanceError(f"unknown problem {problem_id!r}; known: {', '.join(PROBLEMS)}")


def problem_of(instance: Instance) -> Problem:
    """The family an instance belongs to; a family loaded by reference in another process is
    found again in its instance's module."""
    found = PROBLEMS.get(instance.problem)
    if found is not None:
        return found
    module = sys.modules.get(type(instance).__module__)
    for value in vars(module).values() if module else ():
        if isinstance(value, type) and issubclass(value, Problem) and \
                getattr(value, "id", None) == instance.problem:
            return register_problem(value)
    raise InvalidInstanceError(f"no problem family {instance.problem!r} is loaded")


def load_from_environment() -> None:
    """Load the families named by reference in ``PUZZLEBENCH_PROBLEMS`` (a run's process does
    this before it reads its task)."""
    for ref in (r.strip() for r in os.environ.get(ENV_VAR, "").split(",")):
        if ref:
            try:
                _load_reference(ref)
            except InvalidInstanceError as exc:
                print(f"puzzlebench: warning: {ENV_VAR}: {exc}", file=sys.stderr)


def _discover_builtins() -> None:
    for info in pkgutil.iter_modules([str(Path(__file__).parent)], prefix=f"{__package__}."):
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Problem) and obj.__module__ == \
                    module.__name__ and "id" in vars(obj) and not inspect.isabstract(obj):
                register_problem(obj)


_discover_builtins()
_discover_entry_points()
load_from_environment()
