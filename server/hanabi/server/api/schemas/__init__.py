"""Marshmallow schemas: the one definition of every request and response body, one module
per concept (:mod:`.basics` holds the shapes they share; :mod:`.plain` words their refusals).

Requests are loaded (validated) through them; ``openapi.yaml`` is generated from them
(:mod:`hanabi.server.api.spec`), and the tests check responses against that contract.
Responses are built as plain dicts by the service and serialised directly, which keeps the
hot path fast; the contract tests make sure they match these schemas.
"""
