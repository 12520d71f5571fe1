# syntax=docker/dockerfile:1
#
# Engram as one container: the single binary built by `npm run build` (Bun runtime, server,
# client assets, SQL migrations and sqlite-vec inside), run as a non-root user, data in /data.
#
#   docker build -t engram .
#   docker run -d -p 3000:3000 -v engram-data:/data --name engram engram
#
# Both stages are pinned to linux/amd64: the binary embeds sqlite-vec's linux-x64 build
# (npm package sqlite-vec-linux-x64), which npm does not install on other CPUs.

# ---- Build: install with npm (devDependencies included: Bun is one), build dist/engram ----
FROM --platform=linux/amd64 node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Builds the client bundle, compiles dist/engram and checks that it starts and answers.
RUN npm run build

# ---- Runtime: only the binary on a slim Debian (same glibc as the build stage) ----
FROM --platform=linux/amd64 debian:bookworm-slim
# CA certificates for outbound HTTPS (OpenAI-compatible providers, Wikidata).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 engram \
 && useradd --system --uid 10001 --gid engram --home-dir /data --no-create-home --shell /usr/sbin/nologin engram \
 && mkdir -p /app /data \
 && chown engram:engram /data
COPY --from=build --chown=root:root --chmod=0755 /src/dist/engram /app/engram

# The database (engram.db and its WAL files) lives in ENGRAM_DATA_DIR. sqlite-vec is copied
# to /tmp at start-up (a read-only root file system needs a tmpfs on /tmp).
ENV ENGRAM_MODE=production \
    ENGRAM_DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000
VOLUME ["/data"]
WORKDIR /app
USER engram
EXPOSE 3000

# `engram healthcheck` asks the running server's /api/healthcheck (on $PORT) and exits 0 or 1.
HEALTHCHECK --interval=30s --timeout=10s --start-period=10s --retries=3 CMD ["/app/engram", "healthcheck"]

# Engram handles SIGTERM itself: it refuses new connections, lets the requests in progress finish
# (at most ENGRAM_SHUTDOWN_GRACE, 10 s by default), then closes the database and exits 0. Docker's
# own stop timeout is also 10 s and cannot be set here: run with `--stop-timeout 15` (Compose:
# `stop_grace_period: 15s`) so Docker does not kill Engram before its grace ends.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/engram"]
