from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "league.ladders"
    label = "ladders"
