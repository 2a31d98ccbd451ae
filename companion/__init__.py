"""Castellan: a paper-play companion and scorer for five castle-themed games.

The package is layered (docs/architecture.md): ``rules`` (pure), ``store``, ``i18n``,
``service``, ``http``, then ``web`` and ``api`` side by side, and ``app`` on top, which builds
the Flask app. Importing this package loads none of them: ``companion.create_app`` is looked up
in ``companion.app`` when first asked for (``flask --app companion run`` finds it so).
"""


def __getattr__(name: str):
    if name == "create_app":
        from companion.app import create_app

        return create_app
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
