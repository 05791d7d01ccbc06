# One image for the API and the worker (the command differs). Production runs TypeScript
# through tsx, the same way as local runs, so there is no separate build artefact to drift.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts=false
COPY tsconfig.json ./
COPY src ./src
ENV NODE_ENV=production
EXPOSE 3000
CMD ["npx", "tsx", "src/main.ts"]
