"""The solver's Interlock reductions, each cross-checked: the same answers with it and without."""

import itertools
import random

import pytest
from helpers import walk

import solwidget as sw
from solwidget.engine.cards import card_name, deck, parse_card
from solwidget.games.interlock import bridges, deadends
from solwidget.games.interlock import expander as interlock_expander
from solwidget.games.interlock.deadends import DeadEnds
from solwidget.games.interlock.expander import InterlockExpander, InterlockFamilyExpander, fast_path
from solwidget.solver import autoplay, stock
from solwidget.solver.expand import PatienceExpander
from solwidget.solver.profile import profile_for
from solwidget.solver.stock import is_turn

GAME = sw.load_game("interlock")


def small_position(seed: int, left=(10, 16), runs: float = 0.0, levels=((0, 13),) * 4, game=GAME) -> sw.State:
    """A random Interlock endgame: each suit home up to a random rank (within ``levels``,
    a range of ranks a suit: clubs, diamonds, hearts, spades), ``left`` cards still
    out, one card on each pile of a random set where no covering pile lies over an empty
    pile, the other cards (two at least) in the stock and waste. With ``runs`` > 0, each
    pile then grows into a run, one more card with that chance each time. In a game with
    face-down cards (Guardian), a covered pile's cards lie face down."""
    rnd = random.Random(seed)
    while True:
        home = [rnd.randint(*among) for among in levels]
        rest = [c for c in deck() if c & 15 > home[c >> 4 & 3]]
        filled = set()
        for t in reversed(game.tableau_indices):  # front first: a pile under a filled pile is filled
            if any(c in filled for c in game.covers[t]) or rnd.random() < 0.3:
                filled.add(t)
        if left[0] <= len(rest) <= left[1] and len(filled) <= len(rest) - 2:
            break
    rnd.shuffle(rest)
    columns = {t: [rest.pop()] for t in sorted(filled)}
    for t, column in columns.items():
        hidden = game.face_down_cards and any(c in columns for c in game.covers[t])
        while runs and not hidden and len(rest) > 2 and rnd.random() < runs:  # hidden: one card
            guests = sorted(c for c in rest if c in game.fits_on[column[-1]])
            if not guests:
                break
            column.append(rnd.choice(guests))
            rest.remove(column[-1])
    piles = {pid: [] for pid in game.pile_ids}
    for t, column in columns.items():
        hidden = game.face_down_cards and any(c in columns for c in game.covers[t])
        piles[game.pile_ids[t]] = [f"[{card_name(c)}]" if hidden else card_name(c) for c in column]
    on_waste = rnd.randint(0, len(rest))
    piles["waste"] = [card_name(c) for c in rest[:on_waste]]
    piles["stock"] = [f"[{card_name(c)}]" for c in rest[on_waste:]]
    for f, suit in zip(game.foundation_indices, range(4)):
        piles[game.pile_ids[f]] = [card_name(suit << 4 | r) for r in range(1, home[suit] + 1)]
    return game.state_from_dict({"game": game.id, "piles": piles})


def _position(piles: dict) -> sw.State:
    full = {pid: [] for pid in GAME.pile_ids}
    full.update(piles)
    return GAME.state_from_dict({"game": "interlock", "piles": full})


def _without_bridges(monkeypatch):
    # nor the safe cards' lemma on the tableau's tops, which serves where bridges do not
    monkeypatch.setattr(bridges, "applies", lambda game: False)
    monkeypatch.setattr(bridges, "tops_safe", lambda game: False)


def _without_dead_ends(monkeypatch):
    monkeypatch.setattr(deadends, "applies", lambda game: False)


def test_bridges_apply_to_interlock_only():
    assert bridges.applies(GAME)
    assert not any(bridges.applies(sw.load_game(g)) for g in ("love_a_duck", "guardian", "unlimited"))


def _home_to(**ranks) -> dict:
    """Foundation piles holding each suit up to the rank given (C=10: AC to TC)."""
    names = "A23456789TJQK"
    return {f"f{k}": [names[r] + suit for r in range(ranks[suit])] for k, suit in enumerate("CDHS")}


def test_a_reserve_card_goes_to_the_tableau_only_to_take_a_run():
    # back piles, all uncovered: QH and QD (reserve) may bridge KS or KC to JC; KH may go to
    # an empty back pile, but only in a bridge, and no red jack could end one
    state = _position(
        {
            "t0": ["KS"],
            "t1": ["KC"],
            "t8": ["JC"],
            "t2": ["KD"],
            "stock": ["[QH]", "[QD]", "[KH]", "[QC]"],
            **_home_to(C=10, D=11, H=11, S=12),
        }
    )
    lines = [moves for moves, _ in InterlockFamilyExpander(GAME)._moves(state)]
    bridged = sorted(
        " ".join(str(m) for m in moves if m.src != "stock")
        for moves in lines
        if any(m.src == "waste" and m.dst[0] == "t" for m in moves)
    )
    assert bridged == ["waste t0 t8 t0", "waste t0 t8 t0", "waste t1 t8 t1", "waste t1 t8 t1"]
    plain = PatienceExpander(GAME)
    plain.bridges = False
    assert any(moves[-1] == sw.Move("waste", "t3") for moves, _ in plain._moves(state))


