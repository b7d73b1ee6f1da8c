from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "league.demo"
    label = "demo"
    verbose_name = "Demo users and bots"
