#!/bin/sh
# The release: what the Dockerfile runs, what CI checks (scripts/check-release.mjs) and what a
# plain server installs (deploy/snug-and-dry.service). Needs the dev dependencies installed
# (`npm ci`) for the build; makes OUT (default: release/) with dist/, package.json,
# package-lock.json and the production dependencies alone, to be run with
# `node dist/server/main.js` from inside OUT: no TypeScript, no Vite, no tsx.
#
#   sh scripts/release.sh [OUT]
# RELEASE_PREBUILT=1 takes dist/ as the build just made it instead of building again (npm test
# builds once, for the browser tests, then checks the release of that build).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/release"}

cd "$root"
if [ "${RELEASE_PREBUILT:-}" = "1" ]; then
  [ -f dist/server/main.js ] && [ -f dist/web/index.html ] || { echo "RELEASE_PREBUILT=1 but dist/ is not built"; exit 1; }
else
  npm run build
fi

rm -rf "$out"
mkdir -p "$out"
cp -R dist package.json package-lock.json "$out/"
# The built storefront's stamp is for `npm start` in the repository only.
rm -f "$out/dist/.build-stamp"

cd "$out"
# --prefer-offline: packages already in npm's cache (the build just installed them) are not
# fetched again. npm 11 may refuse its own lockfile in `npm ci` (see .ci/run): then the same
# lockfile is installed with `npm install`, production dependencies only as well.
if ! npm ci --omit=dev --prefer-offline --no-audit --no-fund; then
  echo "npm ci refused the lockfile; installing with npm install --omit=dev instead."
  npm install --omit=dev --prefer-offline --no-audit --no-fund
fi
echo "release ready in $out: start it there with node dist/server/main.js"
