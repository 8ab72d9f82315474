// Package assets embeds the static files rewind's pages need, so that the
// viewer and exported reports work with no network: Apache ECharts 5
// (vendored from the npm "echarts" package at the version in
// echarts/VERSION, with its LICENSE and NOTICE; refresh with
// scripts/vendor-echarts.sh).
package assets

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"strings"
)

//go:embed echarts
var FS embed.FS

// ECharts returns the minified ECharts library.
func ECharts() []byte {
	b, err := FS.ReadFile("echarts/echarts.min.js")
	if err != nil {
		panic("assets: echarts.min.js missing from the embedded files") // build-time invariant
	}
	return b
}

// EChartsVersion returns the vendored ECharts version.
func EChartsVersion() string {
	b, _ := FS.ReadFile("echarts/VERSION")
	return strings.TrimSpace(string(b))
}

// EChartsSHA256 returns the recorded SHA-256 of echarts.min.js, and
// whether the embedded file matches it.
func EChartsSHA256() (sum string, ok bool) {
	b, _ := FS.ReadFile("echarts/SHA256")
	sum = strings.TrimSpace(string(b))
	h := sha256.Sum256(ECharts())
	return sum, hex.EncodeToString(h[:]) == sum
}
