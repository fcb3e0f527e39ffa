"""Where a study's deals are solved: the worker's function (``solve_deal``), and the three
kinds of runner that call it: the study's own local processes, a caller's
``concurrent.futures.Executor``, or the workers of a ``dask.distributed`` scheduler. Each
runner is a context manager giving an executor, and ``abandon``s the deals left when the
study stops early."""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import socket
import time

from ..engine import load_game
from ..variants import variant_from_dict
from .table import StudyError, StudyRow

CONNECT_TIMEOUT = 3.0  # seconds to reach a Dask scheduler before giving up


def solve_deal(
    game_id: str,
    options: dict,
    deal: int,
    budget: float | None,
    max_states: int | None,
    variant: dict | None = None,
    difficulty: bool = False,
) -> StudyRow:
    """Solve one deal (runs in a worker process or on a Dask worker). ``variant``: the
    definition of the game when it is a variant (``Variant.to_dict``), which a worker
    registers first, since it knows only the catalogue. With ``difficulty``, a won deal's
    difficulty too (``sw.difficulty`` of its win: searches of a fixed number of states, so
    the same on every machine; not counted in ``seconds``)."""
    from ..coach import difficulty as difficulty_of
    from ..solver import solve

    if variant is not None:
        variant_from_dict(variant)  # the very same definition again is no error
    state = load_game(game_id, **options).deal(deal)
    start = time.perf_counter()
    # both limits explicit: None means no limit (not the solver's default state budget)
    result = solve(state, max_states=max_states, max_seconds=budget)
    seconds = round(time.perf_counter() - start, 4)
    moves = len(result.moves) if result.status == "won" else None
    level = None
    if difficulty and result.status == "won":
        level = {k: v for k, v in difficulty_of(state, result.moves).as_dict().items() if k != "text"}
    return StudyRow(deal, result.status, moves, int(result.progress.expanded), seconds, level)


class Borrowed:
    """A caller's executor, used in a ``with`` block without being shut down."""

    def __init__(self, executor):
        self.executor = executor

    def __enter__(self):
        return self.executor

    def __exit__(self, *exc):
        return False

    def abandon(self, futures) -> None:
        """The study stops early: drop the deals not started yet."""
        for future in futures:
            future.cancel()


class OwnProcesses:
    """Local processes, shut down at the end, stopped at once if the study stops early."""

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=_end_with_parent)

    def __enter__(self):
        return self.pool

    def __exit__(self, *exc):
        self.pool.shutdown(wait=True)
        return False

    def abandon(self, futures) -> None:
        """The finished deals are in the file already; the ones being solved would only delay
        the exit (a rerun solves them again), so stop the processes. The pool then fails the
        pending futures itself (cancelling them first trips a race in Python 3.11's pool).
        concurrent.futures has no public way to stop workers before Python 3.14."""
        for process in list((getattr(self.pool, "_processes", None) or {}).values()):
            process.terminate()


def _end_with_parent() -> None:
    """In a worker process: end when the study's process dies, even by SIGKILL, instead of
    waiting for work forever (Linux's PR_SET_PDEATHSIG; elsewhere nothing is done)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class DaskExecutor:
    """The executor of a ``dask.distributed`` client connected to ``address``."""

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise StudyError("scheduler= needs dask.distributed: pip install 'solwidget[study]'") from None
        try:
            _knock(address)
        except (OSError, ValueError) as err:
            raise StudyError(
                f"cannot reach the Dask scheduler at {address!r} within {CONNECT_TIMEOUT:g} s: {err}"
            ) from None
        try:
            self.client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except Exception as err:  # noqa: BLE001 - something answered, but not a Dask scheduler
            raise StudyError(
                f"cannot connect to a Dask scheduler at {address!r}: {type(err).__name__}: {err}"
            ) from None

    def __enter__(self):
        return self.client.get_executor()

    def __exit__(self, *exc):
        self.client.close()
        return False

    def abandon(self, futures) -> None:
        for future in futures:
            future.cancel()


def _knock(address: str) -> None:
    """Fail fast, before a Client exists, when a TCP scheduler address refuses connections
    (a Client that failed to connect still tries to close itself, slowly, at exit)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    scheme, location = parse_address(address)
    if scheme in ("tcp", "tls"):
        socket.create_connection(parse_host_port(location), timeout=CONNECT_TIMEOUT).close()


def runner_for(executor, scheduler, workers, jobs):
    if executor is not None:
        if not isinstance(executor, cf.Executor):
            raise StudyError(f"executor must be a concurrent.futures.Executor, not {executor!r}")
        return Borrowed(executor)
    if scheduler is not None:
        if not isinstance(scheduler, str) or not scheduler:
            raise StudyError(f"scheduler is an address such as 'tcp://127.0.0.1:8786', not {scheduler!r}")
        return DaskExecutor(scheduler)
    cpus = os.cpu_count() or 1
    return OwnProcesses(max(1, min(workers or cpus, cpus, jobs)))


def progress_bar(show: bool, label: str, total: int, initial: int):
    if not show:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional: no bar then
        return None
    return tqdm(total=total, initial=initial, desc=f"{label} study", unit="deal")
