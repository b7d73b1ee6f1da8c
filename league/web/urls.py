from django.urls import path

from league.web import bot_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon),
    path("ladders/<slug:slug>/", views.ladder, name="ladder"),
    path("matches/<int:match_id>/", views.match, name="match"),
    path("matches/<int:match_id>/replay.html", views.match_html, name="match-html"),
    path("u/<str:username>/", views.user_page, name="user"),
    path("bots/<int:bot_id>/", bot_views.bot, name="bot"),
    path("bots/<int:bot_id>/retire/", bot_views.bot_retire_view, name="bot-retire"),
    path("bots/<int:bot_id>/visibility/", bot_views.bot_visibility, name="bot-visibility"),
    path("bots/<int:bot_id>/moderate/", bot_views.bot_moderate, name="bot-moderate"),
    path("versions/<int:version_id>/", bot_views.version, name="version"),
    path("versions/<int:version_id>/status.json", bot_views.version_status,
         name="version-status"),
    path("versions/<int:version_id>/source/", bot_views.version_source, name="version-source"),
    path("my/bots/", bot_views.my_bots, name="my-bots"),
]
