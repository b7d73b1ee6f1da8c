"""botleague's client for bot authors: the ``botleague`` command.

    botleague play stones mybot.py builtin:random --show
    botleague submit mybot/ --game stones --name my-bot
    botleague challenge BOT_ID --opponent BOT_ID
    botleague tournament show TOURNAMENT_ID

``play`` and ``show`` are the sandbox's own runner (``sandbox.cli``, also ``python -m
sandbox``); ``submit``, ``challenge`` and ``tournament`` speak to a league through its REST
API (``client.api``) and import nothing from ``league/``.
"""
