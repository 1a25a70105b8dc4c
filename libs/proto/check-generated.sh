#!/usr/bin/env bash
# Fails when the committed generated code differs from what the protos generate now.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf src/gen
buf generate
if ! git diff --quiet --exit-code -- src/gen || [ -n "$(git ls-files --others --exclude-standard -- src/gen)" ]; then
  echo "libs/proto/src/gen is stale: run 'npm run proto' and commit the result." >&2
  git status --short -- src/gen >&2
  exit 1
fi
echo "generated protobuf code is up to date"
