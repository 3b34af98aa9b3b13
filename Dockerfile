# The review-loop GitHub App as a long-running Node server (docs/app.md).
#   docker build -t skillclimb-review-loop .
#   docker run --env-file .env -p 3000:3000 skillclimb-review-loop   (.env as Probot's registration wrote it)
# Several replicas on one Redis: set REDIS_URL on each (deploy/compose.yaml; docs/app.md § Scale path). One
# process without Redis keeps its record of running loops in DATA_DIR (/data here): mount a volume there
# (-v review-loop-data:/data), so a new container resumes the loops the old one was running.

# Build stage: the TypeScript compiler is a dev dependency.
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Runtime stage: the compiled App and its packages, not root. package.json lists every package under
# devDependencies (the npm package bundles its CLI and declares none: CONTRIBUTING.md § Packaging), so this
# installs them all, without running their scripts; NODE_ENV is set after, or npm would omit them.
FROM node:22-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts && npm cache clean --force
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=build /app/build ./build
COPY app.yml ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# Healthy only while GitHub accepts the App's credentials and the store (REDIS_URL) answers (GET /ready;
# GET /ping is mere liveness). SIGTERM lets running rounds save their state before the exit.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "build/app/main.js"]
