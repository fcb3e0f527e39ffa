"""A search's memory: no reference cycles per expansion, memory given back when a solve ends,
the Python search bounded over many positions, the searches in C recycling their nodes.

The searches pause the garbage collector (search.py's ``collector_paused``): a cycle made by an
expansion would stay until the solve ends, and then until the collector's next pass."""

import gc
import json
import subprocess
import sys
import tracemalloc

import pytest

import solwidget as sw
from solwidget.solver import native_search, search
from solwidget.solver.native_search import NativeSearch
from solwidget.solver.profile import profile_for

# Games searched here in Python (their profiles offering no compiled search, as where no
# compiler built the searches in C), each with a deal that its search does not decide within
# a few thousand expansions: their expanders are the general ones, with a stock walked, face-
# down cards, Yukon groups.
PYTHON_SEARCHED = {"interchange": 49, "guardian": 2, "love_a_duck": 22}
NATIVE_GAMES = {"freecell": 1, "triple_interchange": 312, "interlock": 132, "mutated": 213}


@pytest.mark.parametrize("game_id", PYTHON_SEARCHED)
def test_an_expansion_makes_no_reference_cycles(game_id, monkeypatch):
    game = sw.load_game(game_id)
    monkeypatch.setattr(profile_for(game), "compiled_search", lambda *options: None)
    solver = sw.Solver(game.deal(PYTHON_SEARCHED[game_id]), max_states=None)
    solver.step(1)  # the search set up
    gc.collect()
    gc.disable()  # no pass in between finds them
    try:
        solver.step(1500)
        assert solver.progress.expanded > 1000
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_finished_solve_gives_its_memory_back(monkeypatch):
    # The search's positions, nodes and tables as it ends: what the collector finds then is
    # the search's set-up alone (its score's and key's compiled closures, which share a scope,
    # a few hundred objects whatever the expansions), not some objects an expansion. Collected,
    # nothing is left. (The collector's pass also empties the interpreter's free lists of
    # tuples and the like, a few MB at most that the next solve would reuse.)
    state = sw.load_game("guardian").deal(2)
    monkeypatch.setattr(profile_for(state.game), "compiled_search", lambda *options: None)
    sw.solve(state, max_states=50)  # the game's own tables made once
    gc.collect()
    tracemalloc.start()
    gc.disable()  # as Solver.solve holds it off
    try:
        before = tracemalloc.get_traced_memory()[0]
        solver = sw.Solver(state, max_states=5000)
        while not solver.done:
            solver.step(1000)
        found = gc.collect()
        left = tracemalloc.get_traced_memory()[0] - before
    finally:
        gc.enable()
        tracemalloc.stop()
    assert solver.result.progress.expanded == 5000
    assert found < 1000, found
    assert left < 1_000_000, f"{left:,} bytes left after the solve"


BOUNDED = """
import json, sys
import solwidget as sw
from solwidget.solver.search import Solver
from solwidget.solver.profile import profile_for
def rss(field):
    return next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith(field))
game = sw.load_game("guardian")
profile_for(game).compiled_search = lambda *options: None  # the search in Python
solver = Solver(game.deal(2), max_states=200_000)
solver.step(1)
before = rss("VmHWM")
result = solver.solve()
print(json.dumps({"expanded": result.progress.expanded, "grown": rss("VmHWM") - before,
                  "waiting": max(s.waiting for s in solver._searches),
                  "searches": [type(s).__name__ for s in solver._searches]}))
"""


