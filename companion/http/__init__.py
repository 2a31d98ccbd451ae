"""What both doors, the web pages and the JSON API, stand on: the Flask plumbing they share.

``security`` (CSP and headers, CSRF, rate limits, the Host check, the session cookie),
``requests`` (htmx or not, a posted form, the public base address), ``compression``,
``error_pages`` (an error as a page or as JSON), ``sessions``, ``context`` (this request's
database connection and the app's games) and ``netinfo`` (the LAN address, QR codes).
It may use the service, the store, the languages and the rules; never ``web`` or ``api``.
"""
