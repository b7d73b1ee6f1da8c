from django.urls import path, re_path
from drf_spectacular.views import SpectacularSwaggerSplitView

from league.api import competition_views as competitions
from league.api import errors, play_views, views
from league.api.schema import SchemaView

app_name = "api"

urlpatterns = [
    path("games/", views.GameList.as_view(), name="games"),
    path("ladders/", views.LadderList.as_view(), name="ladders"),
    path("ladders/<slug:slug>/", views.LadderDetail.as_view(), name="ladder"),
    path("ladders/<slug:slug>/rankings/", views.LadderRankings.as_view(), name="rankings"),
    path("bots/", views.BotList.as_view(), name="bots"),
    path("bots/<int:bot_id>/", views.BotDetail.as_view(), name="bot"),
    path("bots/<int:bot_id>/retire/", views.BotRetire.as_view(), name="bot-retire"),
    path("bots/<int:bot_id>/versions/", views.BotVersions.as_view(), name="bot-versions"),
    path("bots/<int:bot_id>/ratings/", views.BotRatings.as_view(), name="bot-ratings"),
    path("versions/", views.VersionUpload.as_view(), name="versions"),
    path("versions/<int:version_id>/", views.VersionDetail.as_view(), name="version"),
    path("versions/<int:version_id>/source/", views.VersionSource.as_view(),
         name="version-source"),
    path("matches/", views.MatchList.as_view(), name="matches"),
    path("matches/<int:match_id>/", views.MatchDetail.as_view(), name="match"),
    path("matches/<int:match_id>/replay/", views.MatchReplay.as_view(), name="replay"),
    path("matches/<int:match_id>/viewer/", views.MatchViewer.as_view(), name="viewer"),
    path("matches/<int:match_id>/frames/", views.MatchFrames.as_view(), name="frames"),
    path("tournaments/", competitions.TournamentList.as_view(), name="tournaments"),
    path("tournaments/<int:tournament_id>/", competitions.TournamentDetail.as_view(),
         name="tournament"),
    path("tournaments/<int:tournament_id>/entries/", competitions.TournamentEntries.as_view(),
         name="tournament-entries"),
    path("tournaments/<int:tournament_id>/entries/<int:bot_id>/",
         competitions.TournamentEntry.as_view(), name="tournament-entry"),
    path("tournaments/<int:tournament_id>/cancel/", competitions.TournamentCancel.as_view(),
         name="tournament-cancel"),
    path("challenges/", competitions.ChallengeList.as_view(), name="challenges"),
    path("challenges/<int:challenge_id>/", competitions.ChallengeDetail.as_view(),
         name="challenge"),
    path("play/<int:match_id>/", play_views.PlayState.as_view(), name="play"),
    path("play/<int:match_id>/move/", play_views.PlayMove.as_view(), name="play-move"),
    path("schema/", SchemaView.as_view(), name="schema"),
    # the split view serves Swagger UI's start-up script as a file: the site's CSP refuses
    # inline scripts
    path("docs/", SpectacularSwaggerSplitView.as_view(
        url_name="api:schema", template_name="api/swagger_ui.html"), name="docs"),
    re_path(r"^.*$", errors.not_found),
]