def replay(state, moves):
    for move in moves:
        state = state.play(move)
    return state


def test_bridges_are_legal_lines_to_the_positions_they_give():
    for seed in range(40):
        state = small_position(seed)
        for moves, child in bridges.bridges(GAME, state):
            assert replay(state, moves).piles == child.piles, (seed, moves)
            assert moves[-1].src != "waste"  # a bridge ends with a run from a pile


def test_play_off_gives_the_reserve_that_turning_up_and_playing_each_card_leaves():
    """stock.play_off (a bridge's reserve, made at once) against turn_up and apply_legal, move
    by move: the same moves, stock, waste and redeal count, whatever order the cards
    come in (the waste's top card first, too)."""
    play = sw.Move("waste", "t0")
    tried = 0
    for seed in range(60):
        state = small_position(seed)
        order = stock.cycle(GAME, state.piles)
        rnd = random.Random(seed)
        cards = rnd.sample(order, min(4, len(order)))
        if state.piles[GAME.waste_index] and seed % 3 == 0:
            cards = [state.piles[GAME.waste_index][-1]] + [
                c for c in cards if c != state.piles[GAME.waste_index][-1]
            ]
        moves, after = [], state
        for card in cards:
            turns, after = stock.turn_up(GAME, after, card)
            moves += [*turns, play]
            after = GAME.apply_legal(after, play)
        made = stock.play_off(GAME, state.piles, cards, play)
        assert made == (
            moves,
            after.piles[GAME.stock_index],
            after.piles[GAME.waste_index],
            after.extra[0] - state.extra[0],
        ), seed
        tried += any(m == stock.REDEAL for m in moves)
    assert tried >= 10  # redeals were among the lines checked


# Endgames of small_position whose search ends within 1,500 expansions with bridges and
# without: of seeds 0-59, all but those named; about half are lost.
FINISHING_SEEDS = [seed for seed in range(60) if seed not in (4, 15, 20, 22, 24, 33, 47, 50)]


def test_same_answers_with_and_without_bridges(monkeypatch):
    """Bridges change no answer: won and lost endgames alike."""
    _without_dead_ends(monkeypatch)
    answers = [sw.solve(small_position(seed), max_states=1500).status for seed in FINISHING_SEEDS]
    _without_bridges(monkeypatch)
    plain = [sw.solve(small_position(seed), max_states=1500).status for seed in FINISHING_SEEDS]
    assert answers == plain
    assert "unknown" not in answers and answers.count("lost") >= 15


def _without_home_bridges(monkeypatch):
    monkeypatch.setattr(bridges, "home_bridges", None)


def test_home_bridges_are_legal_lines_to_the_positions_they_give():
    seen = 0
    for seed in range(80):
        state = small_position(seed)
        for moves, child in bridges.home_bridges(GAME, state):
            assert replay(state, moves).piles == child.piles, (seed, moves)
            home = [m for m in moves if not is_turn(m)]
            assert all(m.dst[0] == "f" for m in home)
            last = child.piles[GAME.index_of[home[-1].dst]][-1]
            # the bridge ends with a card from a pile, or with a King from the reserve
            assert home[-1].src != "waste" or last & 15 == 13, (seed, moves)
            seen += 1
    assert seen >= 20


def test_same_answers_with_and_without_home_bridges(monkeypatch):
    """Reserve cards sent home only in home bridges change no answer: won and lost endgames."""
    _without_dead_ends(monkeypatch)
    starts = [small_position(seed) for seed in FINISHING_SEEDS] + [
        _run_position(seed) for seed in RUN_SEEDS[:20]
    ]
    answers = [sw.solve(state, max_states=3000).status for state in starts]
    _without_home_bridges(monkeypatch)
    plain = [sw.solve(state, max_states=3000).status for state in starts]
    pairs = [(a, b) for a, b in zip(answers, plain) if "unknown" not in (a, b)]
    assert all(a == b for a, b in pairs) and len(pairs) >= 60, list(zip(answers, plain))
    assert answers.count("lost") >= 20


def test_the_key_sorts_the_uncovered_back_piles():
    # t0 and t8 are uncovered (t9, t10, t17 and t18 empty), t3 and t4 are not (t13 holds 8C)
    piles = {
        "t0": ["KD", "QS"],
        "t8": ["9H"],
        "t3": ["KH"],
        "t4": ["5H"],
        "t13": ["8C"],
        **_home_to(C=7, D=11, H=4, S=3),
    }
    state = _with_the_rest_in_the_stock(piles)
    key = InterlockFamilyExpander(GAME).key
    swapped = _with_the_rest_in_the_stock({**piles, "t0": piles["t8"], "t8": piles["t0"]})
    covered = _with_the_rest_in_the_stock({**piles, "t3": piles["t4"], "t4": piles["t3"]})
    assert key(swapped) == key(state) != key(covered)


