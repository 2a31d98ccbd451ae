"""Castellan's web views: one module per game (declaring ``GAME`` and ``bp``), plus the shared pages.

Every module here is discovered by ``companion.games.discover``; adding a game adds a module.
"""
