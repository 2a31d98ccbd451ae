"""The service layer, between the store and the two doors (web pages, JSON API).

``tables`` is the one table service: who may do what at a table, the refusals, when a table can
be finished, seat claims. ``games`` is what each game declares (``Game``) and the registry;
``schemas`` the JSON schemas of the games' options and actions; ``plays_export`` the history's
files (Castellan's own export and import, BG Stats). It may use the store, the languages and
the rules; no Flask request state.
"""
