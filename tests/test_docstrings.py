"""Every public object says what it is: the names in ``solwidget.__all__``, the widget, and
their public methods and properties have docstrings, and the examples in them run."""

import doctest
import inspect

import pytest

import solwidget as sw


def public_objects():
    """(name, object) for the package's public names and SolitaireWidget."""
    return [(name, getattr(sw, name)) for name in sw.__all__] + [("SolitaireWidget", sw.SolitaireWidget)]


def own_public_members(cls):
    """The public methods and properties a class defines itself or takes from a mixin of its
    own (SolitaireWidget's LineMixin, ...), not those it inherits from another class."""
    members = {}
    for part in reversed([c for c in cls.__mro__ if c is cls or c.__name__.endswith("Mixin")]):
        members.update(vars(part))
    for name, value in members.items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property) or inspect.isroutine(value):  # compiled ones too
            yield name, value


def public_api():
    for name, obj in public_objects():
        yield name, obj
        if inspect.isclass(obj):
            for member, value in own_public_members(obj):
                yield f"{name}.{member}", value


def own_docstring(obj) -> str:
    """The object's own docstring: a class's, not one inherited from its base class."""
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else obj.__doc__
    return (doc or "").strip()


def test_the_walk_sees_the_whole_public_api():
    names = {name for name, _ in public_api()}
    assert set(sw.__all__) | {"SolitaireWidget"} <= names
    assert {
        "Game.play",
        "State.play",
        "State.legal_moves",
        "State.explain",
        "Solver.step",
        "SolveResult.won",
        "StudyTable.win_rate",
        "SolitaireWidget.undo",
    } <= names
    assert len(names) > 70


def test_every_public_object_has_a_docstring():
    missing = [name for name, obj in public_api() if not own_docstring(obj)]
    assert missing == [], f"public objects without a docstring: {', '.join(missing)}"


def test_every_class_docstring_is_more_than_a_name():
    short = [name for name, obj in public_objects() if inspect.isclass(obj) and len(own_docstring(obj)) < 30]
    assert short == []


def examples():
    """The examples in the public docstrings; they may use ``sw`` and ``state``, FreeCell's
    deal 1 (the solver's modules name no game, not even in an example)."""
    finder = doctest.DocTestFinder(recurse=False)
    found = []
    for name, obj in public_api():
        target = obj.fget if isinstance(obj, property) else obj
        globs = {"sw": sw, "state": sw.load_game("freecell").deal(1)}
        for test in finder.find(target, name, globs=globs):
            if test.examples:
                found.append(test)
    return found


def test_the_main_entry_points_show_an_example():
    with_examples = {test.name for test in examples()}
    assert {"Game", "State", "load_game", "solve", "Solver", "study", "SolitaireWidget"} <= with_examples


@pytest.mark.parametrize("test", examples(), ids=lambda test: test.name)
def test_the_examples_in_docstrings_run(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{test.name}: {result.failed} of {result.attempted} examples failed"
