"""The transport: HTTP over the game service (:mod:`hanabi.server.table`).

Every route is listed in :mod:`.namespaces`, its resource in the module of its concept
(:mod:`.games`, :mod:`.seats`, :mod:`.play`, :mod:`.events`, :mod:`.accounts`,
:mod:`.players`, :mod:`.system`), its bodies in :mod:`.schemas`. A resource checks the
request (:mod:`.http`, :mod:`.credentials`, :mod:`.ratelimits`), calls the service's parts
(:mod:`.context`) and answers JSON; a refusal of the service answers as problem+json with
the status :mod:`.refusals` gives its code (:mod:`.problems`). The OpenAPI document is
generated from the resources (:mod:`.spec`); :mod:`.install` puts it all on a Flask app.
"""
