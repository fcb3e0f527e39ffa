"""Numbered deals: layouts (counts and faces), equality with PySolFC, bad deal numbers.

The expected layouts are literals: deal 1 from /work/notes/snippets/deal1*.txt (checked
there against PySolFC's own code), deals 31999 and 32000 (the two generators either side of
PySolFC's switch) from the notes' verified reference function, run once.
"""

import pytest

import solwidget as sw
from solwidget.engine.deals import MAX_DEAL


def rows(text):
    return [line.split() for line in text.strip().splitlines()]


def tableau(state):
    return [state.pile(f"t{i}") for i in range(sum(1 for p in state.game.pile_ids if p[0] == "t"))]


# ----------------------------------------------------------------- FreeCell
FREECELL = {
    1: """JD KD 2S 4C 3S 6D 6S
          2D KC KS 5C TD 8S 9C
          9H 9S 9D TS 4S 8D 2H
          JC 5S QD QH TH QS 6H
          5D AD JS 4H 8H 6C
          7H QC AS AC 2C 3D
          7C KH AH 4D JH 8C
          5H 3H 3C 7S 7D TC""",
    31999: """JD AC AH 9C 5H TC QS
              JH TH 7H 3D 8C 4D 2D
              AD AS 7C 5C 4H 9S QD
              QH 8H 5D 4C TD 2C 3S
              KH 9D 7S 2S TS KD
              6S 2H 6C 8S 3H 9H
              6D 8D QC 3C 4S KS
              JC 6H JS 7D KC 5S""",
    32000: """7S JC 4H 6H AH 6C 7C
              4D 3C 6S 7D JD 2H 8H
              JS 2C 8S 5H 4S 2D KC
              8D 5S 9S QS JH 5D AS
              6D 9D TS AD TD KS
              3H AC 9H QH 3S QC
              3D 9C KD TC 7H KH
              TH 2S QD 4C 8C 5C""",
}


@pytest.mark.parametrize("number", sorted(FREECELL))
@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire", "inverted_freecell"])
def test_freecell_family_deals_equal_pysolfc_freecell(game_id, number):
    assert tableau(sw.load_game(game_id).deal(number)) == rows(FREECELL[number])


def test_freecell_deal_1_is_microsoft_deal_1():
    assert sw.load_game("freecell").deal(1).pile("t0") == ["JD", "KD", "2S", "4C", "3S", "6D", "6S"]


# ----------------------------------------------------------------- Interchange family
INTERCHANGE = {
    1: (
        """3D [KC] TC [2H] 9H [2D] 7D
           5H [8D] 8D [TD] 8S [6H] 4S
           JC [JD] 4C [8S] 7D [TH] 8H
           KH [AS] JS [AC] 9S [8C] TH
           5S [8C] QC [7C] 8H [2S] AH
           5H [6C] 4H [2H] JH [3S] JC
           KC [6H] KD [AD] 4D [9C] 4H""",
        "7H",
        "QS",
    ),
    31999: (
        """3D [7S] 8H [6D] 6D [6S] 3H
               5S [9C] 2C [2S] TD [KC] 5H
               2H [AC] 4D [JC] 8D [2D] AS
               7H [5S] KH [AS] 9S [8S] AD
               AH [3S] QS [7H] 4H [9S] KD
               QS [3D] JC [4S] 5H [9H] TH
               JS [7C] 2H [2C] 3C [2D] QC""",
        "6S",
        "6H",
    ),
    32000: (
        """KH [JS] 7S [JD] TC [8D] 4S
               9H [JS] TH [KD] 2H [KC] 8C
               TD [6C] 7S [7C] 7H [AS] 3S
               6D [3C] 9D [KC] QC [7D] 5S
               3D [KD] QD [4C] 4D [JH] 2C
               9C [4H] 4C [5C] AH [5H] AC
               TH [AC] 7C [TS] AS [JD] 5C""",
        "5S",
        "3H",
    ),
}

TRIPLE_INTERCHANGE = {
    1: (
        """3D [JC] 6H [3D] 4C [3C] 7D [JS] 2S
           TS [QC] 3D [7C] AC [7S] 7H [KC] 7H
           8S [3S] JS [6H] 5D [4H] 8H [QS] 4H
           6H [7D] QS [4H] 2S [AS] 5S [2D] KD
           5S [6D] 4S [JD] KD [3H] 8C [4D] 8D
           JD [9S] 8D [2D] 9H [KS] 7C [3H] 3C
           AH [4S] 3H [9D] 9H [9S] 2H [5D] 6C
           6C [4C] JH [AD] JD [JC] KH [AD] 5H
           AH [JS] 2C [AH] QH [4C] KD [6D] QH""",
        "6S",
        "9H",
    ),
    31999: (
        """3D [8D] 5H [TH] JH [QD] AD [8C] 4D
               2H [JS] AC [7S] 5C [3S] 7D [2H] KD
               6C [2C] TH [KD] 5H [4S] 5D [4S] 9S
               6S [TC] JH [8H] 8H [3C] 3D [2D] 4C
               KH [7C] 9H [5S] AS [KH] 6H [TS] 3S
               TC [7S] KC [7C] QS [7H] TD [JH] 8D
               4H [JC] 9S [TS] 2S [KH] JD [TD] AC
               9D [6S] 7C [7H] 6H [JC] AS [8D] JD
               QS [QD] 4D [6H] KC [3H] 5C [2C] JC""",
        "9H",
        "TC",
    ),
    32000: (
        """7C [8C] 4H [9S] 9S [8H] 5D [KH] AD
               AH [5C] JH [KD] JS [3C] 3H [6S] 5S
               9S [9C] 5D [8D] 5H [9D] 2C [2S] 7D
               4D [QS] AH [JH] QC [7S] 7S [9C] 8C
               QH [2C] 7H [7S] AD [8H] 4C [KC] AS
               2D [5H] TC [3H] KH [5C] 6D [2C] KS
               5H [4C] 3C [7C] 9D [3C] 4S [TD] 4S
               KC [TC] 6C [TH] 6C [4D] TC [6H] 2S
               JH [JS] 4D [2H] TS [6H] 8S [TS] QC""",
        "JC",
        "9D",
    ),
}

