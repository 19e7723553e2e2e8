"""The reference: a bare Flask app that parses a JSON body with orjson and sends it back.

`Response(orjson.dumps(orjson.loads(request.get_data())))` is the least a Flask JSON service
does; Flask's `jsonify` is several times slower and would flatter every ratio. `make bench`
serves it exactly as `make run` serves the app (`APP=bench.echo_app:app make run`), pinned to
the same core."""

import orjson
from flask import Flask, Response, request

app = Flask(__name__)


@app.get("/healthz")
def healthz():
    return {"status": "ok"}


@app.post("/echo")
def echo():
    return Response(orjson.dumps(orjson.loads(request.get_data())), mimetype="application/json")
