# Production image: build with the full toolchain, run with production dependencies only, as a
# non-root user. Lint: `npm run lint:docker`. Start check without Docker: `.ci/image-start-check`.
# The base, by tag; pin it by digest for reproducible builds (docs/operations.md, "Docker"):
#   docker build --build-arg NODE_IMAGE=node:22-bookworm-slim@sha256:<digest> .
ARG NODE_IMAGE=node:22-bookworm-slim
FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
WORKDIR /app
# The code belongs to root and is read-only for the service; only /app/data (SQLite) is its to write.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY scripts/build-if-needed.cjs ./scripts/
RUN mkdir -p /app/data && chown node:node /app/data
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/app/data/calendar.sqlite \
    DB_MIGRATIONS_RUN=true \
    NODE_OPTIONS=--max-old-space-size=160 \
    MALLOC_ARENA_MAX=2
VOLUME ["/app/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Migrations apply at start (DB_MIGRATIONS_RUN); by hand: `docker compose exec app npm run migration:show`.
# First administrator: CAL_ADMIN_LOGIN and CAL_ADMIN_PASSWORD; more users: `npm run cli -- user:create`.
CMD ["node", "dist/src/main.js"]
