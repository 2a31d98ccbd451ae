"""Tests of the service layer alone (companion/service): no Flask app, no request."""
