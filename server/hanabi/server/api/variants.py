"""The variant catalogue: every variant the service plays (all of hanab.live's and its
own), searched a page at a time, and one by name, number or id."""

from __future__ import annotations

from urllib.parse import urlencode

import orjson
from flask import Response
from flask_restx import Resource

from ..table.variants import CATALOGUE
from .http import json_response, load_query
from .operations import PREFIX, operation, schema
from .schemas.variants import VariantDescriptionSchema, VariantPageSchema, VariantsQuery


class Variants(Resource):
    @operation(
        id="listVariants",
        summary="The variants the service plays, searched, a page at a time",
        description=(
            "Every hanab.live variant in hanab.live's order, then this service's own. "
            "Filters combine: `?q=pink&suits=6&rule=up_or_down`. Each item is what "
            "`POST /games` takes as `variant` (its `id`, its hanab.live name or number, or "
            "an alias), with its suits and touch rules, clue colours and ranks, special "
            "rules, maximum score and deck size."
        ),
        query=VariantsQuery,
        responses={200: (VariantPageSchema, "A page of variants")},
        errors=(400,),
    )
    def get(self) -> Response:
        q = load_query(schema(VariantsQuery))
        filters = {k: q[k] for k in ("q", "suits", "rule") if q.get(k) not in (None, "")}
        offset, limit = q["offset"], q["limit"]
        items, total = CATALOGUE.page(**filters, offset=offset, limit=limit)
        following = None
        if offset + limit < total:
            query = urlencode({**filters, "offset": offset + limit, "limit": limit})
            following = f"{PREFIX}/variants?{query}"
        tail = orjson.dumps({"total": total, "offset": offset, "limit": limit, "next": following})
        body = b'{"variants":[' + b",".join(items) + b"]," + tail[1:]
        return json_response(body, raw=True)


class VariantResource(Resource):
    @operation(
        id="getVariant",
        summary="One variant by hanab.live name, hanab.live number, or this service's id",
        description=(
            "The name URL-encoded, any letter case (`Pink%20%26%20Brown%20(6%20Suits)`), "
            "the number (`1344`), or an id of this service (`no_variant`: the variant as "
            "its games play it, with this service's suit names). 404 unknown_variant else."
        ),
        responses={200: (VariantDescriptionSchema, "The variant")},
        errors=(404,),
    )
    def get(self, key: str) -> Response:
        return json_response(CATALOGUE.find(key), raw=True)
