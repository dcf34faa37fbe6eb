# syntax=docker/dockerfile:1
# The shop's image: built with scripts/release.sh, the same script CI checks
# (scripts/check-release.mjs), and run from its release with production dependencies only.
# Usage (docs/deploy.md), tagged by release:
#   docker build -t snug-and-dry:$(node -p "require('./package.json').version") .
# deploy/compose.yaml runs two of them behind Caddy with PostgreSQL.

# --- Build: every dependency, the build, then the release in /release ---
FROM node:22-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The commit being built (the context has no .git), seen by the build as an environment variable:
# /metrics' shop_build_info shows it.
ARG SOURCE_REVISION=unknown
RUN sh scripts/release.sh /release

# --- Run: the release alone, as an unprivileged user ---
FROM node:22-slim
# The memory settings of npm start and the systemd unit (docs/decisions/052-page-cache-memory.md):
# two malloc arenas for libuv's threads' brotli work, and a young generation of 2 MB semi-spaces.
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2 \
    NODE_OPTIONS=--max-semi-space-size=2
WORKDIR /app
# Owned by root and read-only to the shop: only DATA_DIR is the shop's to write.
COPY --from=build /release/ /app/
# /media: uploaded photos when MEDIA_DIR points there (deploy/compose.yaml shares one volume).
# /backups: the backups when BACKUP_DIR points there (compose shares one volume); 0700, as the shop requires.
# The one-off commands (backup, restore, admin:create ...) as `snug-and-dry <command>`.
RUN mkdir -p /data /media /backups && chown node:node /data /media /backups && chmod 700 /backups \
 && chmod 755 /app/dist/server/cli/main.js && ln -s /app/dist/server/cli/main.js /usr/local/bin/snug-and-dry
USER node
VOLUME ["/data"]
EXPOSE 3000
# /api/health answers 200 while the process serves and its database answers (503 otherwise).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) finishes the requests in flight and stops cleanly within 25 s.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
