"""The coach: verdicts kept and inferred soundly, reviews of played lines, bad input refused."""

import pytest
from helpers import played_with_a_mistake

import solwidget as sw
from solwidget.coach import LOST, UNKNOWN, WINNABLE, Judge, review

GAME = sw.load_game("reversed_solitaire")


def replays_to_a_win(state, line) -> bool:
    for move in line:
        state = state.play(move)
    return state.is_won()


def test_a_review_finds_the_move_that_lost_and_its_verdicts_are_proofs():
    start, line = played_with_a_mistake()
    report = review(start, line, max_seconds=5.0, crossroads=False)
    assert report.first_losing is not None and report.first_losing.number > 10
    losing = report.first_losing.number
    states = [start]
    for move in line:
        states.append(states[-1].play(move))
    for i, verdict in enumerate(report.verdicts):
        if verdict.status == WINNABLE:  # every winnable replays
            assert replays_to_a_win(states[i], verdict.line), i
            assert i < losing
        elif verdict.status == LOST:  # every lost is the solver's proof
            assert sw.solve(states[i], max_states=None, max_seconds=60).status == "lost", i
            assert i >= losing
    assert report.verdicts[losing - 1].status == WINNABLE and report.verdicts[losing].status == LOST
    assert f"lost at move {losing}" in report.summary()


def test_a_line_that_follows_a_win_is_winnable_throughout():
    start = GAME.deal(1)
    win = sw.solve(start, max_states=None, max_seconds=30).moves
    report = review(start, win[:30], max_seconds=5.0, crossroads=False)
    assert report.first_losing is None
    assert all(v.status == WINNABLE for v in report.verdicts)
    assert report.summary() == "the game is still winnable after the last move"


def test_crossroads_keep_few_moves_and_each_keeping_move_has_a_win():
    start = GAME.deal(4)
    win = sw.solve(start, max_states=None, max_seconds=30).moves
    judge = Judge(max_seconds=5.0)
    report = review(start, win, max_seconds=5.0, judge=judge)
    assert report.crossroads  # deal 4's win passes three
    for crossroads in report.crossroads:
        assert 1 <= len(crossroads.keeping) <= 2 and crossroads.losing and not crossroads.open
        for move in crossroads.keeping:
            after = crossroads.state.play(move)
            assert replays_to_a_win(after, judge.known(after).line)
        for move in crossroads.losing:
            after = crossroads.state.play(move)
            assert judge.known(after).status == LOST
            assert sw.solve(after, max_states=None, max_seconds=60).status == "lost"
        assert str(crossroads).startswith(f"before move {crossroads.index + 1}: only ")


def test_verdicts_are_kept_along_a_win_and_inferred_from_moves():
    judge = Judge(max_seconds=10.0)
    start = GAME.deal(1)
    verdict = judge.judge(start)
    assert verdict.status == WINNABLE and replays_to_a_win(start, verdict.line)
    searches = judge.searches
    after = start.play(verdict.line[0])
    assert judge.judge(after).line == verdict.line[1:] and judge.searches == searches
    assert judge.known(GAME.deal(2)) is None


def test_a_stretch_between_two_open_verdicts_is_not_searched_position_by_position():
    start = GAME.deal(2)
    line = sw.solve(start, max_states=None, max_seconds=30).moves[:40]
    judge = Judge(max_seconds=None, max_states=1)
    report = review(start, line, max_seconds=None, max_states=1, crossroads=False, judge=judge)
    assert judge.searches == 2  # the two ends: every other verdict at once
    assert all(v.status == UNKNOWN for v in report.verdicts)
    assert report.summary() == "not known yet whether the game is still winnable"


def test_an_empty_judge_given_is_the_one_used():
    judge = Judge(max_seconds=5.0)
    review(GAME.deal(1), ["t5 c0"], max_seconds=5.0, crossroads=False, judge=judge)
    assert judge.searches >= 1 and len(judge) >= 2