def test_same_answers_with_and_without_sorted_back_piles(monkeypatch):
    """Keys that sort the uncovered back piles change no answer, and merge positions."""
    _without_dead_ends(monkeypatch)
    starts = [small_position(seed) for seed in FINISHING_SEEDS] + [_run_position(seed) for seed in RUN_SEEDS]
    results = [sw.solve(state, max_states=3000) for state in starts]
    monkeypatch.setattr(interlock_expander, "backs_uncovered", lambda game: None)
    plain = [sw.solve(state, max_states=3000) for state in starts]
    assert [r.status for r in results] == [r.status for r in plain]
    assert "unknown" not in [r.status for r in results]
    merged = [r.progress.expanded < p.progress.expanded for r, p in zip(results, plain) if r.status == "lost"]
    assert sum(merged) >= 3, merged


def test_a_win_that_needs_two_reserve_cards_home_before_a_card_from_a_pile():
    # 8C (front) covers 5D, which covers the red nines; so 8C leaves only for home, after 6C
    # and 7C from the reserve (neither safe: the red fives are out)
    rest = [
        f"[{r}{s}]" for s in "CDH" for r in "56789TJQK" if f"{r}{s}" not in ("5C", "8C", "5D", "9D", "9H")
    ]
    state = _position(
        {
            "t19": ["8C"],
            "t9": ["5D"],
            "t0": ["9D"],
            "t1": ["9H"],
            "stock": rest,
            **_home_to(C=5, D=4, H=4, S=13),
        }
    )
    lines = [moves for moves, _ in bridges.home_bridges(GAME, state)]
    assert [" ".join(str(m) for m in moves if not is_turn(m)) for moves in lines] == [
        "waste f0 waste f0 t19 f0",
        "waste f2 waste f2 waste f2 waste f2 t1 f2",
    ]  # 9H: uncovered
    assert sw.solve(state, max_states=200).status == "won"


def test_a_deal_proved_lost_by_search(monkeypatch):
    _without_dead_ends(monkeypatch)
    result = sw.solve(GAME.deal(34), max_states=2000)
    assert result.status == "lost", result


# -------------------------------------------------------------------- dead ends
def _spades_left(**piles) -> sw.State:
    """Every card home but the spades, which lie where ``piles`` says."""
    return _position({**piles, **_home_to(C=13, D=13, H=13, S=0)})


def test_a_king_over_its_own_ace_with_no_back_pile_to_go_to_is_dead(monkeypatch):
    # KS (front) covers AS; the back piles hold spades, which only go home after AS (their
    # red hosts are home), so none empties for KS: nothing can ever move
    backs = {f"t{i}": [card] for i, card in enumerate(["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"])}
    dead = _spades_left(t19=["KS"], t9=["AS"], stock=["[JS]", "[QS]"], **backs)
    # with a back pile empty, KS goes there, and everything goes home
    backs["t8"] = []
    alive = _spades_left(t19=["KS"], t9=["AS"], stock=["[TS]", "[JS]", "[QS]"], **backs)
    assert DeadEnds(GAME).is_dead(dead) and not DeadEnds(GAME).is_dead(alive)
    _without_dead_ends(monkeypatch)
    assert sw.solve(dead).status == "lost"
    assert sw.solve(alive).status == "won"


def _two_kings(**backs) -> sw.State:
    """Only spades and clubs are out, which no card fits on (the red suits are home). KS and
    KC (front) each cover their own Ace (AS, AC); the spades go on only once 2C is home (it
    covers 2S), the clubs only once 3S is (it covers 3C). The back piles hold black cards of
    both suits, but t4 and those given in ``backs``, which are empty."""
    piles = {"t0": ["4S"], "t1": ["2S"], "t2": ["4C"], "t3": ["3C"], "t5": ["5S"], "t6": ["5C"]}
    piles |= {"t7": ["6S"], "t8": ["6C"], "t9": ["AS"], "t10": ["2C"], "t12": ["3S"], "t18": ["AC"]}
    piles |= {"t19": ["KS"], "t29": ["KC"]}
    reserve = [rank + suit for rank in "789TJQ" for suit in "SC"]
    for t in backs:
        reserve += piles.pop(t)
    stock = [f"[{card}]" for card in reserve]
    return _position({**piles, "stock": stock, **_home_to(C=0, D=13, H=13, S=0)})


def test_two_kings_with_one_empty_back_pile_are_dead_by_the_king_split(monkeypatch):
    # the plain closure sends KS and KC both to t4; whichever goes first, the other finds no
    # second empty back pile (each back pile waits for both suits to go on), and the first
    # goes home only after the other's Ace: lost. With t7 empty too, both Kings go.
    dead, alive = _two_kings(), _two_kings(t7=True)
    test = DeadEnds(GAME)
    piles = test.face_up(dead.piles)
    start = test._start(piles)
    assert test._closure(piles, test.pair, (), None, start)  # the plain closure: alive
    assert test.is_dead(dead) and not test.is_dead(alive)
    _without_dead_ends(monkeypatch)
    assert sw.solve(dead).status == "lost"
    assert sw.solve(alive).status == "won"


def test_deals_dead_at_the_start_are_proved_lost_at_once():
    for number in (13, 26, 30, 34, 43):
        result = sw.solve(GAME.deal(number), max_states=10)
        assert result.status == "lost", (number, result)


