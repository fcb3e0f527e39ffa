"""The solver's Triple Interchange reductions (games/interchange/reductions.py), each cross-checked:
the same answers with it and without, and nothing on a winning line flagged dead."""

import random

import pytest
from helpers import walk

import solwidget as sw
from solwidget.engine.cards import KING, card_name
from solwidget.games.interchange import reductions as interchange
from solwidget.games.interchange.expander import InterchangeExpander, InterchangeFamilyExpander, fast_path
from solwidget.games.interchange.profile import InterchangeProfile
from solwidget.games.interchange.reductions import DeadEnds
from solwidget.solver import search
from solwidget.solver.expand import GenericExpander, PatienceExpander
from solwidget.solver.profile import profile_for
from solwidget.solver.search import Solver
from solwidget.solver.stock import is_turn

GAME = sw.load_game("triple_interchange")
RANKS = "A23456789TJQK"


def foundations(levels) -> dict:
    """The foundations, a deck's four after another's (C, D, H, S; a list of ranks for each
    suit, one a deck), built up to the ranks given."""
    piles = {}
    for k, (suit, rank) in enumerate((s, r) for s, ranks in zip("CDHS", levels) for r in ranks):
        piles[f"f{k}"] = [RANKS[r] + suit for r in range(rank)]
    return piles


def position_of(piles: dict, game=GAME) -> sw.State:
    full = {pid: [] for pid in game.pile_ids}
    full.update(piles)
    return game.state_from_dict({"game": game.id, "piles": full})


