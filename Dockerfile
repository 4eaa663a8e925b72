# syntax=docker/dockerfile:1
# Billow's image: one image for every role (API, Edge, worker), started with the same
# command the tests start (`billow start`). See docs/deploy.md.
#
#   docker build -t billow .
#   docker run -p 4000:4000 -v billow-data:/data billow            # embedded database
#   docker run -p 4000:4000 -e DATABASE_URL=postgres://... billow  # PostgreSQL

# --- Build: every dependency, the TypeScript, the server bundle and the dashboard.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
# npm ci's prepare script runs `npm run build`, as in CI.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# --- Run: the built files and the command line's production dependencies only.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=4000 \
    BILLOW_DATA_DIR=/data/db \
    BILLOW_STORAGE_DIR=/data/files
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/contract/package.json packages/contract/package.json
COPY --from=build /app/packages/contract/dist packages/contract/dist
COPY --from=build /app/packages/sdk/package.json packages/sdk/package.json
COPY --from=build /app/packages/sdk/dist packages/sdk/dist
COPY --from=build /app/packages/server/package.json packages/server/package.json
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/server/src/db/migrations packages/server/src/db/migrations
COPY --from=build /app/packages/cli/package.json packages/cli/package.json
COPY --from=build /app/packages/cli/bin packages/cli/bin
COPY --from=build /app/packages/cli/dist packages/cli/dist
COPY --from=build /app/packages/dashboard/dist packages/dashboard/dist
COPY --from=build /app/docs docs
# Only what `billow` needs at run time: no compilers, no test tools, no dashboard sources.
# (npm's download cache stays in a build cache, out of the image.)
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace @billow/cli
RUN mkdir -p /data/files && chown -R node:node /data
USER node
VOLUME /data
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "--max-semi-space-size=32", "packages/cli/bin/billow.js"]
CMD ["start"]