def _wins_checked_alive(starts, max_states, every_split=False, nested=0) -> int:
    """Solve each start; along every win found, assert no position is dead (under every
    split of twins sharing a host, with ``every_split``; under ``nested`` splits nested,
    as at a search's start). The wins."""
    dead_ends = DeadEnds(GAME)
    won = 0
    for start in starts:
        result = sw.solve(start, max_states=max_states)
        if result.status != "won":
            continue
        won += 1
        state = start
        for move in result.moves:
            assert not dead_ends.is_dead(state, every_split), (GAME.to_dict(start), move)
            assert not (nested and _dead_by_nested_splits(state, nested)), (GAME.to_dict(start), move)
            state = state.play(move)
    return won


def test_no_position_of_a_winning_line_is_dead():
    starts = [GAME.deal(n) for n in (1, 2, 6, 15)] + [small_position(s) for s in FINISHING_SEEDS]
    assert _wins_checked_alive(starts, 3000) >= 30


def test_endgames_found_dead_are_lost_without_the_test_and_without_bridges(monkeypatch):
    dead_ends = DeadEnds(GAME)
    dead = [seed for seed in FINISHING_SEEDS if dead_ends.is_dead(small_position(seed))]
    _without_dead_ends(monkeypatch)
    _without_bridges(monkeypatch)
    answers = [sw.solve(small_position(seed), max_states=1500).status for seed in dead]
    assert answers == ["lost"] * len(dead) and len(dead) >= 15, answers


# Endgames of small_position with runs on the piles: their searches end within 1,500
# expansions without the dead-end test: of seeds 0-59, all but those named.
RUN_SEEDS = [seed for seed in range(60) if seed not in (4, 13, 16, 20, 26, 46, 50, 54, 57, 59)]


def _run_position(seed):
    return small_position(seed, (12, 20), runs=0.6)


def test_endgames_with_runs_found_dead_are_lost_without_the_test(monkeypatch):
    dead_ends = DeadEnds(GAME)
    dead = [seed for seed in RUN_SEEDS if dead_ends.is_dead(_run_position(seed))]
    _without_dead_ends(monkeypatch)
    answers = [sw.solve(_run_position(seed), max_states=1500).status for seed in dead]
    assert answers == ["lost"] * len(dead) and len(dead) >= 12, answers


def test_no_position_of_a_winning_line_with_runs_is_dead():
    assert _wins_checked_alive([_run_position(seed) for seed in RUN_SEEDS], 1500) >= 20


def test_a_card_whose_guest_cannot_leave_never_goes_home(monkeypatch):
    # From deal 8's search. AH lies in back pile t7, under t17, whose bottom card KS must go
    # home or to an empty back pile (all nine hold cards, none can be emptied); JS lies in
    # t17 under TH, which waits for the hearts, so JS and KS never go home. Without the
    # bare-card rule JS counted as free, and the position as alive.
    state = _position(
        {
            **_home_to(C=12, S=2, D=2, H=0),
            "t0": ["KH", "QS", "JD", "TS", "9H"],
            "t1": ["5H", "4S"],
            "t2": ["3S"],
            "t3": ["TD"],
            "t4": ["KD"],
            "t5": ["3D"],
            "t6": ["KC"],
            "t7": ["AH"],
            "t8": ["8S"],
            "t12": ["4D"],
            "t13": ["5S"],
            "t14": ["6H"],
            "t15": ["6D"],
            "t16": ["7D"],
            "t17": ["KS", "QD", "JS", "TH", "9S", "8H", "7S"],
            "t24": ["QH"],
            "t26": ["7H", "6S", "5D"],
            "waste": ["8D", "2H", "JH", "9D", "3H", "4H"],
        }
    )
    assert DeadEnds(GAME).is_dead(state)
    _without_dead_ends(monkeypatch)
    assert sw.solve(state, max_states=2000).status == "lost"


def test_safe_reserve_cards_go_home_from_deep_in_the_stock():
    # 3H and 4H, then 5H and 5D, are safe (the black suits are home to 3, so a black four
    # goes home rather than onto a red five; the other red suit to 2 at least) and next on
    # their foundations, deep in the stock; 6H and 6D are next then, but 5S could still go
    # on them (4S lies under 9D): they stay
    names = "A23456789TJQK"
    rest = (
        [r + "S" for r in names[4:]]
        + [r + "D" for r in names[4:] if r != "9"]
        + [r + "H" for r in names[2:] if r != "Q"]
    )
    state = _position(
        {
            "t0": ["4S"],
            "t9": ["9D"],
            "waste": ["QH"],
            "stock": [f"[{c}]" for c in rest],
            **_home_to(C=13, D=4, H=2, S=3),
        }
    )
    settled, played = InterlockFamilyExpander(GAME).start(state)
    assert replay(state, played).piles == settled.piles
    home = {card_name(c) for f in GAME.foundation_indices for c in settled.piles[f]}
    assert {"3H", "4H", "5H", "5D"} <= home and not {"6H", "6D"} & home


