from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "league.competitions"
    label = "competitions"
    verbose_name = "Competitions: tournaments and challenges"

    def ready(self) -> None:
        from league.competitions.progress import match_ended
        from league.ladders.lifecycle import listen_for_competition_ends

        # a finished game pairs its tournament's next round at once, in the worker that
        # wrote it (ladders cannot import competitions: they call what is registered)
        listen_for_competition_ends(lambda match_id: match_ended(match_id=match_id))
