"""Table mode's pages, in the `table` namespace: the owner's (under /armies/<pk>/) and the
opponent's through a share link (under /s/<token>/)."""

from django.urls import path

from table import acquisition, play

app_name = "table"
urlpatterns = [
    path("armies/<int:pk>/acquisition/", acquisition.page, name="acquisition"),
    path("armies/<int:pk>/acquisition/roll/", acquisition.roll, name="acquisition-roll"),
    path("armies/<int:pk>/acquisition/reroll/", acquisition.reroll, name="acquisition-reroll"),
    path("armies/<int:pk>/acquisition/finish/", acquisition.finish, name="acquisition-finish"),
    path("armies/<int:pk>/play/", play.play, name="play"),
    path("armies/<int:pk>/play/cards/<int:page>/", play.play, name="play-page"),
    path("armies/<int:pk>/play/tap/", play.tap_view, name="play-tap"),
    path("armies/<int:pk>/play/undo/", play.undo_view, name="play-undo"),
    path("armies/<int:pk>/play/new/", play.new_game_view, name="play-new"),
    path("armies/<int:pk>/play/games/<int:number>/", play.earlier_game, name="play-game"),
    path("s/<token:token>/play/", play.shared_play, name="shared-play"),
    path("s/<token:token>/play/cards/<int:page>/", play.shared_play, name="shared-play-page"),
    path(
        "s/<token:token>/play/games/<int:number>/",
        play.shared_earlier_game,
        name="shared-play-game",
    ),
    path("s/<token:token>/roll/", acquisition.shared_roll, name="shared-roll"),
    path(
        "s/<token:token>/roll/<int:record_pk>/", acquisition.shared_roll, name="shared-roll-record"
    ),
    path(
        "s/<token:token>/roll/<int:record_pk>/seed/",
        acquisition.add_opponent_seed,
        name="shared-roll-seed",
    ),
]