@pytest.mark.parametrize(
    "levels, safe",
    [
        ({"C": 2, "D": 1, "H": 3, "S": 1}, ["3C", "2D", "2S"]),  # 4H: the spades only to 1
        ({"C": 4, "D": 1, "H": 4, "S": 4}, ["2D"]),  # 5H: the diamonds only to 1
        ({"C": 3, "D": 2, "H": 4, "S": 3}, ["4C", "3D", "5H", "4S"]),
    ],
)
def test_a_card_is_safe_with_the_other_colour_two_below_and_its_colour_three(levels, safe):
    piles = [()] * len(GAME.pile_ids)  # only the foundations count
    for f, cards in _home_to(**levels).items():
        piles[GAME.index_of[f]] = tuple(map(parse_card, cards))
    assert [card_name(c) for c in bridges._safe_next(GAME, piles)] == safe


def _autoplay_rule(game, piles) -> tuple:
    """autoplay.py's safe cards (the other colour home to the rank below), for
    bridges._safe_next: the rule the search used before."""
    tops = autoplay._home_tops(game, piles)
    return tuple(sorted(c for c in autoplay._wanted(game, piles) if autoplay.is_safe(game, tops, c)))


def test_cards_safe_by_the_ranks_two_and_three_below_lose_no_win(monkeypatch):
    """bridges.py's lemma: a position with the cards that only the stronger rule finds safe
    sent home has a win when the position had one (both searched by autoplay's rule alone,
    without dead ends)."""
    pairs = []
    for seed in range(1000):
        state = small_position(seed)
        stronger = bridges.settle(GAME, state)[0]
        with monkeypatch.context() as weaker_rule:
            weaker_rule.setattr(bridges, "_safe_next", _autoplay_rule)
            weaker = bridges.settle(GAME, state)[0]
        if stronger.piles != weaker.piles:
            pairs.append((weaker, stronger))
    monkeypatch.setattr(bridges, "_safe_next", _autoplay_rule)
    _without_dead_ends(monkeypatch)
    answers = [tuple(sw.solve(state, max_states=3000).status for state in pair) for pair in pairs]
    assert all(before == after for before, after in answers), answers
    assert answers.count(("won", "won")) >= 150 and answers.count(("lost", "lost")) >= 5


def test_the_interlock_portfolio_digs_out_hard_deals():
    # each took the previous default pair 1,600 states or more (5, 22 and 38: over 6,000)
    for number in (4, 5, 7, 22, 38, 42):
        result = sw.solve(GAME.deal(number), max_states=1000)
        assert result.status == "won", (number, result)


# -------------------------------------------------------------------- splits
def _without_splits(monkeypatch):
    monkeypatch.setattr(DeadEnds, "_lost_both_ways", lambda self, piles, *split: False)
    monkeypatch.setattr(DeadEnds, "_nested_lost", lambda self, piles, *splits: False)


def _killed_by(monkeypatch, method: str, number, max_states, game=GAME) -> list:
    """The positions of a deal's search (splits tried from its first position on) that the
    plain closure left alive and ``DeadEnds.<method>`` proved dead, once each."""
    monkeypatch.setattr(deadends, "PLAIN_FIRST", 0)
    monkeypatch.setattr(deadends, "FIRST_DEPTH", 0)
    killed = []
    proves = getattr(DeadEnds, method)

    def recording(self, piles, *args):
        dead = proves(self, piles, *args)
        if dead:
            killed.append(piles)
        return dead

    monkeypatch.setattr(DeadEnds, method, recording)
    sw.solve(game.deal(number), max_states=max_states)
    monkeypatch.setattr(DeadEnds, method, proves)
    return [sw.State(game, piles, (0,)) for piles in dict.fromkeys(killed)]


def _killed_by_splits(monkeypatch, number, max_states) -> list:
    """The positions of a deal's search that a single split proved dead (no nested killers:
    they ask ``_lost_both_ways`` of their cases too)."""
    monkeypatch.setattr(DeadEnds, "_nested_lost", lambda self, piles, *splits: False)
    return _killed_by(monkeypatch, "_lost_both_ways", number, max_states)


def test_positions_dead_by_a_split_are_lost_without_splits(monkeypatch):
    # deal 3 is won; deal 185 is lost: splits prune both searches
    for number, budget in ((3, 3000), (185, 600)):
        killed = _killed_by_splits(monkeypatch, number, budget)[:8]
        plain = DeadEnds(GAME)
        assert killed and all(plain._closure(s.piles, plain.pair) for s in killed)
        _without_splits(monkeypatch)
        answers = [sw.solve(state, max_states=3000).status for state in killed]
        monkeypatch.undo()
        assert answers == ["lost"] * 8, (number, answers)


def _killed_by_nested_killers(monkeypatch, game, number, max_states) -> list:
    """The positions of a deal's search that a nested killer proved dead and no single
    split does."""
    single = DeadEnds(game)
    found = _killed_by(monkeypatch, "_nested_lost", number, max_states, game)
    return [state for state in found if not single.is_dead(state, every_split=True)]


