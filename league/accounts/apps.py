from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "league.accounts"
    label = "accounts"
