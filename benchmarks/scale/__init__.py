"""The scale data set: a league of 10,000 bots and 1,000,000 matches (or any size) written
straight into the database, for the page and matchmaking benchmarks. ``python -m
benchmarks.scale_data`` runs it; ``generate.scale_generate`` is the entry point."""
