#!/usr/bin/env bash
# Fails when the committed client sources differ from what the gateway's OpenAPI document generates
# now (run after the gateway is built: `npm run client:check` does both).
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/generate.ts
if ! git diff --quiet --exit-code -- src/gen || [ -n "$(git ls-files --others --exclude-standard -- src/gen)" ]; then
  echo "libs/client/src/gen is stale: run 'npm run client:generate' and commit the result." >&2
  git status --short -- src/gen >&2
  exit 1
fi
echo "the typed client is up to date with the OpenAPI document"
