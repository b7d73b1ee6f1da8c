"""botleague's league: the Django site, its Celery workers, ladders, ratings and matchmaking."""

from league.celery import app as celery_app

__all__ = ["celery_app"]
