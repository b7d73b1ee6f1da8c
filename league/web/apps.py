from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "league.web"
    label = "web"
