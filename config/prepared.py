"""Queries whose SQL Django compiles once per process instead of on every request.

Turning a queryset into SQL costs ~0.25 ms on these machines; running that SQL against
a warm database costs ~0.04 ms. The queries every signed-in page makes (the session, the
user, the army, the owner's library, the army's units) have the same shape each time and
differ only in a few ids, so each is compiled once, with stand-ins where the ids go, and
later calls put their own values where the stand-ins were and only execute it.

    ARMY = Prepared(lambda owner, pk: Army.objects.filter(owner_id=owner, pk=pk), int, int)
    found = ARMY(user.pk, 42)  # a list of Army instances, as list(queryset) would give

Arguments are ints or strings (ids, keys) that the query compares for equality: the
database takes those as they are on SQLite and PostgreSQL alike, so they go in without
Django's per-field adaptation; other types are refused, and so is a query that changes
an argument on its way to the SQL (arithmetic, LIKE escaping). An int outside the 32-bit
range (a column may be 32-bit, and PostgreSQL refuses such a value for it where the ORM
finds no row) goes through the ORM as before; one outside 64 bits, or a string holding
NUL (PostgreSQL cannot store one), equals no row: the query answers [] without running.

A queryset of model instances (annotations allowed, no select_related) or of values_list()
tuples is supported; anything else is refused when first compiled.
The SQL is kept per database alias and vendor, and forgotten when DATABASES changes.

`update_one` does the same for a save's UPDATE of one row by its id.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.signals import setting_changed
from django.db import connections
from django.db.models import F, QuerySet
from django.db.models.query import ModelIterable, ValuesListIterable
from django.dispatch import receiver

KINDS = (int, str)
INT32 = range(-(2**31), 2**31)
INT64 = range(-(2**63), 2**63)
_ALL: list[Prepared] = []


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs) -> None:
    if setting == "DATABASES":
        for prepared in _ALL:
            prepared.compiled.clear()
        _UPDATES.clear()


def _stand_ins(kinds: tuple[type, ...], round_: int) -> tuple:
    # Two sets, compiled both, must put every argument in the same places: a value the
    # query changes (pk=o + 1), or a constant that happens to equal one, gives itself
    # away. Ints small enough for any integer column (the ORM compiles a value outside a
    # column's range to "no rows"); strings with the characters a LIKE escapes, so a
    # lookup that rewrites its value (iexact, contains) never finds its stand-in.
    return tuple(
        30_000 + (2 + round_) * i + 1000 * round_
        if kind is int
        else f"\x00%_\\stand-in {round_}:{i}"
        for i, kind in enumerate(kinds)
    )


def _matches_nothing(arg: int | str) -> bool:
    if type(arg) is int:
        return arg not in INT64  # no column holds it
    return "\x00" in arg  # PostgreSQL cannot store one


def _past_int32(args) -> bool:
    return any(type(arg) is int and arg not in INT32 for arg in args)


def _is_argument(p: object) -> bool:
    # PostgreSQL's backend may wrap an int for a 32-bit column (psycopg's Int4, an int).
    return isinstance(p, KINDS) and not isinstance(p, bool)


class _Compiled:
    def __init__(self, build: Callable[..., QuerySet], kinds: tuple[type, ...], alias: str):
        compiled = []
        for round_ in (0, 1):
            stand_ins = _stand_ins(kinds, round_)
            queryset = build(*stand_ins)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            slots = {value: i for i, value in enumerate(stand_ins)}
            # Each parameter: the argument it takes (its index), or a constant of the query.
            places = [slots.get(p) if _is_argument(p) else None for p in params]
            constants = [p for p, slot in zip(params, places, strict=True) if slot is None]
            compiled.append((sql, places, constants))
        (self.sql, places, constants), other = compiled
        self.params = list(zip(places, params, strict=True))
        missing = set(range(len(kinds))) - set(places)
        if missing or compiled[0] != other:
            # An argument changed on its way, or a "constant" that is not (timezone.now()).
            raise ValueError(
                f"arguments {sorted(missing) or ''} do not reach the SQL as they are, or"
                f" its other values change between calls: {self.sql}"
            )
        self.compiler = compiler
        self.converters = compiler.get_converters(
            [s[0] for s in compiler.select[: compiler.col_count]]
        )
        if queryset._iterable_class is ModelIterable:
            info = compiler.klass_info
            if info.get("related_klass_infos"):
                raise ValueError("select_related() querysets cannot be prepared")
            self.annotations = list((compiler.annotation_col_map or {}).items())
            first, last = info["select_fields"][0], info["select_fields"][-1] + 1
            self.model = info["model"]
            self.fields = [f[0].target.attname for f in compiler.select[first:last]]
            self.span = slice(first, last)
        elif queryset._iterable_class is ValuesListIterable:
            self.model = None
        else:
            raise ValueError("only model and values_list() querysets can be prepared")


class Prepared:
    """A queryset built by `build(*arguments)`, compiled once and executed per call."""

    def __init__(self, build: Callable[..., QuerySet], *kinds: type):
        if not all(kind in KINDS for kind in kinds):
            raise TypeError("prepared queries take int and str arguments")
        self.build, self.kinds = build, kinds
        self.compiled: dict[tuple[str, str], _Compiled] = {}
        _ALL.append(self)

    def _compiled(self, alias: str) -> _Compiled:
        key = (alias, connections[alias].vendor)
        found = self.compiled.get(key)
        if found is None:
            found = self.compiled[key] = _Compiled(self.build, self.kinds, alias)
        return found

    def __call__(self, *args, using: str = "default") -> list:
        if len(args) != len(self.kinds):
            raise TypeError(f"takes {len(self.kinds)} arguments, got {len(args)}")
        for arg, kind in zip(args, self.kinds, strict=True):
            if type(arg) is not kind:
                raise TypeError(f"expected {kind.__name__}, got {type(arg).__name__}")
        if any(_matches_nothing(arg) for arg in args):
            return []
        if _past_int32(args):
            return list(self.build(*args).using(using))
        compiled = self._compiled(using)
        params = [value if slot is None else args[slot] for slot, value in compiled.params]
        with connections[using].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if compiled.converters:
            rows = compiled.compiler.apply_converters(rows, compiled.converters)
        if compiled.model is None:
            return [tuple(row) for row in rows]
        found = []
        for row in rows:
            obj = compiled.model.from_db(using, compiled.fields, row[compiled.span])
            for name, position in compiled.annotations:
                setattr(obj, name, row[position])
            found.append(obj)
        return found

    def first(self, *args, using: str = "default"):
        """The first row, or None: for lookups by a unique key."""
        found = self(*args, using=using)
        return found[0] if found else None


def update_one(
    model: type,
    pk: int,
    values: dict[str, object],
    *,
    increment: tuple[str, ...] = (),
    expected: dict[str, int] | None = None,
    using: str = "default",
) -> bool:
    """Update one live row by its id, as `model.objects.filter(pk=pk, **expected).update(...)`
    would, with SQL written once per shape instead of compiled by the ORM on every call.

    `values` are adapted by each field's own get_db_prep_save (JSON, datetimes); each field
    in `increment` goes up by one. The row changes only while it is live (not in the
    trash, for a model with `deleted_at`) and each `expected` field holds its value.
    True when it changed. An int past 32 bits goes through the ORM, as in Prepared."""
    expected = expected or {}
    if not all(type(v) is int for v in (pk, *expected.values())):
        raise TypeError("update_one takes an int id and int expected values")
    if any(_matches_nothing(v) for v in (pk, *expected.values())):
        return False
    if _past_int32((pk, *expected.values())):
        changes = {**values, **{name: F(name) + 1 for name in increment}}
        return bool(model._default_manager.using(using).filter(pk=pk, **expected).update(**changes))
    connection = connections[using]
    key = (model, tuple(values), increment, tuple(expected), using, connection.vendor)
    sql = _UPDATES.get(key)
    if sql is None:
        sql = _UPDATES[key] = _update_sql(model, connection, tuple(values), increment, expected)
    meta = model._meta
    params = [meta.get_field(name).get_db_prep_save(v, connection) for name, v in values.items()]
    params += [pk, *expected.values()]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount == 1


_UPDATES: dict[tuple, str] = {}


def _update_sql(model, connection, names, increment, expected) -> str:
    meta, quote = model._meta, connection.ops.quote_name

    def column(name: str) -> str:
        return quote(meta.get_field(name).column)

    sets = [f"{column(n)} = %s" for n in names] + [
        f"{column(n)} = {column(n)} + 1" for n in increment
    ]
    where = [f"{quote(meta.pk.column)} = %s"] + [f"{column(n)} = %s" for n in expected]
    if any(f.name == "deleted_at" for f in meta.concrete_fields):
        where.append(f"{column('deleted_at')} IS NULL")
    # Only quoted names from the model's own meta go into the text; values are parameters.
    table = quote(meta.db_table)
    return f"UPDATE {table} SET {', '.join(sets)} WHERE {' AND '.join(where)}"  # noqa: S608
