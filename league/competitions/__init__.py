"""Competitions: tournaments (round robin, Swiss, elimination, scored) and challenges, above the
ladders. The formats themselves are pure functions over plain data in ``formats/``, free of
the database, so property tests can drive thousands of fields; the Django app around them
(models, services, tasks) stores rounds and results and asks the formats what comes next.
"""
