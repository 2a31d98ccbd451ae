"""The web pages: each game's views, the templates' helpers and the caches that make them fast.

``views`` holds one module per game (its pages and its ``GAME``) and the shared ones (tables,
history, printing, home); ``templating``, ``template_globals``, ``rendering`` and ``languages``
draw pages; ``pagecache`` keeps table pages whole; ``charts`` draws SVG charts; ``pdf_cache``
builds each printed sheet once, in a helper process, its requests waiting in a short line;
``remembered`` lists the tables a browser opened; ``static/`` is served as it is. It may use every
layer below and ``printables``; never ``api``.
"""
