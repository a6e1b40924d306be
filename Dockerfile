# syntax=docker/dockerfile:1
# The verification service (API and worker roles) with the web flow, the console and the launcher it serves.
# Not built on the machine this was written on (no Docker daemon there): see README "Running in production".

# --- build: every workspace's build, then the production dependencies only --------------------------------------
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles when no prebuilt binary matches; sharp and onnxruntime ship prebuilt binaries.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/fixtures/package.json packages/fixtures/
COPY packages/launcher/package.json packages/launcher/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/console/package.json apps/console/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages packages
COPY apps apps
RUN npm run build -w packages/contracts \
 && npm run build -w packages/launcher \
 && npm run build -w apps/web \
 && npm run build -w apps/console \
 && npm run build -w apps/server \
 && npm prune --omit=dev --no-audit --no-fund

# --- runtime: Debian with ffmpeg (face videos, hologram calibration) and fonts; no browser -------------------------
FROM node:20-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    LOG_FORMAT=json \
    FFMPEG_PATH=/usr/bin/ffmpeg
# glibc keeps one malloc arena per thread that allocated, after the engines' worker threads end: two arenas bring a
# node back to ~0.3-0.5 GB a minute after a burst instead of ~0.6 (bench/RESULTS.md, same throughput).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages/contracts/package.json packages/contracts/
COPY --from=build /app/packages/contracts/dist packages/contracts/dist
COPY --from=build /app/packages/launcher/package.json packages/launcher/
COPY --from=build /app/packages/launcher/dist packages/launcher/dist
COPY --from=build /app/apps/server/package.json apps/server/
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/apps/console/dist apps/console/dist
# The image's own user (the node image's uid 1000), never root; /data holds the SQLite file and blobs in the
# embedded mode only (with DATABASE_URL and S3_BUCKET nothing durable is written there).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
# PROCESS_ROLE (api, worker or both) picks what the process does; the migrations run at start (idempotent).
CMD ["node", "apps/server/dist/main.js"]
