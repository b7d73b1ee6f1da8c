from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "league.bots"
    label = "bots"