def small_position(seed: int, left=(12, 18), game=GAME) -> sw.State:
    """A random endgame: foundations at random high ranks, ``left`` cards out, one card or
    more on each of most tableau piles (cards under the top face down at random), the
    others in the stock and waste."""
    rnd = random.Random(seed)
    while True:
        levels = [[13 - min(13, int(rnd.expovariate(0.8))) for _ in range(game.decks)] for _ in range(4)]
        out = [
            suit << 4 | rank
            for suit in range(4)
            for rank in range(1, 14)
            for level in levels[suit]
            if rank > level
        ]
        if left[0] <= len(out) <= left[1]:
            break
    rnd.shuffle(out)
    piles = foundations(levels)
    piles_out = len(game.tableau_indices)
    filled = rnd.randint(piles_out * 2 // 3, piles_out)
    columns = [[out.pop()] for _ in range(filled)]
    while len(out) > 3 and rnd.random() < 0.6:
        rnd.choice(columns).insert(0, out.pop())
    for t, column in enumerate(columns):
        piles[f"t{t}"] = [
            f"[{card_name(c)}]" if j < len(column) - 1 and rnd.random() < 0.5 else card_name(c)
            for j, c in enumerate(column)
        ]
    on_waste = rnd.randint(0, len(out))
    piles["waste"] = [card_name(c) for c in out[:on_waste]]
    piles["stock"] = [f"[{card_name(c)}]" for c in out[on_waste:]]
    return position_of(piles, game)


def _without_dead_ends(monkeypatch):
    monkeypatch.setattr(interchange, "applies", lambda game: False)


def _without_bridges(monkeypatch):
    monkeypatch.setattr(interchange, "bridges_apply", lambda game: False)


def test_the_dead_ends_apply_to_the_family_and_the_bridges_where_the_stock_turns_round():
    family = ("triple_interchange", "quadruple_interchange", "interchange", "unlimited", "single_interchange")
    assert all(interchange.applies(sw.load_game(g)) for g in family)
    assert [g for g in family if interchange.bridges_apply(sw.load_game(g))] == [
        "triple_interchange",
        "quadruple_interchange",
        "unlimited",
        "single_interchange",
    ]
    changed = [
        {"empty": "none"},
        {"build": "down in alternating colours"},
        {"cells": 1},
        {"moves": "one card"},
    ]
    others = [sw.load_game(g) for g in ("interlock", "freecell")]
    others += [
        sw.variant("unlimited", id=f"unlimited_{k}", name=f"Unlimited {k}", **change).game()
        for k, change in enumerate(changed)
    ]
    assert not any(interchange.applies(game) or interchange.bridges_apply(game) for game in others)
    three_card_draw = sw.variant("unlimited", id="unlimited_draw_3", name="Unlimited, draw 3", draw=3).game()
    assert interchange.applies(three_card_draw) and not interchange.bridges_apply(three_card_draw)


# -------------------------------------------------------------------- dead ends
def _aces_under_twos(**changes) -> sw.State:
    """Clubs home; each other Ace under the 2 of its suit on a pile of its own; the rest
    of spades, hearts and diamonds (3 to King, three of each) in the stock."""
    piles = foundations([[13, 13, 13], [0, 0, 0], [0, 0, 0], [0, 0, 0]])
    pairs = [("A" + s, "2" + s) for s in "DHS" for _ in range(3)]
    for t, (ace, two) in enumerate(pairs):
        piles[f"t{t}"] = [ace, two]
    piles["stock"] = [f"[{r}{s}]" for s in "DHS" for r in RANKS[2:] for _ in range(3)]
    piles.update(changes)
    return position_of(piles)


def test_twos_on_their_aces_with_no_pile_to_spare_are_dead(monkeypatch):
    # a 2 could only go on a 3 of its suit, and a 3 from the stock only on a 4 ... up to a
    # King, which needs an empty pile: none can ever be made
    dead = _aces_under_twos()
    # one pair in the stock instead: that pile is empty, and a King may go there
    alive = _aces_under_twos(
        t8=[], stock=[f"[{r}{s}]" for s in "DHS" for r in RANKS[2:] for _ in range(3)] + ["[AS]", "[2S]"]
    )
    assert DeadEnds(GAME).is_dead(dead) and not DeadEnds(GAME).is_dead(alive)
    _without_dead_ends(monkeypatch)
    assert sw.solve(dead).status == "lost"
    assert sw.solve(alive, max_states=20_000).status == "won"


def test_a_dead_deal_is_proved_lost_at_once():
    # the same dead position: the search expands nothing
    result = sw.solve(_aces_under_twos(), max_states=10)
    assert result.status == "lost" and result.progress.expanded <= 1


def line_positions(state, moves):
    yield state
    for move in moves:
        state = state.play(move)
        yield state


@pytest.mark.parametrize("number", [2, 5, 8, 11, 22, 28])
def test_no_position_on_a_winning_line_is_dead(number):
    dead_ends = DeadEnds(GAME)
    result = sw.solve(GAME.deal(number), max_states=3000)
    assert result.status == "won", result
    assert not any(dead_ends.is_dead(s) for s in line_positions(GAME.deal(number), result.moves))


# Two searches, written out so that the positions below do not change with the portfolio.
SEARCHES = [
    {"depth_weight": 0.5, "weights": {"down": 2.0}},
    {"depth_weight": 0.0, "weights": {"unsorted": 1.0, "empty": 2.0, "down": 2.0}},
]


def _waiting_positions(number: int, expansions: int) -> list:
    """The positions a search of deal ``number`` has waiting after ``expansions`` (Python's
    search: its frontier is there to read; the compiled one expands the same positions)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(InterchangeProfile, "compiled_search", lambda self, *args: None)
        solver = Solver(GAME.deal(number), max_states=expansions + 10, portfolio=SEARCHES)
    solver.step(expansions)
    return [entry[2] for search in solver._searches for entry in search.frontier.entries()]


@pytest.fixture(scope="module")
def dead_positions():
    """Six positions that a search of deal 9 meets and the test flags dead (a sixth of
    those waiting; random endgames are too loose to be dead, these are the real thing),
    spread among those with the fewest reserve cards, whose searches without the test and
    without bridges end soonest."""
    dead_ends = DeadEnds(GAME)
    waiting = _waiting_positions(9, 600)
    dead = [s for s in waiting if dead_ends.is_dead(s)]
    assert len(dead) >= len(waiting) // 10
    dead.sort(key=lambda s: len(s.piles[GAME.stock_index]) + len(s.piles[GAME.waste_index]))
    return dead[::4][:6]


def test_positions_found_dead_are_lost_without_the_test(monkeypatch, dead_positions):
    _without_dead_ends(monkeypatch)
    answers = [sw.solve(s, max_states=3000).status for s in dead_positions]
    assert answers == ["lost"] * 6, answers


def test_no_position_on_endgame_wins_is_dead():
    dead_ends = DeadEnds(GAME)
    wins = 0
    for seed in range(60):
        state = small_position(seed)
        result = sw.solve(state, max_states=3000)
        if result.status == "won":
            wins += 1
            assert not any(dead_ends.is_dead(s) for s in line_positions(state, result.moves)), seed
    assert wins >= 20


def plain_closure_is_dead(state) -> bool:
    """interchange.py's relaxation applied the plain way, card by card, every rule to every
    card until nothing changes (under rule S, level after level): the reference for
    DeadEnds.is_dead's quicker closure."""
    game, piles = state.game, state.piles
    cols = [[c & 63 for c in piles[t]] for t in game.tableau_indices]
    waste, stock = [c & 63 for c in piles[game.waste_index]], [c & 63 for c in piles[game.stock_index]]
    if game.redeals is not None and state.extra[0] >= game.redeals:  # rule S
        pile, loose = waste + stock[::-1], set()  # the order the cards will lie in
        levels = [*range(len(waste), len(pile), game.draw), len(pile)]
    else:
        pile, loose, levels = [], set(waste) | set(stock), [0]
    left = [False] * len(pile)  # the pile's cards found to leave
    gone_types: set[int] = set()  # their types: a pile card counts for rules H and A once gone

    def to_empty(t: int) -> bool:  # may a card of type t (and the run it heads) go to an empty pile?
        return game.empty_takes == "any" or t & 15 == KING

    home = [0] * 64
    for f in game.foundation_indices:
        for card in piles[f]:
            home[card & 63] += 1
    ready = {t for t in range(64) if t & 15 == 1 or (1 < t & 15 <= 13 and home[t - 1] > home[t])}
    gone = [[False] * len(col) for col in cols]
    for level in levels:
        changed = True
        while changed:
            changed = False
            empty = [all(g) for g in gone]
            exposed = {col[i] for col, g in zip(cols, gone) for i in range(len(col)) if all(g[i + 1 :])}
            top = next((i for i in reversed(range(level)) if not left[i]), None)
            homeable, available = set(ready), set(exposed)
            for t in range(64):  # rule H, up each suit
                if t in homeable and t in exposed | loose | gone_types and (t + 1) & 15 <= 13:
                    homeable.add(t + 1)
            for t in reversed(range(64)):  # rule A, down each suit
                if t in loose | gone_types and (t + 1 in available or (any(empty) and to_empty(t))):
                    available.add(t)
            if top is not None:  # the pile's top card leaves
                w = pile[top]
                if w in homeable or w + 1 in available or (to_empty(w) and any(empty)):
                    left[top] = True
                    gone_types.add(w)
                    changed = True
            for k, col in enumerate(cols):
                for i in range(len(col)):
                    run_top = i  # the run in suit that lies on col[i]
                    while (
                        run_top + 1 < len(col)
                        and col[run_top + 1] == col[run_top] - 1
                        and col[run_top] & 15 > 1
                    ):
                        run_top += 1
                    somewhere = col[i] + 1 in available or (
                        to_empty(col[i]) and any(e for q, e in enumerate(empty) if q != k)
                    )
                    leaves = (all(gone[k][i + 1 :]) and col[i] in homeable) or (
                        all(gone[k][run_top + 1 :]) and somewhere
                    )
                    if leaves and not all(gone[k][i : run_top + 1]):
                        gone[k][i : run_top + 1] = [True] * (run_top + 1 - i)
                        changed = True
    never_on_top = any(not all(g[i + 1 :]) for g in gone for i in range(len(g))) or not all(left)
    needed = loose | set(pile) | {t for col in cols for t in col}
    return never_on_top or not needed <= homeable


def test_the_dead_end_closure_is_the_plain_one():
    # DeadEnds.is_dead skips piles whose cards still wait for the same hosts, sends whole
    # lines of cards home at once (_homeable): the same answers as the rules card by card
    positions = _waiting_positions(9, 300) + [
        p for seed in range(10) for p in walk(InterchangeFamilyExpander(GAME), small_position(seed), 10, 3)
    ]
    dead_ends = DeadEnds(GAME)
    answers = [dead_ends.is_dead(s) for s in positions]
    assert answers == [plain_closure_is_dead(s) for s in positions]
    assert 10 <= sum(answers) <= len(answers) - 10


def test_a_top_card_that_may_go_home_only_later_is_asked_again():
    # 5H tops the Queens it hides, with no 6H to go to: it may go home only once a 4H is on
    # top, when the QS and KS over them have left; then the Queens go home, and the Kings
    # at the bottom of every other pile (DeadEnds skips a pile until it may change: here
    # only its top card's way home does)
    piles = foundations([[11, 11, 11], [11, 11, 11], [3, 3, 3], [11, 11, 13]])
    piles.update(
        t0=["QH"] * 3 + ["QD"] * 3 + ["QC"] * 3 + ["5H"],
        t1=["KC", "4H", "QS"],
        t2=["KC", "4H", "QS"],
        t3=["KC", "4H", "KS"],
        t4=["KD"],
        t5=["KD"],
        t6=["KD"],
        t7=["KH"],
        t8=["KH"],
        stock=["[KS]", "[KH]", "[5H]", "[5H]"] + [f"[{r}H]" for r in RANKS[5:11] for _ in range(3)],
    )
    state = position_of(piles)
    assert not DeadEnds(GAME).is_dead(state) and not plain_closure_is_dead(state)
    assert sw.solve(state, max_states=2000).status == "won"


def test_homeable_sends_lines_home_as_the_rule_does_a_card_at_a_time():
    rnd = random.Random(5)
    for _ in range(2000):
        present = rnd.getrandbits(64) & interchange.RANKS_MASK
        ready = interchange.ACES | rnd.getrandbits(64) & rnd.getrandbits(64) & interchange.RANKS_MASK
        homeable = ready
        for _ in range(13):
            homeable |= (homeable & present) << 1 & interchange.RANKS_MASK
        assert interchange._homeable(ready, present) == homeable


# -------------------------------------------------------------------- pooled proofs
def test_pooled_loss_proofs_agree_with_a_single_search(monkeypatch):
    """The portfolio's searches pool their loss proofs and (from the start, here) skip each
    other's positions (search.py); a single search does neither: both answer alike, on
    positions that a search of deal 595 (lost) has waiting and does not find dead."""
    monkeypatch.setattr(search, "POOL_AFTER", 0)
    dead_ends = DeadEnds(GAME)
    waiting = [s for s in _waiting_positions(595, 1500) if not dead_ends.is_dead(s)]
    waiting.sort(key=lambda s: len(s.piles[GAME.stock_index]) + len(s.piles[GAME.waste_index]))
    shared = 0
    for state in waiting[::60]:
        pooled = sw.solve(state, max_states=3000)
        alone = sw.solve(state, max_states=3000, depth_weight=0.5)
        assert pooled.status == alone.status == "lost"
        shared += pooled.progress.expanded > profile_for(GAME).opening  # both searches took turns
    assert shared >= 3


def test_a_pooled_loss_proof_takes_fewer_expansions(monkeypatch):
    """Deal 785: the two searches used to walk the same positions each (12,298 expansions);
    past POOL_AFTER they leave each other's positions alone and the proof is theirs."""
    state = GAME.deal(785)
    pooled = sw.solve(state, max_states=20_000)
    monkeypatch.setattr(InterchangeExpander, "pooled_proofs", False)
    apart = sw.solve(state, max_states=20_000)
    assert pooled.status == apart.status == "lost"
    assert pooled.progress.expanded < 11_000 < apart.progress.expanded


# -------------------------------------------------------------------- bridges
def test_bridges_are_legal_lines_to_the_positions_they_give():
    count = 0
    for seed in range(40):
        state = small_position(seed)
        for moves, child in [*interchange.bridges(GAME, state), *interchange.home_bridges(GAME, state)]:
            reached = state
            for move in moves:
                reached = reached.play(move)
            assert reached.piles == child.piles, (seed, moves)
            # a bridge ends with a card from a pile, or a King home
            assert moves[-1].src != "waste" or child.piles[GAME.index_of[moves[-1].dst]][-1] & 15 == 13
            count += 1
    assert count >= 20


def test_a_reserve_card_goes_to_the_tableau_only_to_take_a_run():
    # 8S from the stock goes on 9S only if 7S (t1) follows at once, JH on QH only with TH;
    # 9H, 8H and 7H would take nothing; KH, JH and 8S go to the first empty pile only, each
    # with the card that follows it
    state = position_of(
        {
            **foundations([[13] * 3, [13] * 3, [6, 13, 13], [6, 13, 13]]),
            "t0": ["KS", "QS", "JS", "TS", "9S"],
            "t1": ["7S"],
            "t2": ["QH"],
            "t3": ["TH"],
            "stock": ["[8S]", "[KH]", "[JH]", "[7H]", "[8H]", "[9H]"],
        }
    )
    lines = [moves for moves, _ in InterchangeFamilyExpander(GAME)._moves(state)]
    played = sorted(
        " ".join(str(m) for m in moves if not is_turn(m))
        for moves in lines
        if any(m.src == "waste" and m.dst[0] == "t" for m in moves)
    )
    assert played == [
        "waste t0 t1 t0",
        "waste t2 t3 t2",
        "waste t4 t1 t4",
        "waste t4 t2 t4",
        "waste t4 t3 t4",
    ]
    plain = PatienceExpander(GAME)
    plain.bridges = False
    assert any(moves[-1] == sw.Move("waste", "t3") for moves, _ in plain._moves(state))


def test_a_reserve_card_goes_home_only_to_take_a_card_from_a_pile():
    # 7H and 8H go home from the stock only with 9H (t0) after them; QS only with KS
    state = position_of(
        {
            **foundations([[13] * 3, [13] * 3, [6, 13, 13], [11, 13, 13]]),
            "t0": ["9H"],
            "t1": ["KH", "QH", "JH", "TH"],
            "stock": ["[7H]", "[KS]", "[8H]", "[QS]"],
        }
    )
    lines = [moves for moves, _ in InterchangeFamilyExpander(GAME)._moves(state)]
    home = sorted(
        " ".join(str(m) for m in moves if not is_turn(m))
        for moves in lines
        if any(m.src == "waste" and m.dst[0] == "f" for m in moves)
    )
    assert home == ["waste f6 waste f6 t0 f6", "waste f9 waste f9"]
    plain = PatienceExpander(GAME)
    plain.bridges = False
    assert any(moves[-1] == sw.Move("waste", "f6") for moves, _ in plain._moves(state))


def test_same_answers_with_and_without_bridges(monkeypatch, dead_positions):
    """Random endgames (won) and the dead positions above (lost), searched without the
    dead-end test: bridges change no answer."""
    _without_dead_ends(monkeypatch)
    positions = [small_position(seed) for seed in range(20)] + dead_positions
    answers = [sw.solve(s, max_states=3000).status for s in positions]
    _without_bridges(monkeypatch)
    plain = [sw.solve(s, max_states=3000).status for s in positions]
    both = [(a, b) for a, b in zip(answers, plain) if "unknown" not in (a, b)]
    assert all(a == b for a, b in both), list(zip(answers, plain))
    assert len(both) >= 24 and sum(a == "lost" for a, _ in both) >= 5


# -------------------------------------------------------------------- the fast path
@pytest.mark.parametrize(
    "game_id", ["triple_interchange", "quadruple_interchange", "unlimited", "single_interchange"]
)
@pytest.mark.parametrize("autoplay", [True, False])
def test_fast_interchange_successors_are_the_general_ones(game_id, autoplay):
    # The fast path yields what the general Patience expander yields, in the same order,
    # along walks from deals and from endgames (empty piles, redeals, bridges home). Both
    # would ask moves.py for the moves: the general one gets Patience's own generator.
    game = sw.load_game(game_id)
    assert fast_path(game) and not fast_path(sw.load_game("interchange"))
    generic = sw.load_game(game_id)
    generic.generator = None
    fast, general = (
        InterchangeExpander(game, autoplay=autoplay),
        InterchangeFamilyExpander(generic, autoplay=autoplay),
    )
    deals = (
        (28, 68, 82) if game_id == "single_interchange" else (1, 2, 3)
    )  # most of its deals are dead at once
    positions = [p for number in deals for p in walk(general, game.deal(number), 80, 7)]
    positions += [p for seed in range(12) for p in walk(general, small_position(seed, game=game), 25, 3)]
    assert any(not p.piles[t] for p in positions for t in game.tableau_indices)
    assert any(p.extra[0] for p in positions)
    for state in positions:
        assert fast.start(state) == general.start(state)
        assert list(fast.expand(state)) == list(general.expand(state))


def _asking(keys: list, seen: set):
    """An ``admit`` that records the keys asked and takes those not seen before."""

    def admit(key):
        keys.append(key)
        new = key not in seen
        seen.add(key)
        return new

    return admit


@pytest.mark.parametrize("autoplay", [True, False])
def test_fast_scored_children_are_the_expanded_ones(autoplay):
    # scored asks a move's or bridge's key before making its child when no safe move can
    # follow, and scores it (a tableau move or bridge from its parent): the same children,
    # the same keys asked in the same order, as scoring what expand gives, and the scores
    # the score gives, along walks where safe cards turn up and lie in the reserve
    fast = InterchangeExpander(GAME, autoplay=autoplay)
    positions = [p for number in (1, 2) for p in walk(fast, GAME.deal(number), 60, 7)]
    positions += [p for seed in range(12) for p in walk(fast, small_position(seed), 25, 3)]
    quick, plain = ([], set()), ([], set())
    settled = 0
    scored = homed = 0
    for state in positions:
        children = list(fast.scored(state, (), _asking(*quick)))
        assert [c[:2] for c in children] == [
            c[:2] for c in GenericExpander.scored(fast, state, (), _asking(*plain))
        ]
        settled += sum(any(m.dst.startswith("f") for m in moves[1:]) for moves, _, _ in children)
        for moves, child, value in children:  # a score from the parent's: the score's
            assert value is None or value == fast.score(child)
            scored += value is not None
            homed += value is not None and moves[-1].dst.startswith("f")
    assert quick[0] == plain[0] and len(quick[1]) < len(quick[0])
    assert settled > 0 or not autoplay
    assert scored > len(positions) and homed > 0
