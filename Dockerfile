# One image for every Sprout process; docker-compose.yml and k8s/ pick the command per service:
#   node services/<service>/dist/main.js   (api-gateway, sms-gateway, ai-responder, survey-scheduler,
#                                           image-processor, monitor, edge: the one-origin edge)
#   node tools/dist/stack/migrate.js       (migrations, one-shot)
#   node tools/dist/seed/main.js --users N (demo data, one-shot)
#   node libs/testing/dist/fakes/fake-twilio.main.js   (the SMS sandbox)
# It builds with BuildKit and with the legacy builder, with nothing fetched but the base image and
# the npm packages (no syntax line: that would download a Dockerfile frontend image).
# Behind a TLS-inspecting proxy, give npm its CA: --build-arg EXTRA_CA_CERTS="$(cat proxy-ca.pem)"

ARG NODE_IMAGE=node:20-bookworm-slim

# --- deps: the full dependency tree, from the lock file only (cached until a manifest changes)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Every workspace's manifest (add a line when a workspace is added).
COPY libs/platform/package.json libs/platform/
COPY libs/domain/package.json libs/domain/
COPY libs/contracts/package.json libs/contracts/
COPY libs/gardening/package.json libs/gardening/
COPY libs/llm/package.json libs/llm/
COPY libs/sms/package.json libs/sms/
COPY libs/ui/package.json libs/ui/
COPY libs/testing/package.json libs/testing/
COPY services/api-gateway/package.json services/api-gateway/
COPY services/sms-gateway/package.json services/sms-gateway/
COPY services/ai-responder/package.json services/ai-responder/
COPY services/survey-scheduler/package.json services/survey-scheduler/
COPY services/image-processor/package.json services/image-processor/
COPY services/monitor/package.json services/monitor/
COPY services/edge/package.json services/edge/
COPY web-public/package.json web-public/
COPY web-admin/package.json web-admin/
COPY tools/package.json tools/
COPY e2e/package.json e2e/
# Native modules come prebuilt (argon2, msgpackr-extract, swc, esbuild): package.json's
# allowScripts runs their checks and skips the optional C builds, so no compiler is needed.
# EXTRA_CA_CERTS (PEM text) is trusted besides Node's own CAs, for this step only.
ARG EXTRA_CA_CERTS=""
RUN if [ -n "$EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" > /tmp/extra-ca.pem && export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; \
    fi \
  && npm ci --no-audit --no-fund --no-update-notifier \
  && rm -f /tmp/extra-ca.pem

# --- build: every package's dist (Node services compiled by SWC, web apps by Vite)
FROM deps AS build
ENV NX_DAEMON=false NX_NO_CLOUD=true
COPY . .
RUN npx nx run-many -t build --outputStyle=static

# --- prune: what runs in the image, with production dependencies only. The services (the edge
# among them), tools (migrate, seed) and the SMS sandbox (libs/testing) stay workspaces; the web apps are
# served from their dist folders and e2e never runs here, so their packages (React, Radix, the
# icons) go. Type declarations and node_modules' source maps are never loaded at run time.
FROM build AS prune
RUN node -e "const fs = require('fs'); const p = JSON.parse(fs.readFileSync('package.json', 'utf8')); \
      p.workspaces = ['libs/*', 'services/*', 'tools']; fs.writeFileSync('package.json', JSON.stringify(p, null, 2));" \
  && rm -rf .nx e2e libs/ui web-public/node_modules web-admin/node_modules \
  && npm prune --omit=dev --no-audit --no-fund --no-update-notifier \
  && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete

# --- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Owned by root: the node user reads the app and cannot change it.
COPY --from=prune /app /app
# The edge's webhook spool (EDGE_SPOOL_DIR in compose): a named volume mounted here starts with
# this folder's owner, so the edge (user node) can write it.
RUN mkdir -p /var/spool/sprout-edge && chown node:node /var/spool/sprout-edge
USER node
EXPOSE 3000 3001 3002 3003 3004 3005 8080
# Every service answers /health/live and /health/ready on its PORT.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "services/api-gateway/dist/main.js"]
