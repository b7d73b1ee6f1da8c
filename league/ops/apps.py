from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "league.ops"
    label = "ops"
    verbose_name = "operations"

    def ready(self) -> None:
        from league.ops import checks  # noqa: F401  (registers the migration chain check)
