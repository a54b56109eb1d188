"""Table mode's models (SPEC 5): the games played with an army and its G.O.M.S.
acquisition rolls. Their tables kept the names they had when these models lived in
armies/ (`db_table`), so moving them here copied nothing (migrations 0001)."""

from __future__ import annotations

import hashlib

from django.db import models

from armies.models import Army
from points import goms


class AcquisitionRecord(models.Model):
    """A G.O.M.S. army's pre-game acquisition and manpower roll, kept so anyone can check it.

    The dice are re-derived from `seed` and `picks` (points.goms.acquisition_dice), never
    stored: the record is what was rolled for (`units`, a snapshot), the seed, and which
    dice the player spent rerolls on, in order. While rerolls may still be spent the seed
    stays hidden behind its SHA-256, so nobody can foresee a reroll; finishing reveals it.
    """

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="acquisitions")
    # A roll the owner made alone: the server's secret seed. None for a fair roll.
    seed = models.BigIntegerField(null=True, blank=True)
    # A fair (two-player) roll: the owner's secret seed (hex), committed to by its SHA-256
    # before the opponent adds theirs through the share link; the dice come from both.
    owner_seed = models.CharField(max_length=64, blank=True)
    # The SHA-256 of owner_seed, published (kept as shown) before the opponent's seed came.
    committed = models.CharField(max_length=64, blank=True)
    opponent_seed = models.CharField(max_length=64, blank=True)
    # Who gave each seed, as the record shows it: the owner's name when they rolled, and
    # the opponent's account name, or "" for a visitor with the link who was not signed in.
    owner_by = models.CharField(max_length=150, blank=True)
    opponent_by = models.CharField(max_length=150, blank=True)
    # The SHA-256 of the session that started the roll: that session can't add the
    # opponent's seed too, signed in or not.
    owner_session = models.CharField(max_length=64, blank=True, editable=False)
    # When the dice were rolled: at once alone, when the opponent's seed came for a fair roll.
    rolled = models.DateTimeField(null=True, blank=True)
    # [[unit name, table row, quantity], ...] in list order when rolled.
    units = models.JSONField()
    rerolls = models.PositiveIntegerField(default=0)  # bought before rolling
    picks = models.JSONField(default=list)  # die indexes rerolled, in order
    finished = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "armies_acquisitionrecord"
        ordering = ["-created", "-pk"]
        get_latest_by = ["created", "pk"]

    def __str__(self) -> str:
        return f"Acquisition roll for {self.army}"

    @property
    def rows(self) -> list[tuple[str, int]]:
        return [(row, quantity) for _, row, quantity in self.units]

    @property
    def rerolls_left(self) -> int:
        return self.rerolls - len(self.picks)

    @property
    def fair(self) -> bool:
        """Both players gave a seed (or are to): neither could steer the dice alone."""
        return bool(self.owner_seed)

    @property
    def waiting(self) -> bool:
        """A fair roll still waiting for the opponent's seed: no dice yet."""
        return self.fair and not self.opponent_seed

    @property
    def commitment(self) -> str:
        if self.fair:
            return self.committed
        return hashlib.sha256(str(self.seed).encode()).hexdigest()

    @property
    def hash_checks(self) -> bool:
        """The revealed owner's seed hashes to what was published before the opponent's."""
        return hashlib.sha256(self.owner_seed.encode()).hexdigest() == self.committed

    @property
    def dice_seed(self) -> int:
        """What random.Random is seeded with: a fair roll's from both seeds together,
        the SHA-256 of "owner seed:opponent seed" read as a (256-bit) integer."""
        if not self.fair:
            assert self.seed is not None
            return self.seed
        both = f"{self.owner_seed}:{self.opponent_seed}".encode()
        return int(hashlib.sha256(both).hexdigest(), 16)

    def dice(self):
        if self.waiting:
            return ()
        return goms.acquisition_dice(self.rows, self.dice_seed, self.picks)


class Game(models.Model):
    """One game played with an army in table mode (SPEC 5): what each unit has lost, the
    victory points and the turn, kept on the server so a reload or a second device shows
    the same. An army has at most one current game; ended games stay readable.

    `cards` is what each unit's card tracks, taken from the stored unit rows when the game
    starts, so later edits in the builder never change a game under way or one that ended.
    `state` maps counter keys to numbers; `history` holds [key, value before] per change,
    newest last, for undo. `version` is bumped on every change: a tap from a page drawn at
    an older version is refused, so two devices never silently overwrite each other.
    """

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(default=1)  # 1 for the army's first game
    cards = models.JSONField(default=list)
    state = models.JSONField(default=dict)
    history = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1)
    started = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "armies_game"
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["army", "number"], name="game_number_per_army"),
            models.UniqueConstraint(
                fields=["army"],
                condition=models.Q(ended__isnull=True),
                name="one_current_game_per_army",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} with {self.army}"
