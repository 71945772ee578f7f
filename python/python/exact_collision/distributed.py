"""The oracle over sharded JSON Lines logs on Dask distributed.

Every worker needs this package installed (``pip install exact-collision`` in
the workers' environment); the scheduler then ships only the small function
below, and every partition is answered in the worker process with the GIL
released, in input order.

::

    import dask.bag as db, exact_collision.distributed as ecd
    answers = ecd.answer_bag(db.read_text("logs/*.jsonl"))
    answers.to_textfiles("answers/*.jsonl")

A malformed line's ``{"line": N, ...}`` counts N within its partition: with one
partition per file (``read_text``'s default, no ``blocksize``) that is the line
number in its file, as ``exact-collision query FILE`` prints it.
"""

from functools import partial
from typing import Iterable, List, Optional

from ._native import answer_lines


def answer_partition(lines: Iterable[str], threads: Optional[int] = None) -> List[str]:
    """The answers of one partition of query lines (with or without their
    newlines), in order: ``answer_lines`` on ``threads`` threads (default all
    cores of the worker; pass 1 when every worker has one core of its own).

    >>> answer_partition(['{"id":1,"op":"ccd_vf","t0":[[0,0,1],[0,0,0],[1,0,0],[0,1,0]],'
    ...                   '"t1":[[0,0,-1],[0,0,0],[1,0,0],[0,1,0]]}\\n'])
    ['{"id":1,"hit":true,"toi":{"lo":"1/2","hi":"1/2","f64":0.5,"poly":["-1","2"],"kind":"root"}}']
    """
    return answer_lines(lines, threads=threads)


def answer_bag(bag, threads: Optional[int] = None):
    """A dask bag of query lines -> the bag of their answer lines (no newlines),
    partition by partition, order kept."""
    return bag.map_partitions(partial(answer_partition, threads=threads))
