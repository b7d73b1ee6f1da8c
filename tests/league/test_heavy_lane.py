"""The turn of a web server process's heavy reads (``league.asgi.HeavyLane``): back to back
when no page is being answered, within their share of the time while one is, and never
before a page."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from league.asgi import HeavyLane


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def heavy_read(lane: HeavyLane, seconds: float, starts: list[float]) -> None:
    loop = asyncio.get_running_loop()
    async with lane.heavy() as answered:
        starts.append(loop.time())
        await asyncio.sleep(seconds)  # the answer being made
        answered()
        await asyncio.sleep(seconds)  # sent to a slow reader: not the pages' cost


def test_with_no_page_going_on_heavy_reads_run_back_to_back() -> None:
    async def scenario() -> list[float]:
        lane = HeavyLane(threads=1, share=0.01)  # put off, each would wait ~1 s
        starts: list[float] = []
        await asyncio.gather(*(heavy_read(lane, 0.01, starts) for _ in range(5)))
        return starts

    starts = run(scenario())
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert max(gaps) < 0.5, gaps  # each 0.02 s in all, none put off


def test_while_a_page_is_answered_heavy_reads_keep_to_their_share() -> None:
    async def scenario() -> tuple[list[float], float]:
        lane = HeavyLane(threads=1, share=0.2)
        loop = asyncio.get_running_loop()
        starts: list[float] = []

        async def page() -> float:
            async with lane.page():
                began = loop.time()
                await asyncio.sleep(2)
            return began

        paging = asyncio.ensure_future(page())
        await asyncio.sleep(0)
        await asyncio.gather(*(heavy_read(lane, 0.03, starts) for _ in range(3)))
        return starts, await paging

    starts, page_began = run(scenario())
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    # made in 0.03 s (what follows is the loop's writing): the pages get the next 0.12 s
    assert all(gap >= 0.03 + 0.12 - 0.01 for gap in gaps), gaps
    assert starts[0] - page_began < 0.5, "the first one did not wait: nothing ran before it"


def test_a_heavy_read_put_off_starts_as_soon_as_the_pages_are_done() -> None:
    async def scenario() -> tuple[float, float]:
        lane = HeavyLane(threads=1, share=0.01)  # a 0.05 s read would wait ~5 s for pages
        loop = asyncio.get_running_loop()
        starts: list[float] = []
        async with lane.page():
            await heavy_read(lane, 0.05, starts)
            waiting = asyncio.ensure_future(heavy_read(lane, 0.01, starts))
            await asyncio.sleep(0.1)
            assert len(starts) == 1, "put off while the page is answered"
            ended = loop.time()
        await waiting
        return starts[1], ended

    second, page_ended = run(scenario())
    assert 0 <= second - page_ended < 1  # not the ~5 s it was put off by


@pytest.mark.parametrize("threads", [1, 3])
def test_no_more_heavy_reads_at_once_than_threads(threads: int) -> None:
    async def scenario() -> int:
        lane = HeavyLane(threads=threads, share=1.0)
        running = most = 0

        async def read() -> None:
            nonlocal running, most
            async with lane.heavy():
                running += 1
                most = max(most, running)
                await asyncio.sleep(0.01)
                running -= 1

        await asyncio.gather(*(read() for _ in range(8)))
        return most

    assert run(scenario()) == threads


def test_another_processs_pages_put_heavy_reads_off_too() -> None:
    """The server's processes share the cores: a page answered by another one counts."""
    elsewhere = [1]

    async def scenario() -> tuple[list[float], float]:
        lane = HeavyLane(threads=1, share=0.01, answering=lambda: elsewhere[0],
                         began=lambda: None, ended=lambda: None)
        loop = asyncio.get_running_loop()
        starts: list[float] = []
        await heavy_read(lane, 0.02, starts)  # the first is never put off
        waiting = asyncio.ensure_future(heavy_read(lane, 0.01, starts))
        await asyncio.sleep(0.3)
        assert len(starts) == 1, "put off while another process answers a page"
        elsewhere[0] = 0
        done = loop.time()
        await waiting
        return starts, done

    starts, done = run(scenario())
    assert 0 <= starts[1] - done < 1  # not the ~2 s it was put off by


def test_the_count_is_shared_with_the_processes_forked_after_it() -> None:
    import multiprocessing

    from league import busy_pages

    def page_elsewhere() -> None:
        busy_pages.began()

    before = busy_pages.answering()
    child = multiprocessing.get_context("fork").Process(target=page_elsewhere)
    child.start()
    child.join(10)
    try:
        assert busy_pages.answering() == before + 1
    finally:
        busy_pages.ended()
