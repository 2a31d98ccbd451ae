"""Castellan's rules: one pure module per game, plus what the games share.

Standard library only. Importing this package never imports Flask, so the rules can be
used by the web app, the command line, the JSON API and the tests alike.
"""
