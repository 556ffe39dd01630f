# Multi-stage build: native modules (better-sqlite3, argon2) compile in the build stage.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

# The image holds dist/, console/dist, node_modules, package.json and scripts/ only (no src/): the CLI runs
# the shipped build (`node scripts/cli.js …`). test/container-layout.e2e-spec.ts copies exactly
# these COPY lines into a temporary folder and runs the CLI and the server there as a non-root
# user, so keep the two in step.
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# glibc otherwise raises its mmap threshold after the first large free and then keeps every argon2
# hash's 19 MiB block in the heap of the thread that ran it: RSS grew by hundreds of MiB over a
# long run (docs/reliability.md, "Lifetime"). Fixed at 128 KiB, large blocks go back at once.
ENV MALLOC_MMAP_THRESHOLD_=131072
# A heap limit makes V8 collect before its heap grows far past what is live: with the default limit
# (it grows with the host's memory: 4 GiB on a 24 GiB host) garbage piled up to several times the
# live heap, and a 50,000-operation run peaked at 418 MiB RSS; with 512 MiB, at 220 MiB
# (docs/reliability.md, "Memory").
# The live heap is 60-100 MiB, so the limit is far from reached; `-e NODE_OPTIONS=...` overrides it.
ENV NODE_OPTIONS=--max-old-space-size=512
# The build id in every response's `version`: `docker build --build-arg GIT_COMMIT=$(git rev-parse --short=12 HEAD) .`
# (without it the package version is reported).
ARG GIT_COMMIT=
ENV APP_VERSION=${GIT_COMMIT}
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/scripts ./scripts
# The default DATABASE_URL (sqlite:./data/community.sqlite) writes to /app/data, owned by the
# unprivileged user the service runs as; a volume keeps the database across containers.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
CMD ["node", "dist/main.js"]
