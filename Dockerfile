# syntax=docker/dockerfile:1
# Multi-stage build: compile with dev dependencies, run with production ones only.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx react-router build

FROM node:${NODE_VERSION}-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-slim AS runtime
# LibreOffice, headless, makes the PDF previews of Office materials (docs/decisions/028).
RUN apt-get update \
 && apt-get install -y --no-install-recommends libreoffice-core-nogui libreoffice-writer-nogui \
    libreoffice-calc-nogui libreoffice-impress-nogui fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json ./
COPY --chown=node:node app ./app
COPY --chown=node:node db ./db
COPY --chown=node:node scripts ./scripts
COPY --chown=node:node public ./public
RUN mkdir -p /data && chown node:node /data
# The embedded defaults (the PostgreSQL server, run as this non-root user, and the files) keep
# their data here; mount a volume to keep it.
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Migrations run at start-up; SIGTERM drains in-flight requests, then stops the embedded database.
CMD ["node", "--disable-warning=ExperimentalWarning", "scripts/server.ts"]
