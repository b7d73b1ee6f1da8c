from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "league.notifications"
    label = "notifications"
