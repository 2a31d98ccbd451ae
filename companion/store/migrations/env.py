"""Alembic's entry point: Castellan runs the migrations on the connection ``db.migrate`` gives it."""

from alembic import context

context.configure(connection=context.config.attributes["connection"], transaction_per_migration=True)
with context.begin_transaction():
    context.run_migrations()
