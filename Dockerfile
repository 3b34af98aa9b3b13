# The review-loop GitHub App as a long-running Node server (docs/app.md).
#   docker build -t skillclimb-review-loop .
#   docker run --env-file .env -p 3000:3000 skillclimb-review-loop   (.env as Probot's registration wrote it)
# Several replicas on one Redis: set REDIS_URL on each (deploy/compose.yaml; docs/app.md § Scale path). One
# process without Redis keeps its record of running loops in DATA_DIR (/data here): mount a volume there
# (-v review-loop-data:/data), so a new container resumes the loops the old one was running.

# Build stage: every package (package.json lists them all as devDependencies: CONTRIBUTING.md § Packaging),
# for the TypeScript compiler and the trace below; their install scripts are not run.
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json app.yml ./
COPY src ./src
COPY scripts/app-runtime.mjs ./scripts/
COPY scripts/lib/app-runtime.mjs ./scripts/lib/
# /runtime: build/ (the App's modules only), node_modules/ (only the files of the packages they load),
# package.json and app.yml, traced from build/app/main.js by @vercel/nft (scripts/lib/app-runtime.mjs).
RUN npm run build && npm run app:runtime -- /runtime

# Runtime stage, run as the unprivileged `node` user: only what the App loads at run time, none of the
# test, lint or build tools (vitest, eslint, typescript, nock, esbuild…): about 16 MB of files where
# `npm ci` of every package installs 237 MB.
# A trace rather than an esbuild bundle (as the CLI's): the App loads two modules by package name at run
# time — Probot's registration modules (src/app/setup.ts) and, with REDIS_URL, Probot's own import of
# ioredis — which a bundle cannot resolve; the trace keeps node_modules, so the image runs the files
# `npm start` runs. test/app/app-image.test.ts starts the App from such a folder.
FROM node:22-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=build /runtime ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# Healthy only while GitHub accepts the App's credentials and the store (REDIS_URL) answers (GET /ready;
# GET /ping is mere liveness). SIGTERM lets running rounds save their state before the exit.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "build/app/main.js"]
