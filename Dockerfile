# syntax=docker/dockerfile:1
# One image holding every process of the platform; the command picks which one runs:
#   docker run <image> accounts | subscriptions | invoicing | analytics | payments | gateway
#   docker run <image> migrate [service[=schema] ...]      (the Helm chart's migration Job)
#   docker run <image> admin create-org --name "Acme"      (the accounts admin command line)
# Build: docker build -t billing-platform .
# deploy/image/test/image.test.ts assembles the runtime stage's tree as written here (it reads
# this file's runtime stage) and starts a service from it; keep that stage to WORKDIR, ENV, COPY
# --from=build, RUN, USER, EXPOSE, ENTRYPOINT and CMD.
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
ENV NX_DAEMON=false NX_NO_CLOUD=true
COPY . .
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
RUN npx nx run-many -t build --output-style=static
# The runtime tree: package manifests (for the production install) and the built dist/ of every
# workspace the image needs (deploy/image/src/image-tree.ts), nothing else from the checkout.
RUN node deploy/image/dist/stage.js /image

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /image/manifests/ ./
# A cache mount: npm's download cache stays out of the image.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund
COPY --from=build /image/built/ ./
# The node image's unprivileged user (uid 1000, the Helm chart's runAsUser); it owns nothing here,
# so the tree is read-only to the processes (the chart also mounts the root filesystem read-only).
USER node
EXPOSE 8000 50051 50052 50053 50054 50055
ENTRYPOINT ["node", "deploy/image/dist/entrypoint.js"]
CMD ["--help"]