@pytest.mark.slow
def test_the_python_search_stays_bounded_over_200000_positions():
    # In a child process of its own: its peak resident memory is the search's alone, whatever
    # else the machine runs. Guardian's search in Python (its profile offering no compiled
    # search), compiled by Cython or not; its positions cost well under 2 KB each with the
    # keys of the tables, where the cycles of an expansion would cost about 4.7 KB more.
    done = subprocess.run([sys.executable, "-c", BOUNDED], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    assert report["searches"] == ["_Search"]
    assert report["expanded"] == 200_000
    assert report["grown"] < 2_000 * 200_000, report


def native_solver(game_id, compact_at=None, **options):
    solver = sw.Solver(sw.load_game(game_id).deal(NATIVE_GAMES[game_id]), **options)
    if not all(isinstance(s, NativeSearch) for s in solver._searches):
        pytest.skip("the searches in C are not built")
    if compact_at is not None:
        for search in solver._searches:
            search.core.compact_at(compact_at)
    return solver


def outcome(solver):
    p = solver.result.progress
    return (
        solver.result.status,
        solver.result.moves,
        p.expanded,
        p.generated,
        p.frontier,
        p.depth,
        p.best_score,
        p.best_line,
    )


@pytest.mark.parametrize("game_id", NATIVE_GAMES)
def test_recycling_nodes_leaves_the_searches_the_same(game_id):
    budget = {"max_states": 20_000}
    plain = native_solver(game_id, **budget)
    recycled = native_solver(game_id, compact_at=64, **budget)
    plain.solve(chunk=777)
    recycled.solve(chunk=777)
    assert outcome(recycled) == outcome(plain)


@pytest.mark.parametrize("game_id", ["triple_interchange", "mutated"])
def test_the_nodes_in_c_stay_bounded_as_expansions_grow(game_id):
    # A frontier of 10,000 positions at most: the nodes still needed are theirs and their
    # ancestors' (one or two a position waiting), and the others are recycled once there are
    # twice as many; kept, there would be one for every child pushed, about four an expansion.
    # Once the search ends only the best line's stay.
    solver = native_solver(game_id, compact_at=10_000, frontier_size=10_000, max_states=100_000)
    most = 0
    while not solver.done:
        most = max([most] + [s.core.nodes for s in solver._searches])
        solver.step(2_000)
    assert solver.result.progress.expanded > 60_000
    assert most < 40_000, most
    assert max(s.core.node_bytes for s in solver._searches) < 100_000


def test_a_sweep_leaves_the_buckets_in_c_the_room_of_their_entries():
    # Interlock's search explores: its frontier keeps each waiting entry in its kind's bucket
    # too, and the search leaves kinds behind as it goes. Its deal 11 is lost after about
    # 72,000 expansions, its frontier down to about 1,300 positions near the end. A sweep (here
    # every 1,000 stale copies, and once more at the last pop, which leaves no stale copy) cuts
    # a bucket a quarter full or less to twice its entries (256 bytes at least), or gives it
    # back when it is empty. Then a bucket of k entries (24 bytes each) has at most 4 x 24 x k
    # bytes of room, or 256, and the kinds with entries are at most the waiting positions.
    # Kept, the room was each bucket's most ever: 2.0 MB at this point.
    solver = sw.Solver(sw.load_game("interlock").deal(11), max_states=None)
    (search,) = solver._searches
    if not isinstance(search, NativeSearch):
        pytest.skip("the searches in C are not built")
    search.core.stale_most = 1_000
    while solver.progress.expanded < 70_000:
        solver.step(1_000)
    search.core.stale_most = 0
    solver.step(1)
    waiting = search.waiting
    assert 100 < waiting < 5_000, waiting
    assert search.core.bucket_bytes <= (4 * 24 + 256) * waiting, (search.core.bucket_bytes, waiting)
    assert solver.solve().status == "lost"


def test_the_frontiers_hold_half_once_the_process_memory_passes_the_limit(monkeypatch):
    # Positions that cost more than default_frontier_size reckons show in the process's
    # resident memory: past the limit, the frontiers' room is cut to half of what they hold,
    # and cut again only once the memory has grown by CUT_GROWTH more. The search explores,
    # so that its frontier outlasts the cuts (Guardian's own search, which does not, empties
    # its cut frontier within a few thousand expansions).
    resident = [search.RESIDENT_LIMIT - 1]
    monkeypatch.setattr(search, "resident_bytes", lambda: resident[0])
    exploring = [{"depth_weight": 0.5, "explore": 0.3, "weights": {"covered": 8.0}}]
    solver = sw.Solver(sw.load_game("guardian").deal(2), max_states=None, portfolio=exploring)
    solver.step(5000)
    room = solver._frontier_size
    (one,) = solver._searches
    assert room == search.default_frontier_size(solver.game, one.position_bytes)  # as reckoned
    resident[0] = search.RESIDENT_LIMIT + 1
    solver.step(5000)
    cut = solver._frontier_size
    assert cut < room and sum(s.waiting for s in solver._searches) < room
    assert not any(s.complete for s in solver._searches)  # trimmed: it proves no loss now
    solver.step(5000)
    assert solver._frontier_size == cut  # the memory has not grown: no further cut
    resident[0] += search.CUT_GROWTH + 1
    solver.step(5000)
    assert solver._frontier_size < cut


def test_the_resident_memory_is_read_where_the_system_tells_it():
    resident = search.resident_bytes()  # this process's: tens of MB at least
    if sys.platform.startswith("linux"):  # /proc tells it there
        assert resident is not None and 10_000_000 < resident < 100_000_000_000
    else:
        assert resident is None or 10_000_000 < resident < 100_000_000_000


def test_a_search_alone_keeps_all_the_keys_a_portfolio_a_third(monkeypatch):
    # A search alone keeps every key in its tables; a portfolio's tables keep a third, and a
    # pooled proof a third in each of its two sets; the first search going on alone takes
    # them all again. In Python, where the tables' size can be read.
    for game_id in ("interlock", "triple_interchange"):
        monkeypatch.setattr(profile_for(sw.load_game(game_id)), "compiled_search", lambda *options: None)
    alone = sw.Solver(sw.load_game("interlock").deal(1), max_states=None, table_size=9_000)
    assert [s.table_size for s in alone._searches] == [4_500]  # two generations of a half
    pair = sw.Solver(sw.load_game("triple_interchange").deal(312), max_states=None, table_size=9_000)
    assert [s.table_size for s in pair._searches] == [750, 750]  # 3,000 keys in all
    assert pair._closure is not None and pair._closure.limit == 3_000
    pair.step(search.POOL_AFTER + 30_000)  # past alone_after
    assert len(pair._running) == 1 and pair._running[0].table_size == 4_500
    assert search._key_shares(9_000, 1) == (9_000, 0) and search._key_shares(9_000, 3) == (3_000, 3_000)


def test_the_frontiers_room_is_what_the_dearest_search_keeps():
    # A search in C keeps a waiting position in less room than one in Python, and one that
    # does not explore in less than one that does: the frontiers get FRONTIER_BYTES of the
    # dearest, set again when the first goes on alone; a size given stays as given.
    game = sw.load_game("triple_interchange")
    pair = sw.Solver(game.deal(312), max_states=None)
    assert all(isinstance(s, NativeSearch) for s in pair._searches)
    explores = 2 * (156 + 150 + 24)  # its second search explores a tenth: its buckets too
    assert [s.position_bytes for s in pair._searches] == [2 * (156 + 150), explores]
    assert pair._frontier_size == search.FRONTIER_BYTES // explores
    pair.step(40_000)
    (first,) = pair._running
    assert pair._frontier_size == first.frontier_size == search.FRONTIER_BYTES // (2 * (156 + 150))
    given = sw.Solver(game.deal(312), max_states=None, frontier_size=5_000)
    given.step(40_000)
    assert given._frontier_size == given._running[0].frontier_size == 5_000
    with pytest.raises(ValueError):
        first.core.frontier_size = -1
    assert first.frontier_size == search.FRONTIER_BYTES // (2 * (156 + 150))


def test_a_search_in_c_keeps_the_keys_it_measures():
    # The tables start with the keys the profile reckons (a byte a card and 120 more); once a
    # search in C holds KEYS_MEASURED keys, they get what TABLE_BYTES holds of its own keys:
    # their bytes, two for a length, an eighth for an arena's unused room, 64 for a slot.
    # Triple Interchange's first search goes on alone after 30,000 expansions, with them all.
    game = sw.load_game("triple_interchange")
    reckoned = profile_for(game).key_bytes(game)
    pair = native_solver("triple_interchange", max_states=None)
    first = pair._searches[0]
    assert first.key_bytes is None and pair._table_size == search.TABLE_BYTES // reckoned
    assert first.core.table_half == search.TABLE_BYTES // reckoned // 3 // 2 // 2
    pair.step(100_000)
    assert pair._running == [first] and first.core.keys >= native_search.KEYS_MEASURED
    measured = first.core.key_arena * 9 // (8 * first.core.keys) + 64
    assert first.key_bytes == measured < reckoned  # its keys are shorter than a card a byte
    # as measured at the last turn's end, a few expansions ago
    assert search.TABLE_BYTES // (measured + 2) < pair._table_size < search.TABLE_BYTES // (measured - 2)
    assert first.core.table_half == pair._table_size // 2
    # measured at turns' ends, the same however the search is stepped
    stepped = native_solver("triple_interchange", max_states=100_000)
    while not stepped.done:
        stepped.step(777)
    again = native_solver("triple_interchange", max_states=100_000)
    again.solve(chunk=100_000)
    assert stepped._table_size == again._table_size == pair._table_size
    assert outcome(stepped) == outcome(again)
    # a size given stays as given; a size that makes no sense is refused and changes nothing
    given = native_solver("triple_interchange", max_states=None, table_size=9_000)
    given.step(40_000)
    assert given._table_size == 9_000 and given._running[0].core.table_half == 4_500
    with pytest.raises(ValueError):
        first.core.table_half = -1
    assert first.core.table_half == pair._table_size // 2


def test_a_pooled_proof_keeps_its_share_of_the_keys_measured():
    # Mutated Solitaire's three searches pool a proof: its two sets hold the same keys as the
    # tables, in C in the same way, so they get their third of what the measure gives.
    game = sw.load_game("mutated")
    solver = native_solver("mutated", max_states=None)
    assert solver._closure.limit == search.default_table_size(game) // 3
    solver.step(100_000)
    measured = [s.key_bytes for s in solver._searches]
    assert None not in measured and solver._closure is not None
    dearest = max(measured)
    assert search.TABLE_BYTES // (dearest + 2) < solver._table_size < search.TABLE_BYTES // (dearest - 2)
    assert solver._closure.limit == solver._table_size // 3 > search.default_table_size(game) // 3
    assert [s.core.table_half for s in solver._searches] == [solver._table_size // 3 // 3 // 2] * 3


def test_a_search_in_python_keeps_the_keys_its_profile_reckons(monkeypatch):
    # A dict's keys are not measured: the Python search keeps the profile's reckoning.
    game = sw.load_game("interlock")
    monkeypatch.setattr(profile_for(game), "compiled_search", lambda *options: None)
    solver = sw.Solver(game.deal(6141), max_states=None)
    solver.step(3_000)
    (one,) = solver._searches
    assert one.key_bytes is None and one.generated > 3_000
    assert solver._table_size == search.default_table_size(game) == 2 * one.table_size
