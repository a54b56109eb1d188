"""Muster settings: one file, every deployment difference read from the environment.

Development works with no environment at all. Production is `DEBUG=false` plus a real
`SECRET_KEY`, `ALLOWED_HOSTS` and usually `DATABASE_URL` / `REDIS_URL`.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from config.release import release

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-muster-development-only-never-use-in-production"  # noqa: S105
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG=false Muster refuses to start without a secret: "
            'set SECRET_KEY to a long random value, e.g. python -c "import secrets; '
            'print(secrets.token_urlsafe(50))"'
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # Django's widget templates, found by FORM_RENDERER below
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "rules",
    "accounts",
    "armies",
    "table",
    "sharing",
    "odds",
]

MIDDLEWARE = [
    "accounts.probes.HealthProbeMiddleware",  # /healthz probed by IP: see the module
    "django.middleware.security.SecurityMiddleware",
    "config.errors.DatabaseUnavailableMiddleware",  # a stuck database: 503, not 500
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the page's language: from its /de/ or /fr/
    "config.middleware.LanguageMiddleware",  # unprefixed: the visitor's own language, if another
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.CacheControlMiddleware",  # owner and share pages are never cached
    "config.middleware.AccountTagMiddleware",  # whom a page is for: the device keeps it for them
    "django.contrib.messages.middleware.MessageMiddleware",
    "armies.middleware.ImportTooLargeMiddleware",  # ahead of the CSRF check reading the post
    "armies.middleware.ShareLinkGoneMiddleware",  # its own 404 page, even under DEBUG
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.devices.account_tag",
            ],
        },
    },
]

# SQLite unless DATABASE_URL says otherwise. WAL lets readers carry on while one
# request writes; IMMEDIATE takes the write lock up front instead of failing mid-transaction.
# SQLite reads the file through a memory map (mmap_size, 256 MB of address space, not of
# memory): a 200-unit army's stored parts (about 2 MB) outgrow a connection's own page
# cache (2 MB by default), which otherwise copies them in again for each page. Raced over
# HTTP against the same code without it, 40 views of each page after a save, one gunicorn
# worker each: builder 17.9 -> 16.8 ms, share page 18.2 -> 17.6, roster 24.7 -> 23.8
# (medians), the army list even.
# Connections stay open between requests (CONN_MAX_AGE) on both databases: opening a
# SQLite one costs ~0.7 ms, and closing the last one after a write checkpoints the WAL.
# Not under DEBUG on SQLite: runserver's thread per request would strand one each time.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# A database that is slow or stuck must cost a request seconds, not the 30 s after which
# gunicorn kills the worker: /healthz then answers 503 and the load balancer moves on.
# DATABASE_TIMEOUT bounds each statement (PostgreSQL) or each wait for SQLite's write
# lock; DATABASE_CONNECT_TIMEOUT bounds connecting (PostgreSQL; 2 s is its minimum).
# Options in DATABASE_URL's query string win over both.
DATABASE_TIMEOUT = float(os.environ.get("DATABASE_TIMEOUT", "5"))
DATABASE_CONNECT_TIMEOUT = int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "2"))
_database_options = DATABASES["default"].setdefault("OPTIONS", {})
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    _database_options.update(
        {
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA mmap_size=268435456;"
            ),
            "transaction_mode": "IMMEDIATE",
        }
    )
    _database_options.setdefault("timeout", DATABASE_TIMEOUT)
    if DEBUG:
        DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _database_options.setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT)
    _database_options.setdefault(
        "options", f"-c statement_timeout={round(DATABASE_TIMEOUT * 1000)}"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# A cache that errs or is slow is a miss (config/cache.py): each Redis call may take at
# most CACHE_TIMEOUT seconds, connecting included, and is not retried.
CACHE_TIMEOUT = float(os.environ.get("CACHE_TIMEOUT", "0.25"))


def redis_cache(url: str, timeout: float) -> dict:
    """The cache settings for Redis at `url`, each call bounded by `timeout` seconds."""
    return {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_timeout": timeout, "socket_connect_timeout": timeout},
    }


if REDIS_URL:
    CACHES = {"default": redis_cache(REDIS_URL, CACHE_TIMEOUT)}
else:
    # Per process, for one app server. Units' rows and cards are stored in the database
    # (armies/drawing.py), not here: this holds table-mode cards, exports and QR codes.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 40_000},
        }
    }
# Several sites sharing one Redis (or a benchmark's throwaway site) keep apart by prefix;
# within a site, each release of the code keeps its own drawings (config/release.py).
RELEASE = release(BASE_DIR)
CACHES["default"]["KEY_PREFIX"] = os.environ.get("CACHE_KEY_PREFIX", "") + RELEASE

# POST /api/price/ needs no account: requests one address may make a minute, and bytes it
# may post a minute (at least one largest body, 1 MB). Pricing costs CPU in proportion to
# the bytes posted, so the byte budget bounds what one address can cost: README says how much.
PRICE_API_PER_MINUTE = int(os.environ.get("PRICE_API_PER_MINUTE", "10"))
PRICE_API_BYTES_PER_MINUTE = int(os.environ.get("PRICE_API_BYTES_PER_MINUTE", "1000000"))
# The matchup's points against odds costs up to about 2 s of CPU: times an address may ask
# for it a minute, so that one address takes at most a small share of a core.
MATCHUP_ODDS_PER_MINUTE = int(os.environ.get("MATCHUP_ODDS_PER_MINUTE", "6"))

# Units one account may import and copy from share links an hour (an army without units
# counts as one): each costs CPU to price and, on its first pages, to draw. Keep it at
# least 1000, the largest army. README says how much it bounds.
IMPORT_UNITS_PER_HOUR = int(os.environ.get("IMPORT_UNITS_PER_HOUR", "5000"))

# Django's own database sessions and ModelBackend (the defaults).

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# Password-reset mail: printed to the console in development, SMTP in production.
if DEBUG:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
            },
        }
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "muster@localhost")

# Languages (SPEC 5): English at the unprefixed addresses, the others under /de/ and /fr/
# (config/urls.py). Another language is one more catalog under locale/ and one line here
# (docs/languages.md). Each name is written in its own language, as the switcher shows it.
# English is "en-gb", the code the unprefixed addresses are drawn in (LANGUAGE_CODE must be
# one of LANGUAGES for i18n_patterns to leave it unprefixed), and British dates stay as
# they were ("28 Nov 2026").
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", "English"), ("de", "Deutsch"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language cookie outlives the session: a visitor's choice holds on their next visit.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Widgets draw with the project's templates (templates/armies/widgets/), beside Django's own.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Content-Security-Policy on every response: our own scripts and styles only, no inline
# code, no eval. Bootstrap draws form controls with data: SVGs, hence img-src data:.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Production: HTTPS everywhere. Behind a TLS-terminating load balancer set
# SECURE_PROXY_SSL_HEADER_ENABLED=true so Django trusts X-Forwarded-Proto.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if env_bool("SECURE_PROXY_SSL_HEADER_ENABLED", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
