# Arbiter: the same gunicorn command as `make run` (gevent worker). Sessions are in memory (one
# worker) unless REDIS_URL is set; then raise WORKERS, e.g. -e REDIS_URL=... -e WORKERS=2.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000 WORKERS=1
RUN useradd --create-home --uid 10001 arbiter
WORKDIR /app
# Dependencies in a layer of their own: a change to the code does not reinstall them.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
      > /tmp/requirements.txt && pip install --no-cache-dir -r /tmp/requirements.txt
COPY rules ./rules
COPY service ./service
RUN pip install --no-cache-dir --no-deps .
USER arbiter
EXPOSE 8000
# The health check asks the port the server was told to use.
HEALTHCHECK --interval=30s --timeout=3s --retries=3 \
  CMD python -c "import os, sys, urllib.request; sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"8000\")}/healthz').status == 200 else 1)"
CMD ["sh", "-c", "exec gunicorn --config python:service.gunicorn_conf --worker-class gevent --workers $WORKERS --worker-connections 10000 --bind $HOST:$PORT 'service.app:create_app()'"]
