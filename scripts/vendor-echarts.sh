#!/usr/bin/env bash
# Refreshes the vendored Apache ECharts used by reports and the viewer.
# Usage: scripts/vendor-echarts.sh [VERSION]   (default: the pinned version)
# Needs npm (the npm registry); writes internal/assets/echarts/.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-$(cat internal/assets/echarts/VERSION 2>/dev/null || echo 5.6.0)}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "echarts@$version" >/dev/null)
tar -xzf "$tmp"/echarts-"$version".tgz -C "$tmp"
out=internal/assets/echarts
mkdir -p "$out"
cp "$tmp/package/dist/echarts.min.js" "$out/echarts.min.js"
cp "$tmp/package/LICENSE" "$out/LICENSE"
[ -f "$tmp/package/NOTICE" ] && cp "$tmp/package/NOTICE" "$out/NOTICE"
echo "$version" > "$out/VERSION"
sha256sum "$out/echarts.min.js" | cut -d' ' -f1 > "$out/SHA256"
echo "vendored echarts $version into $out"
