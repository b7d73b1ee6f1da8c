from django.urls import path, re_path
from drf_spectacular.views import SpectacularSwaggerSplitView

from league.api import competition_views as competitions
from league.api import errors, play_views, views
from league.api import notification_views as notifications
from league.api import season_views as seasons
from league.api import versiontest_views as versiontests
from league.api.schema import SchemaView
from league.ids import IdConverter  # noqa: F401 (registers <id:…>, ids 1..2^63-1)

app_name = "api"

urlpatterns = [
    path("games/", views.GameList.as_view(), name="games"),
    path("ladders/", views.LadderList.as_view(), name="ladders"),
    path("ladders/<slug:slug>/", views.LadderDetail.as_view(), name="ladder"),
    path("ladders/<slug:slug>/rankings/", views.LadderRankings.as_view(), name="rankings"),
    path("ladders/<slug:slug>/seasons/", seasons.LadderSeasons.as_view(), name="seasons"),
    path("seasons/<id:season_id>/", seasons.SeasonDetail.as_view(), name="season"),
    path("bots/", views.BotList.as_view(), name="bots"),
    path("bots/<id:bot_id>/", views.BotDetail.as_view(), name="bot"),
    path("bots/<id:bot_id>/retire/", views.BotRetire.as_view(), name="bot-retire"),
    path("bots/<id:bot_id>/versions/", views.BotVersions.as_view(), name="bot-versions"),
    path("bots/<id:bot_id>/stats/", views.BotStats.as_view(), name="bot-stats"),
    path("bots/<id:bot_id>/ratings/", views.BotRatings.as_view(), name="bot-ratings"),
    path("bots/<id:bot_id>/seasons/", seasons.BotSeasons.as_view(), name="bot-seasons"),
    path("versions/", views.VersionUpload.as_view(), name="versions"),
    path("versions/<id:version_id>/", views.VersionDetail.as_view(), name="version"),
    path("versions/<id:version_id>/source/", views.VersionSource.as_view(),
         name="version-source"),
    path("matches/", views.MatchList.as_view(), name="matches"),
    path("matches/<id:match_id>/", views.MatchDetail.as_view(), name="match"),
    path("matches/<id:match_id>/replay/", views.MatchReplay.as_view(), name="replay"),
    path("matches/<id:match_id>/viewer/", views.MatchViewer.as_view(), name="viewer"),
    path("matches/<id:match_id>/frames/", views.MatchFrames.as_view(), name="frames"),
    path("tournaments/", competitions.TournamentList.as_view(), name="tournaments"),
    path("tournaments/<id:tournament_id>/", competitions.TournamentDetail.as_view(),
         name="tournament"),
    path("tournaments/<id:tournament_id>/entries/", competitions.TournamentEntries.as_view(),
         name="tournament-entries"),
    path("tournaments/<id:tournament_id>/entries/<id:bot_id>/",
         competitions.TournamentEntry.as_view(), name="tournament-entry"),
    path("tournaments/<id:tournament_id>/cancel/", competitions.TournamentCancel.as_view(),
         name="tournament-cancel"),
    path("tournaments/<id:tournament_id>/release/", competitions.TournamentRelease.as_view(),
         name="tournament-release"),
    path("tournaments/<id:tournament_id>/stop-recurring/",
         competitions.TournamentStopRecurring.as_view(), name="tournament-stop-recurring"),
    path("challenges/", competitions.ChallengeList.as_view(), name="challenges"),
    path("challenges/<id:challenge_id>/", competitions.ChallengeDetail.as_view(),
         name="challenge"),
    path("challenges/<id:challenge_id>/cancel/", competitions.ChallengeCancel.as_view(),
         name="challenge-cancel"),
    path("version-tests/", versiontests.VersionTestList.as_view(), name="versiontests"),
    path("version-tests/<id:test_id>/", versiontests.VersionTestDetail.as_view(),
         name="versiontest"),
    path("version-tests/<id:test_id>/cancel/", versiontests.VersionTestCancel.as_view(),
         name="versiontest-cancel"),
    path("play/<id:match_id>/", play_views.PlayState.as_view(), name="play"),
    path("play/<id:match_id>/move/", play_views.PlayMove.as_view(), name="play-move"),
    path("notifications/", notifications.NotificationSettings.as_view(),
         name="notifications"),
    path("notifications/webhook/", notifications.NotificationWebhook.as_view(),
         name="notifications-webhook"),
    path("notifications/webhook/secret/", notifications.NotificationWebhookSecret.as_view(),
         name="notifications-webhook-secret"),
    path("notifications/deliveries/", notifications.NotificationDeliveries.as_view(),
         name="notifications-deliveries"),
    path("schema/", SchemaView.as_view(), name="schema"),
    # the split view serves Swagger UI's start-up script as a file: the site's CSP refuses
    # inline scripts
    path("docs/", SpectacularSwaggerSplitView.as_view(
        url_name="api:schema", template_name="api/swagger_ui.html"), name="docs"),
    re_path(r"^.*$", errors.not_found),
]
