"""The shapes of the play page's JSON (docs/play.md): its state and a move. They document the
schema; the state itself is built by ``league.ladders.play.state``."""

from __future__ import annotations

from rest_framework import serializers

from league.ladders.models import MatchStatus


class PlayPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(help_text="``you (name)`` for the person, else the bot's name")
    human = serializers.BooleanField()


class PlayMoveSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    move = serializers.CharField(allow_null=True, help_text="null: the other seat's move in a "
                                                            "game of hidden information")
    seconds = serializers.FloatField()


class PlayClockSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    move_ms = serializers.IntegerField(allow_null=True, help_text="time left for this move")
    game_ms = serializers.IntegerField(allow_null=True, help_text="time left for the game "
                                                                  "(a bot: its time bank, null "
                                                                  "without one)")
    running = serializers.BooleanField()


class BotOnSeedSerializer(serializers.Serializer):
    bot = serializers.CharField()
    score = serializers.FloatField()
    match = serializers.IntegerField()


class PlayResultSerializer(serializers.Serializer):
    text = serializers.CharField()
    winner = serializers.IntegerField(allow_null=True)
    scores = serializers.ListField(child=serializers.FloatField())
    reason = serializers.CharField()
    bots_on_seed = BotOnSeedSerializer(many=True, required=False,
                                       help_text="solo games: the ladder's bots on this seed")


class PlayStateSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField()
    seat = serializers.IntegerField(help_text="your seat")
    players = PlayPlayerSerializer(many=True)
    step = serializers.IntegerField(help_text="moves played so far")
    to_move = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    legal_moves = serializers.ListField(child=serializers.CharField(),
                                        help_text="on your turn, every legal move; else []")
    frame = serializers.JSONField(allow_null=True, help_text="your seat's frame at ``step`` "
                                                             "(docs/viewer.md)")
    moves = PlayMoveSerializer(many=True)
    clocks = PlayClockSerializer(many=True)
    result = PlayResultSerializer(allow_null=True)
    message = serializers.CharField(allow_null=True)


class PlayQuerySerializer(serializers.Serializer):
    since = serializers.IntegerField(required=False, min_value=-1, help_text=(
        "the step you have: the answer waits (up to ~20 s) until the game moves past it, "
        "ends, or starts"))
    status = serializers.ChoiceField(choices=MatchStatus.choices, required=False, help_text=(
        "the status you have (with since): the answer also comes as soon as the game's "
        "differs (queued to running)"))


class MoveRequestSerializer(serializers.Serializer):
    move = serializers.CharField(max_length=200, trim_whitespace=True,
                                 help_text="one of legal_moves, in the game's notation")
    step = serializers.IntegerField(min_value=0, help_text="the step you move at")


class MoveAcceptedSerializer(serializers.Serializer):
    accepted = serializers.BooleanField()


class PlayErrorSerializer(serializers.Serializer):
    error = serializers.CharField()
    detail = serializers.CharField()