INTERCHANGE_1_STOCK = (
    "AC 6S 5S 4C 2D 3H 5D KH 2C 3D 7H QD KD TS 6D 7S QD TS 5D KS 9D 5C 7S 3H 9H "
    "2C QS AH TC JD 3C 6S JH AD 6C 5C 4D JS 9D 9C TD 6D KS 4S AS 3C QH 2S 9S QH "
    "3S 7C QC QS"
)


@pytest.mark.parametrize(
    "game_id, number", [(g, n) for g in ("interchange", "unlimited") for n in INTERCHANGE]
)
def test_interchange_deals_equal_pysolfc(game_id, number):
    piles, waste, stock_top = INTERCHANGE[number]
    state = sw.load_game(game_id).deal(number)
    assert tableau(state) == rows(piles)
    assert state.pile("waste") == [waste]
    assert len(state.pile("stock")) == 54 and state.pile("stock")[-1] == f"[{stock_top}]"


def test_interchange_deal_1_stock_order_equals_pysolfc_talon():
    stock = sw.load_game("interchange").deal(1).pile("stock")
    assert stock == [f"[{c}]" for c in INTERCHANGE_1_STOCK.split()]


@pytest.mark.parametrize("number", sorted(TRIPLE_INTERCHANGE))
def test_triple_interchange_deals_equal_pysolfc(number):
    piles, waste, stock_top = TRIPLE_INTERCHANGE[number]
    state = sw.load_game("triple_interchange").deal(number)
    assert tableau(state) == rows(piles)
    assert state.pile("waste") == [waste]
    assert len(state.pile("stock")) == 74 and state.pile("stock")[-1] == f"[{stock_top}]"


# ----------------------------------------------------------------- layouts of every game here
# game: (cards per tableau pile, face-down positions from the bottom, stock, waste)
LAYOUTS = {
    "reversed_solitaire": ([7, 7, 7, 7, 6, 6, 6, 6], set(), None, None),
    "inverted_freecell": ([7, 7, 7, 7, 6, 6, 6, 6], set(), None, None),
    "freecell": ([7, 7, 7, 7, 6, 6, 6, 6], set(), None, None),
    "triple_interchange": ([9] * 9, {1, 3, 5, 7}, 74, 1),
    "interchange": ([7] * 7, {1, 3, 5}, 54, 1),
    "unlimited": ([7] * 7, {1, 3, 5}, 54, 1),
    "single_interchange": ([5] * 5, {1, 3}, 26, 1),
    "quadruple_interchange": ([11] * 11, {1, 3, 5, 7, 9}, 86, 1),
}


@pytest.mark.parametrize("number", [1, 5, 31999, 32000, 987654321])
@pytest.mark.parametrize("game_id", sorted(LAYOUTS))
def test_deal_layout_counts_and_faces(game_id, number):
    lengths, down_at, stock, waste = LAYOUTS[game_id]
    state = sw.load_game(game_id).deal(number)
    piles = tableau(state)
    assert [len(p) for p in piles] == lengths
    for pile in piles:
        assert {i for i, card in enumerate(pile) if card.startswith("[")} == down_at
    founds = [p for p in state.game.pile_ids if state.game.pile_kinds[p] == "foundation"]
    assert all(not state.pile(f) for f in founds)
    if stock is None:
        assert "stock" not in state.game.pile_ids
    else:
        assert len(state.pile("stock")) == stock and all(c.startswith("[") for c in state.pile("stock"))
        assert len(state.pile("waste")) == waste and not state.pile("waste")[0].startswith("[")
        assert state.to_dict()["redeals"] == 0


# ----------------------------------------------------------------- every game
@pytest.mark.parametrize("game_id", sw.games())
def test_the_same_number_gives_the_same_deal_and_numbers_differ(game_id):
    game = sw.load_game(game_id)
    assert game.deal(7) == sw.load_game(game_id).deal(7)
    assert game.deal(7) != game.deal(8)
    assert game.deal(MAX_DEAL) == game.deal(MAX_DEAL)


@pytest.mark.parametrize("bad", [0, -1, MAX_DEAL + 1, 1.5, 2.0, "3", None, True])
def test_bad_deal_numbers_are_refused(bad):
    game = sw.load_game("freecell")
    with pytest.raises(sw.InvalidDeal) as err:
        game.deal(bad)
    assert "deal number" in str(err.value)


def test_integer_types_are_accepted():
    class Index:
        def __index__(self):
            return 1

    assert sw.load_game("freecell").deal(Index()) == sw.load_game("freecell").deal(1)
