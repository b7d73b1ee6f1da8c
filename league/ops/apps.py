from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "league.ops"
    label = "ops"
    verbose_name = "operations"