def test_positions_dead_by_nested_killers_only_are_lost_without_splits(monkeypatch):
    # nested killers prove hundreds of positions of these searches dead that no single split
    # does; a dozen of each, searched without splits, are lost
    for game, number in ((GAME, 36), (sw.load_game("love_a_duck"), 34)):
        found = _killed_by_nested_killers(monkeypatch, game, number, 3000)
        assert len(found) >= 100, (number, len(found))
        _without_splits(monkeypatch)
        answers = [sw.solve(state, max_states=30_000).status for state in found[:: len(found) // 12]]
        monkeypatch.undo()
        assert answers == ["lost"] * len(answers), (number, answers)


def _with_the_rest_in_the_stock(piles: dict) -> sw.State:
    used = {card for pile in piles.values() for card in pile}
    return _position({**piles, "stock": [f"[{card_name(c)}]" for c in deck() if card_name(c) not in used]})


def test_a_dropdown_counts_as_using_its_host_when_splits_are_chosen():
    # 7D (front) may only drop onto 8C (middle, under it): the plain closure lets both red
    # sevens use 8C, 8S being home, so that split is suggested
    state = _with_the_rest_in_the_stock(
        {"t9": ["8C"], "t19": ["7D"], "t0": ["KD"], "t1": ["KH"], **_home_to(C=7, D=5, H=5, S=13)}
    )
    dead_ends = DeadEnds(GAME)
    uses = bytearray(64)
    assert dead_ends._closure(state.piles, dead_ends.pair, (), uses)
    seven_d, seven_h, eight_c, eight_s = 0x17, 0x27, 0x08, 0x38
    assert card_name(seven_d) == "7D" and card_name(eight_s) == "8S"
    assert (seven_d, seven_h, eight_c, eight_s) in set(dead_ends._splits(uses))


def test_no_position_of_a_winning_line_is_dead_under_any_split():
    starts = [GAME.deal(n) for n in (1, 2, 6, 15, 69, 76)] + [_run_position(seed) for seed in RUN_SEEDS]
    assert _wins_checked_alive(starts, 3000, every_split=True) >= 25


def test_splits_change_no_answer(monkeypatch):
    """Endgames searched with splits tried everywhere and without splits: the same answers."""
    monkeypatch.setattr(deadends, "PLAIN_FIRST", 0)
    starts = [_run_position(seed) for seed in RUN_SEEDS] + [
        small_position(s, (18, 26), runs=0.5) for s in (193, 249)
    ]
    split = [sw.solve(state, max_states=3000).status for state in starts]
    _without_splits(monkeypatch)
    plain = [sw.solve(state, max_states=3000).status for state in starts]
    both = [(a, b) for a, b in zip(split, plain) if "unknown" not in (a, b)]
    assert all(a == b for a, b in both) and len(both) >= 40, list(zip(split, plain))
    assert split[-2] == "lost"  # seed 193: dead by a split only, lost in 222 states without


def test_splits_prove_deal_141_lost(monkeypatch):
    # open at 40,000 states without splits; lost in 301 with them tried from the start
    monkeypatch.setattr(deadends, "PLAIN_FIRST", 0)
    assert sw.solve(GAME.deal(141), max_states=600).status == "lost"


def test_splits_on_hosts_under_dropping_piles_prove_deal_194_lost():
    # open at 13,000 states when a dropdown did not count as using its host (and at 150,000
    # before home bridges); lost in 1,241 with it, and in 1,961 without home bridges (splits
    # from the 300th position left alive; 533 from the 100th)
    assert sw.solve(GAME.deal(194), max_states=1500).status == "lost"


def _dead_by_nested_splits(state, depth) -> bool:
    dead_ends = DeadEnds(GAME)
    return dead_ends._dead_under(state.piles, (), depth, dead_ends._start(state.piles))


def test_a_start_dead_by_nested_splits_only_is_lost_with_single_splits(monkeypatch):
    # deal 275's start: no single split proves it dead, two nested do; without them the
    # search proves the deal lost in 481 states
    start, _ = InterlockFamilyExpander(GAME).start(GAME.deal(275))
    assert not DeadEnds(GAME).is_dead(start, every_split=True)
    assert _dead_by_nested_splits(start, 2)
    assert sw.solve(GAME.deal(275), max_states=1).status == "lost"
    monkeypatch.setattr(deadends, "FIRST_DEPTH", 0)
    assert sw.solve(GAME.deal(275), max_states=1000).status == "lost"


def test_no_position_of_a_winning_line_is_dead_under_nested_splits():
    starts = [GAME.deal(n) for n in (1, 2, 6, 15, 69)] + [_run_position(seed) for seed in RUN_SEEDS]
    assert _wins_checked_alive(starts, 3000, nested=2) >= 25


@pytest.mark.parametrize("autoplay", [True, False])
def test_fast_interlock_successors_are_the_general_ones(autoplay):
    # The fast path yields what the general Patience expander yields, in the same order,
    # along walks from deals and from endgames (runs, dropdowns, cards going home safely)
    assert fast_path(GAME) and not fast_path(sw.load_game("love_a_duck"))
    fast, general = (
        InterlockExpander(GAME, autoplay=autoplay),
        InterlockFamilyExpander(GAME, autoplay=autoplay),
    )
    # walked by an expander of their own: the dead-end test's verdicts depend on the positions
    # it was asked before, so the two compared must have been asked the same ones
    walker = InterlockFamilyExpander(GAME, autoplay=autoplay)
    positions = [
        p
        for number in (1, 2, 3, 36)
        for stride in (3, 7)
        for p in walk(walker, GAME.deal(number), 60, stride)
    ]
    positions += [p for seed in range(40) for p in walk(walker, _run_position(seed), 25, 3)]
    positions += [
        p for seed in range(40) for p in walk(walker, small_position(seed, (18, 26), runs=0.5), 25, 5)
    ]
    hidden = _with_the_rest_in_the_stock({"t0": ["2H", "9S"], "t1": ["TD"], **_home_to(C=1, D=0, H=1, S=1)})
    positions.append(general.start(hidden)[0])  # 9S onto TD turns up 2H, safe
    dropdowns = 0
    for state in positions:
        assert fast.start(state) == general.start(state)
        children = list(fast.expand(state))
        assert children == list(general.expand(state))
        dropdowns += sum(
            GAME.index_of[moves[0].dst] in GAME.covered.get(GAME.index_of[moves[0].src], ())
            for moves, _ in children
            if moves[0].src in GAME.index_of
        )
    assert len(positions) > 900 and dropdowns > 100, dropdowns


DUCK = sw.load_game("love_a_duck")


def duck_position(seed: int, left=(9, 13)) -> sw.State:
    """A random Love a Duck endgame (no stock: every card out lies on a pile): each suit
    home up to a random rank, the other cards on a random set of piles where no covering
    pile lies over an empty pile; a covered pile holds one card (it took none since it was
    dealt), an uncovered one any number, in any order (Yukon groups need none)."""
    rnd = random.Random(seed)
    while True:
        home = [rnd.randint(0, 13) for _ in range(4)]
        rest = [c for c in deck() if c & 15 > home[c >> 4 & 3]]
        filled = set()
        for t in reversed(DUCK.tableau_indices):  # front first: a pile under a filled pile is filled
            if any(c in filled for c in DUCK.covers[t]) or rnd.random() < 0.3:
                filled.add(t)
        if left[0] <= len(rest) <= left[1] and len(filled) <= len(rest):
            break
    rnd.shuffle(rest)
    columns = {t: [rest.pop()] for t in sorted(filled)}
    uncovered = [t for t in columns if not any(c in columns for c in DUCK.covers[t])]
    for card in rest:
        columns[rnd.choice(uncovered)].append(card)
    piles = {pid: [] for pid in DUCK.pile_ids}
    for t, column in columns.items():
        piles[DUCK.pile_ids[t]] = [card_name(c) for c in column]
    for f, suit in zip(DUCK.foundation_indices, range(4)):
        piles[DUCK.pile_ids[f]] = [card_name(suit << 4 | r) for r in range(1, home[suit] + 1)]
    return DUCK.state_from_dict({"game": DUCK.id, "piles": piles})


def test_love_a_duck_s_key_sorts_the_uncovered_back_piles():
    # t0 and t8 are uncovered (t9, t10, t17 and t18 empty), t3 and t4 are not (t13 holds 8C);
    # with no stock, the cards not home lie under KD QS on t0
    rest = ["KS", "QH", "JH", "TH", "8H", "7H", "6H", "KC", "QC", "JC", "TC", "9C"]
    piles = {"t0": [*rest, "KD", "QS"], "t8": ["9H"], "t3": ["KH"], "t4": ["5H"], "t13": ["8C"]}

    def state(piles):
        full = {pid: [] for pid in DUCK.pile_ids}
        full.update(_home_to(C=7, D=12, H=4, S=11))
        full.update(piles)
        return DUCK.state_from_dict({"game": DUCK.id, "piles": full})

    key = InterlockFamilyExpander(DUCK).key
    swapped = state({**piles, "t0": piles["t8"], "t8": piles["t0"]})
    covered = state({**piles, "t3": piles["t4"], "t4": piles["t3"]})
    assert key(swapped) == key(state(piles)) != key(covered)


def test_love_a_duck_same_answers_with_and_without_sorted_back_piles(monkeypatch):
    """Exhaustive searches of small endgames: sorting the uncovered back piles in the plain
    key changes no answer, and merges positions in some loss proofs."""
    _duck_without_dead_ends(monkeypatch)
    starts = [duck_position(seed) for seed in range(40)]
    results = [sw.solve(state, max_states=20_000) for state in starts]
    monkeypatch.setattr(interlock_expander, "backs_uncovered", lambda game: None)
    plain = [sw.solve(state, max_states=20_000) for state in starts]
    assert [r.status for r in results] == [r.status for r in plain]
    assert "unknown" not in [r.status for r in results]
    assert {r.status for r in results} == {"won", "lost"}
    merged = [r.progress.expanded < p.progress.expanded for r, p in zip(results, plain) if r.status == "lost"]
    assert sum(merged) >= 3, merged


def _duck_without_dead_ends(monkeypatch):
    monkeypatch.setattr(deadends, "applies", lambda game: False)


def test_love_a_duck_gets_the_dead_ends():
    assert deadends.applies(DUCK)
    assert profile_for(DUCK).lemmas(DUCK)["dead ends"]


# Love a Duck endgames whose searches end within 20,000 expansions without the dead-end test.
DUCK_SEEDS = range(200)


def test_love_a_duck_endgames_found_dead_are_lost_without_the_test(monkeypatch):
    # Yukon groups: the relaxation reads only that cards leave a pile from its top, a card
    # leaving the one under it as the head of the group that moves (or home), and where a
    # group's head may go; dead by the plain closure or by a split, each such endgame is
    # lost when searched to its end without the test
    dead_ends = DeadEnds(DUCK)
    starts = [duck_position(seed, (9, 16)) for seed in DUCK_SEEDS]
    dead = [state for state in starts if dead_ends.is_dead(state, every_split=True)]
    _duck_without_dead_ends(monkeypatch)
    answers = [sw.solve(state, max_states=20_000).status for state in dead]
    assert answers == ["lost"] * len(dead) and len(dead) >= 30, answers


def _duck_game(seed: int):
    """The positions of a random game of Love a Duck (deal ``seed + 1``, then legal moves,
    mostly home where one goes home), up to the first the plain closure calls dead."""
    rnd, test = random.Random(seed), DeadEnds(DUCK)
    state = DUCK.deal(seed + 1)
    for _ in range(400):
        piles = test.face_up(state.piles)
        if not test._closure(piles, test.pair):
            return
        yield state
        moves = list(DUCK.iter_moves(state))
        if not moves:
            return
        home = [move for move in moves if move.dst.startswith("f")]
        state = DUCK.apply_legal(state, rnd.choice(home if home and rnd.random() < 0.8 else moves))


def _first_dead_by(games: int, dead) -> list:
    """The first position of each of ``games`` random games of Love a Duck that
    ``dead(test, piles, uses, start)`` calls dead, ``uses`` the plain closure's."""
    test = DeadEnds(DUCK)
    found = []
    for seed in range(games):
        for state in _duck_game(seed):
            piles, uses = test.face_up(state.piles), bytearray(64)
            start = test._start(piles)
            test._closure(piles, test.pair, (), uses, start)
            if dead(test, piles, uses, start):
                found.append(state)
                break
    return found


def test_love_a_duck_positions_dead_by_the_king_split_are_lost_without_the_test(monkeypatch):
    # the first position of each random game that only the King split calls dead (its front
    # piles' Kings would need more empty back piles than there are), searched to its end
    # without the test
    found = _first_dead_by(700, lambda test, *position: test._kings_lost(*position))
    _duck_without_dead_ends(monkeypatch)
    answers = [sw.solve(state, max_states=100_000).status for state in found]
    assert answers == ["lost"] * len(found) and len(found) >= 5, answers


def test_love_a_duck_positions_dead_only_by_the_order_of_two_kings_are_lost(monkeypatch):
    # the first position of each random game that the King split calls dead only when its
    # cases name the order of two Kings (KING_DEPTH 2), not of one: three Kings, two back
    # piles; searched to its end without the test

    def only_by_two(test, *position):
        if not test._kings_lost(*position):
            return False
        with monkeypatch.context() as one_king:
            one_king.setattr(deadends, "KING_DEPTH", 1)
            return not test._kings_lost(*position)

    found = _first_dead_by(2000, only_by_two)
    _duck_without_dead_ends(monkeypatch)
    answers = [sw.solve(state, max_states=1_000_000).status for state in found]
    assert answers == ["lost"] * len(found) and len(found) >= 5, answers


def test_a_shorter_closed_king_case_is_alive_only_if_its_longer_ones_are():
    # why the King split tries only the orders of KING_DEPTH Kings (deadends.king_cases):
    # on positions of random games where the plain closure sends Kings to an empty back pile,
    # each closed case naming fewer (not all of them) that finds every card home, each case
    # naming one more King after its own does too
    test = DeadEnds(DUCK)
    checked = 0
    for seed in range(150):
        for state in _duck_game(seed):
            piles, uses = test.face_up(state.piles), bytearray(64)
            start = test._start(piles)
            test._closure(piles, test.pair, (), uses, start)
            sent = [king for king in deadends.KINGS if uses[king] & deadends.S_SENT]
            for size in range(min(len(sent), deadends.KING_DEPTH)):
                for order in itertools.permutations(sent, size):
                    if not test._closure(piles, test.pair, (), None, start, (order, True)):
                        continue
                    checked += 1
                    for king in set(sent) - set(order):
                        longer = (*order, king)
                        closed = len(longer) < deadends.KING_DEPTH
                        assert test._closure(piles, test.pair, (), None, start, (longer, closed)), (
                            DUCK.to_dict(state),
                            order,
                            king,
                        )
    assert checked >= 5000, checked


def test_no_position_of_a_love_a_duck_winning_line_is_dead(monkeypatch):
    # the wins found without the test, checked position by position under every split and
    # under splits nested two deep (the search's start)
    dead_ends = DeadEnds(DUCK)
    starts = [DUCK.deal(n) for n in (1, 2, 3, 5)] + [duck_position(seed, (9, 16)) for seed in DUCK_SEEDS]
    _duck_without_dead_ends(monkeypatch)
    won = 0
    for start in starts:
        result = sw.solve(start, max_states=20_000)
        if result.status != "won":
            continue
        won += 1
        state = start
        for move in (*result.moves, None):
            piles = state.piles
            assert not dead_ends.is_dead(state, every_split=True), (DUCK.to_dict(start), move)
            assert not dead_ends._dead_under(piles, (), 2, dead_ends._start(piles)), (
                DUCK.to_dict(start),
                move,
            )
            if move is not None:
                state = state.play(move)
    assert won >= 60, won
