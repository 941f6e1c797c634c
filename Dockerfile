# syntax=docker/dockerfile:1
#
# Contact Data Service: the `cds` command (bin/cds.js) on Node 20.
#
#   docker build -t contact-data-service .
#   docker run -p 8080:8080 -v cds-data:/data contact-data-service            # cds serve on :8080
#   docker run -v cds-data:/data contact-data-service seed --contacts 200000 --companies 20000
#
# docker-compose.yml runs the scale-out set (two API processes, a job worker, Redis, a loader) from this image.
#
# Stages:
#   build      every dependency (dev included) and the sources; tsc compiles src/ and loaders/ to dist/
#   prod-deps  production dependencies only; the native modules are installed (and compiled if need be) here
#   runtime    node_modules from prod-deps, dist/ from build, bin/, web/ and package.json; no compiler, not root
#
# Install scripts: `npm ci` would run the root package's `prepare` (clean + tsc), which cannot work before the
# sources are copied (build) nor without TypeScript (prod-deps), so every `npm ci` runs with --ignore-scripts and
# the one dependency that needs its install script, better-sqlite3, is rebuilt explicitly (package.json
# "allowScripts" names only it). @duckdb/node-api needs no script: its binary comes as an optional platform package.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: dist/ ------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# tsc needs no native module, so nothing is rebuilt here.
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY loaders ./loaders
# Only src/ and loaders/ are copied, so only they are compiled (test/ and bench/ stay out of the image).
RUN npx tsc -p tsconfig.json

# ---- prod-deps: node_modules for the runtime ---------------------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
# better-sqlite3 downloads a prebuilt binary when one fits (Linux x64/arm64, glibc) and otherwise compiles itself
# with node-gyp, which needs python3, make and g++. They stay in this stage; the runtime image has no compiler.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force
# Fail the build here, not at the first request, when a native module does not load on this platform.
RUN node -e "const D = require('better-sqlite3'); new D(':memory:').close()" \
  && node --input-type=module -e "await import('@duckdb/node-api')"

# ---- runtime -----------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production CDS_DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# src/version.ts reads the version from package.json at run time.
COPY package.json ./
COPY bin ./bin
COPY index-mappings ./index-mappings
# The web console's front end (/app): plain ES modules and CSS, served as they are.
COPY web ./web
# The data directory (releases, exports, uploads; state.sqlite and the generated secret when CDS_STATE=sqlite).
# Created owned by the runtime user: a new named volume mounted here starts with this owner, so it is writable.
RUN mkdir -p /data && chown node:node /data
# The node image's unprivileged user (uid 1000).
USER node
VOLUME ["/data"]
EXPOSE 8080
# No curl in slim images: node's own fetch calls the health route (no API key needed). It answers 200 while the
# process serves; the JSON says whether the engine and the state store are ok.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/cds.js"]
CMD ["serve", "--host", "0.0.0.0"]
