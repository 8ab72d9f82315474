package viewer

import (
	"bytes"
	"testing"

	"github.com/rewind-game/rewind/internal/source"
	"github.com/rewind-game/rewind/internal/testutil"
)

// benchPack is the server's work to show the replay in data on its page
// (what ?data=1 answers): open it as the viewer does
// (source.NewInferredStream), pack it with the analysis's events
// (PackStream) and compress the JSON (EncodePacked).
func benchPack(b *testing.B, data []byte) {
	b.ReportAllocs()
	var frames, gz int
	for b.Loop() {
		s, err := source.NewInferredStream(bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		p, err := PackStream(s, StreamLimits{})
		s.Close()
		if err != nil {
			b.Fatal(err)
		}
		z, err := EncodePacked(p)
		if err != nil {
			b.Fatal(err)
		}
		frames, gz = len(p.Frames), len(z)
	}
	b.ReportMetric(float64(frames), "frames")
	b.ReportMetric(float64(gz), "gzip-bytes")
}

// BenchmarkLoad is the server's work to open a replay: re-simulate the
// 500-round 8-player c03 .rwd, analyse it and pack and compress its
// frames for the replay page (benchPack).
func BenchmarkLoad(b *testing.B) { benchPack(b, vectorRWD(b, "c03")) }

// BenchmarkLoadCFR is BenchmarkLoad for the official c03.cfr: decode the
// JSON frames and infer each round's commands, analyse, pack and
// compress.
func BenchmarkLoadCFR(b *testing.B) {
	benchPack(b, testutil.ReadFile(b, testdata+"/conformance/c03.cfr"))
}
