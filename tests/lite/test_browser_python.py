"""What the browser's Python changes, checked in this one: a widget with no threads to start
runs its search in place and says so (solwidget/widget/browser.py), and the live board's
bridge (docs/live/bridge.py) carries the widget protocol both ways."""

from __future__ import annotations

import importlib.util
import threading

import comm
import pytest
from lite_harness import ROOT

pytest.importorskip("anywidget")

import solwidget as sw
from solwidget.widget import browser


def no_threads(*args, **kwargs):
    raise RuntimeError("can't start new thread")  # what Pyodide's threading says


@pytest.fixture()
def in_a_browser(monkeypatch):
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    monkeypatch.setattr(threading.Thread, "start", no_threads)


def test_a_solve_without_threads_runs_in_place_and_says_so(in_a_browser):
    w = sw.SolitaireWidget("reversed_solitaire", deal=1)
    said = []
    w.observe(lambda change: said.append(change["new"]), names="message")
    w.solve()
    assert w.solver_progress["status"] == "won" and w.busy == ""
    assert any(browser.NO_THREADS in text for text in said)
    assert w.message.startswith("solver: won in")


def test_a_replay_without_threads_steps_in_place(in_a_browser):
    w = sw.SolitaireWidget("reversed_solitaire", deal=1)
    w.replay(["t1 c0", "t1 c1"], delay=0.0)
    assert [str(m) for m in w.history] == ["t1 c0", "t1 c1"] and w.busy == ""


def test_threads_stay_where_there_are_threads():
    assert browser.background_allowed(True) is (not browser.IN_BROWSER)
    assert browser.background_allowed(False) is False


@pytest.fixture()
def bridge(monkeypatch):
    monkeypatch.setattr(comm, "create_comm", comm.create_comm)  # restored after the test
    spec = importlib.util.spec_from_file_location("live_bridge", ROOT / "docs" / "live" / "bridge.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.sent = []
    module.post = lambda kind, comm_id, data: module.sent.append((kind, comm_id, data))
    return module


def test_bridge_opens_a_board_and_plays_what_the_page_sends(bridge):
    bridge.start("interlock", 2)
    opened = [(c, d["state"]) for kind, c, d in bridge.sent if kind == "comm_open"]
    board_comm, state = next((c, s) for c, s in opened if s["_model_name"] == "AnyModel")
    assert state["game_id"] == "interlock" and state["deal"] == "2" and "export" in state["_esm"]
    move = next(m for m in bridge._current["widget"].legal if m.startswith("t"))
    bridge.sent.clear()
    bridge.receive({"method": "custom", "content": {"type": "move", "move": move}})
    updates = [
        d["state"]
        for kind, c, d in bridge.sent
        if kind == "comm_msg" and c == board_comm and d["method"] == "update"
    ]
    assert any(update.get("moves_made") == 1 for update in updates)


def test_bridge_takes_changed_traits_and_refuses_before_a_board(bridge):
    with pytest.raises(sw.SolwidgetError, match="no board yet"):
        bridge.receive({"method": "update", "state": {"show_ids": True}})
    bridge.start("mutated", 1)
    bridge.receive({"method": "update", "state": {"show_ids": True}})
    assert bridge._current["widget"].show_ids is True
