"""Hypothesis strategies for valid army files of every system, as JSON-like data."""

from __future__ import annotations

from hypothesis import strategies as st

from points import d10, gem, goms, vsgmr

names = st.text(
    alphabet=st.characters(codec="utf-8", categories=["L", "N", "Zs", "P"]), min_size=1, max_size=20
).filter(lambda s: s.strip() and s.isprintable())


def stat(low: int, high: int) -> st.SearchStrategy[object]:
    """A stat in [low, high] spelt every way a player may: int, decimal, string or dice."""
    return st.one_of(
        st.integers(low, high),
        st.integers(low * 2, high * 2).map(lambda n: n / 2),
        st.integers(low, high).map(str),
        st.integers(low, max(low, high - 3)).map(lambda n: f"d3{n:+d}" if n else "d3"),
    )


def _optional(**fields: st.SearchStrategy[object]) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({}, optional=fields)


def _missile() -> st.SearchStrategy[dict]:
    required = st.fixed_dictionaries({"off": stat(1, 10), "range": stat(1, 48)})
    extra = _optional(
        name=names,
        att=stat(1, 4),
        radius=st.sampled_from([0, 0.5, 1, 2, "d3"]),
        fire=st.sampled_from(gem.FIRES),
        heavy=st.booleans(),
    )
    return st.tuples(required, extra).map(lambda pair: pair[0] | pair[1])


def gem_profile() -> st.SearchStrategy[dict]:
    common = _optional(
        hit=stat(1, 6),
        mor=stat(-20, 20),
        mag=stat(1, 10),
        mov=stat(0, 12),
        missile=st.lists(_missile(), max_size=3),
    )
    figure = st.fixed_dictionaries(
        {
            "type": st.sampled_from([t for t in gem.TYPES if t != "vehicle"]),
            "base": st.sampled_from(gem.BASES),
            "off": stat(1, 10),
            "def": stat(1, 10),
        },
        optional={
            "att": stat(0, 4),
            "siz": stat(1, 20),
            "melee": st.lists(
                st.fixed_dictionaries(
                    {"off": stat(1, 10)}, optional={"name": names, "att": stat(1, 3)}
                ),
                max_size=2,
            ),
        },
    )
    vehicle = st.fixed_dictionaries(
        {
            "type": st.just("vehicle"),
            "base": st.sampled_from(gem.BASES),
            "def": stat(1, 10),
            "max_speed": st.sampled_from(["2d6+8", "2d6+12", 12, 6.5]),
        },
        optional={
            "off": stat(1, 10),  # kept for rams and Table 1, not priced (SPEC 3.2)
            "capacity": stat(0, 12),
            "acc": stat(0, 16),
            "vehicle_class": st.sampled_from(gem.VEHICLE_CLASSES),
            "battle_speed": stat(0, 24),
            "dec": stat(0, 16),
            "trr": st.sampled_from([0.5, 1, 2, "0.5"]),
            "armour_front": st.integers(0, 14),
            "armour_side": st.integers(0, 14),
            "armour_rear": st.integers(0, 14),
            "toughness": stat(1, 8),
            "save": st.integers(2, 6),
            "hull_points": st.integers(1, 5),
            "open_topped": st.booleans(),
            "firing_ports": st.integers(0, 8),
        },
    )
    return st.tuples(st.one_of(figure, vehicle), common).map(lambda pair: pair[0] | pair[1])


def _homebrew() -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries(
        {"name": names, "cost": st.integers(0, 40).map(lambda n: n / 2)},
        optional={"text": names},
    )


def vsgmr_profile() -> st.SearchStrategy[dict]:
    guy = st.fixed_dictionaries(
        {"kind": st.just("guy"), "flavor": st.sampled_from(vsgmr.FLAVORS)},
        optional={"armor": st.sampled_from(vsgmr.ARMORS)},
    )
    cavalry = st.fixed_dictionaries(
        {"kind": st.just("cavalry")},
        optional={"armor": st.sampled_from(["light", "heavy"]), "large": st.booleans()},
    )
    vehicle = st.fixed_dictionaries(
        {"kind": st.just("vehicle")}, optional={"armor": st.sampled_from(["light", "heavy"])}
    )
    extra = _optional(
        commander=st.booleans(),
        distance_attack=st.booleans(),
        automatic_fire=st.booleans(),
        traits=st.lists(st.one_of(st.sampled_from(sorted(vsgmr.TRAITS)), _homebrew()), max_size=3),
        super_powers=st.dictionaries(
            st.sampled_from(sorted(vsgmr.SUPER_POWERS)), st.sampled_from(vsgmr.TIERS), max_size=3
        ),
        support_roll=st.sampled_from(vsgmr.SUPPORT_ROLLS),
    )
    return st.tuples(st.one_of(guy, cavalry, vehicle), extra).map(lambda pair: pair[0] | pair[1])


def goms_profile() -> st.SearchStrategy[dict]:
    infantry = st.fixed_dictionaries(
        {"kind": st.sampled_from([k for k in goms.KINDS if k != "vehicle"])},
        optional={"morale": st.sampled_from(sorted(goms.MORALE)), "men": st.integers(1, 12)},
    )
    vehicle = st.fixed_dictionaries(
        {"kind": st.just("vehicle"), "vehicle_class": st.sampled_from(goms.VEHICLE_CLASSES)}
    )
    return st.one_of(infantry, vehicle)


def d10_profile() -> st.SearchStrategy[dict]:
    skills = {key: st.integers(1, 10) for key in d10.SKILLS}
    return _optional(
        **skills,
        defence=st.integers(1, 30),
        move=st.one_of(st.integers(0, 24), st.just(4.5), st.just("6")),
        leader=st.booleans(),
        special_vehicle=st.booleans(),
        weapons=st.lists(st.sampled_from([w.name for w in d10.WEAPONS] + ["Laser"]), max_size=2),
    )


PROFILES = {
    "gem": gem_profile,
    "vsgmr": vsgmr_profile,
    "goms": goms_profile,
    "d10": d10_profile,
}


def options(system: str) -> st.SearchStrategy[dict]:
    if system != "goms":
        return st.just({})
    return _optional(
        rerolls=st.integers(0, 5), setup_extensions=st.integers(0, 5), dug_in=st.booleans()
    )


@st.composite
def army_file(draw: st.DrawFn, system: str | None = None) -> dict:
    system = system or draw(st.sampled_from(sorted(PROFILES)))
    units = draw(
        st.lists(
            st.fixed_dictionaries(
                {"name": names, "profile": PROFILES[system]()},
                optional={"quantity": st.integers(1, 30)},
            ),
            max_size=5,
        )
    )
    data = {"format": "muster-army/1", "name": draw(names), "system": system, "units": units}
    limit = draw(st.one_of(st.none(), st.integers(0, 500), st.just(12.5)))
    if limit is not None:
        data["points_limit"] = limit
    data["options"] = draw(options(system))
    return data
