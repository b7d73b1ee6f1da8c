"""The demo: users and bots that fill every ladder on a fresh league (``./manage.py demo``).

The bots are uploaded through the same service as any user's, so a new league shows real
validation matches, ladder matches and a board taking shape within its first minutes.
``catalogue`` lists them; ``bots/`` holds the one template of the small programs around the
built-in players and the one program of our own, while the starters are read from
``examples/``, the very files authors copy.
"""
