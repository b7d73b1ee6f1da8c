from django.apps import AppConfig


class VersionTestsConfig(AppConfig):
    name = "league.versiontests"
    label = "versiontests"
    verbose_name = "Version tests: does a candidate version beat its baseline?"
