"""Deal numbers for a study: ``"1-1000"``, ``"1-10,20"``, an int, a range or a list, read
into sorted, disjoint spans (``DealRanges``) that are never listed one by one."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable

from ..engine.checks import is_whole, refuse, shown
from ..engine.deals import DEAL_LIMITS, check_deal_number
from .table import StudyError

MAX_DEALS_TEXT = 100_000  # characters of deal text ("1-10,20,30-40") read at most
MAX_LISTED = 1_000_000  # deals given one by one (a list, a stepped range) at most
DEALS_ACCEPTED = "text like '1-1000' or '1-10,20', a deal number, a range or a list of deal numbers"


class DealRanges:
    """Deal numbers as sorted, disjoint spans ``(first, last)``: counted, tested and iterated
    in order without ever listing them, so '1-99999999999999999999' costs no memory."""

    def __init__(self, spans):
        merged: list[list[int]] = []
        for first, last in sorted(spans):
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        self.spans = tuple((first, last) for first, last in merged)
        self._firsts = [first for first, _ in self.spans]

    @property
    def count(self) -> int:
        """How many deals (an int of any size: ``len`` would stop at 2**63)."""
        return sum(last - first + 1 for first, last in self.spans)

    def __iter__(self):
        for first, last in self.spans:
            yield from range(first, last + 1)

    def __contains__(self, number) -> bool:
        i = bisect.bisect_right(self._firsts, number) - 1
        return i >= 0 and number <= self.spans[i][1]

    def __bool__(self) -> bool:
        return bool(self.spans)

    def __eq__(self, other) -> bool:
        return isinstance(other, DealRanges) and self.spans == other.spans

    def __repr__(self) -> str:
        return "DealRanges('" + ",".join(f"{a}-{b}" if a != b else f"{a}" for a, b in self.spans) + "')"


def parse_deals(deals, limits: tuple[int, int] = DEAL_LIMITS) -> DealRanges:
    """Deal numbers from ``"1-1000"``, ``"7"``, ``"1-10,20,30-40"``, an int, a range or a list,
    each checked against ``limits`` (a game's ``deal_limits``) before any is used."""
    if isinstance(deals, str):
        spans = _parse_deal_text(deals, limits)
    elif is_whole(deals):
        spans = [(check_deal_number(deals, limits),) * 2]
    elif isinstance(deals, range) and deals.step == 1:
        spans = (
            [(check_deal_number(deals.start, limits), check_deal_number(deals.stop - 1, limits))]
            if deals
            else []
        )
    elif isinstance(deals, Iterable) and not isinstance(deals, (bytes, bytearray, dict)):
        listed = list(itertools.islice(deals, MAX_LISTED + 1))
        if len(listed) > MAX_LISTED:
            raise StudyError(
                f"deals lists more than {MAX_LISTED:,} deals one by one: write a range like '1-1000'"
            )
        spans = [(check_deal_number(number, limits),) * 2 for number in listed]
    else:
        raise refuse("deals", DEALS_ACCEPTED, deals, StudyError)
    if not spans:
        raise StudyError(f"no deals to study in {shown(deals)}")
    return DealRanges(spans)


def _parse_deal_text(text: str, limits: tuple[int, int]) -> list[tuple[int, int]]:
    if len(text) > MAX_DEALS_TEXT:
        raise StudyError(
            f"deals text of {len(text):,} characters is too long (at most {MAX_DEALS_TEXT:,}): "
            "write ranges like '1-1000'"
        )
    spans = []
    for part in text.replace(" ", "").split(",") if text.strip() else []:
        match = re.fullmatch(r"([0-9]{1,30})(?:-([0-9]{1,30}))?", part)
        if not match:
            raise StudyError(f"cannot read deals {shown(text)}: write a number or a range like '1-1000'")
        first = check_deal_number(int(match[1]), limits)
        last = check_deal_number(int(match[2]), limits) if match[2] else first
        if last < first:
            raise StudyError(f"deal range {shown(part)} is reversed: write {last}-{first}")
        spans.append((first, last))
    return spans
