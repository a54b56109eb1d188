"""The table's pages. `army_urlpatterns` sit under /armies/ in the `armies` namespace
(config/urls.py joins them to the builder's), so every URL name stays what it was."""

from django.urls import path

from table import acquisition, play

army_urlpatterns = [
    path("<int:pk>/acquisition/", acquisition.page, name="acquisition"),
    path("<int:pk>/acquisition/roll/", acquisition.roll, name="acquisition-roll"),
    path("<int:pk>/acquisition/reroll/", acquisition.reroll, name="acquisition-reroll"),
    path("<int:pk>/acquisition/finish/", acquisition.finish, name="acquisition-finish"),
    path("<int:pk>/play/", play.play, name="play"),
    path("<int:pk>/play/cards/<int:page>/", play.play, name="play-page"),
    path("<int:pk>/play/tap/", play.tap_view, name="play-tap"),
    path("<int:pk>/play/undo/", play.undo_view, name="play-undo"),
    path("<int:pk>/play/new/", play.new_game_view, name="play-new"),
    path("<int:pk>/play/games/<int:number>/", play.earlier_game, name="play-game"),
]

urlpatterns = [
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
