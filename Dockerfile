# Arbiter: the same gunicorn command as `make run`. Sessions are in memory (one worker,
# 4 threads) unless REDIS_URL is set; then raise WORKERS, e.g. -e REDIS_URL=... -e WORKERS=2 -e THREADS=1.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000 WORKERS=1 THREADS=4
RUN useradd --create-home --uid 10001 arbiter
WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY service ./service
RUN pip install --no-cache-dir .
USER arbiter
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz').status == 200 else 1)"
CMD ["sh", "-c", "exec gunicorn --workers $WORKERS --threads $THREADS --bind $HOST:$PORT 'service.app:create_app()'"]
