"""The baseline: a bare Flask app that parses a JSON body and sends it back."""

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.get("/healthz")
def healthz():
    return {"status": "ok"}


@app.post("/echo")
def echo():
    return jsonify(request.get_json())
