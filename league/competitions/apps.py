from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "league.competitions"
    label = "competitions"
    verbose_name = "Competitions: tournaments and challenges"
