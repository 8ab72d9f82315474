package viewer

import (
	"bytes"
	"testing"
)

// BenchmarkLoad is the server's work to open a replay: re-simulate the
// 500-round 8-player c03 .rwd, analyse it, build the charts and pack and
// compress the frames.
func BenchmarkLoad(b *testing.B) {
	data := vectorRWD(b, "c03")
	b.ReportAllocs()
	var size, gz int
	for b.Loop() {
		rep, err := LoadReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		size, gz = len(rep.Blob), len(rep.Gzip)
	}
	b.ReportMetric(float64(size), "blob-bytes")
	b.ReportMetric(float64(gz), "gzip-bytes")
}

// BenchmarkLoadCFR is BenchmarkLoad for the official c03.cfr: decode the
// JSON frames (and infer each round's commands, when the viewer shows
// them), analyse, chart, pack and compress.
func BenchmarkLoadCFR(b *testing.B) {
	data := readFile(b, testdata+"/conformance/c03.cfr")
	b.ReportAllocs()
	var size, gz int
	for b.Loop() {
		rep, err := LoadReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		size, gz = len(rep.Blob), len(rep.Gzip)
	}
	b.ReportMetric(float64(size), "blob-bytes")
	b.ReportMetric(float64(gz), "gzip-bytes")
}