def test_a_cancelled_judgement_is_not_known_yet_and_not_kept():
    judge = Judge(max_seconds=10.0)
    assert judge.judge(GAME.deal(2), cancelled=lambda: True).status == UNKNOWN
    assert judge.known(GAME.deal(2)) is None


@pytest.mark.parametrize(
    "moves, words", [(["t5 c0", "t9 t9"], "moves[1]"), ("t5 c0", "moves"), ([3], "moves[0]")]
)
def test_bad_lines_are_refused_by_name(moves, words):
    with pytest.raises(sw.SolwidgetError, match=words.replace("[", r"\[")):
        review(GAME.deal(1), moves)


@pytest.mark.parametrize(
    "budget",
    [
        {"max_seconds": 0},
        {"max_seconds": float("nan")},
        {"max_seconds": True},
        {"max_seconds": None, "max_states": None},
        {"max_states": -3},
    ],
)
def test_bad_budgets_are_refused_by_name(budget):
    with pytest.raises(sw.SolwidgetError, match="max_"):
        review(GAME.deal(1), ["t5 c0"], **budget)
    with pytest.raises(sw.SolwidgetError, match="max_"):
        Judge(**{"max_seconds": 1.0, **budget})


def test_an_illegal_move_in_the_line_is_named_by_its_number():
    start = GAME.deal(1)
    first = start.legal_moves()[0]
    illegal = next(
        m
        for m in (sw.Move(f"t{i}", f"f{k}") for i in range(8) for k in range(4))
        if start.play(first).explain(m) is not None
    )
    with pytest.raises(sw.IllegalMove, match=r"move 2 of the line \(moves\[1\]\) is not legal there") as err:
        review(start, [first, illegal])
    assert err.value.move == illegal


def test_review_takes_a_state_not_a_game():
    with pytest.raises(sw.SolwidgetError, match="game_or_state"):
        review(GAME, ["t5 c0"])


def test_the_command_line_reviews_a_line(capsys):
    from solwidget.cli import main

    _start, line = played_with_a_mistake()
    assert (
        main(
            [
                "review",
                "reversed_solitaire",
                "3",
                ", ".join(map(str, line)),
                "--no-crossroads",
                "--max-seconds",
                "5",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "lost at move" in out and "<- lost the game here" in out
    assert main(["review", "reversed_solitaire", "3", "t5 c0, t9 t9"]) == 2
    assert "move 2" in capsys.readouterr().err


def test_winnable_deals_are_won_deals_and_skip_lost_ones():
    deals = sw.winnable_deals("interlock", 3, start=13, max_seconds=None, max_states=200_000)
    assert len(deals) == 3 and 13 not in deals and deals == sorted(deals) and deals[0] > 13
    game = sw.load_game("interlock")
    for number in deals:
        start = game.deal(number)
        assert replays_to_a_win(start, sw.solve(start, max_states=None, max_seconds=30).moves)


@pytest.mark.parametrize(
    "args, kwargs, name",
    [
        (("no_such_game", 3), {}, "no_such_game"),
        (("interlock", 0), {}, "count"),
        (("interlock", True), {}, "count"),
        (("interlock", 2), {"start": 0}, "deal"),
        (("interlock", 2), {"max_seconds": None}, "max_seconds"),
        ((3, 2), {}, "game"),
    ],
)
def test_bad_winnable_deals_arguments_are_refused_by_name(args, kwargs, name):
    with pytest.raises(sw.SolwidgetError, match=name):
        sw.winnable_deals(*args, **kwargs)


def test_a_difficulty_counts_what_it_weighed():
    start = GAME.deal(1)
    win = sw.solve(start, max_states=None, max_seconds=30).moves
    level = sw.difficulty(start, win, positions=5, choice_states=500)
    assert level.moves == len(win) and level.positions == 5
    assert level.legal == level.keeping + level.losing + level.open and level.keeping >= 5
    assert 0 <= level.crossroads <= 5 and 0 < level.keeping_share <= 1
    assert level.as_dict()["text"] == str(level) and str(level).startswith(level.level)
    with pytest.raises(sw.SolwidgetError, match="line"):
        sw.difficulty(start, win[:-1])
