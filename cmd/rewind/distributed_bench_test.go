package main

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/rewind-game/rewind/internal/queue"
	"github.com/rewind-game/rewind/internal/recording"
)

// BenchmarkTournament plays a 40-game tournament of four built-ins (500
// rounds, 2 at a time) per op: "direct" as rewind did before the queue
// (match.Tournament's own goroutines into a folder), "queue" as rewind
// tournament does now (an embedded JetStream server, its workers, the
// results and replays through it). Compare them with benchstat; the
// difference divided by 40 is the queue's cost per game
// (docs/distributed.md).
func BenchmarkTournament(b *testing.B) {
	const games = 40
	bots := []string{"greedy", "random", "economist", "raider"}
	opts := &tournamentOptions{play: playOptions{bots: bots, turns: 500, seed: 3, stdout: io.Discard, stderr: io.Discard}, games: games, parallel: 2, ahead: defaultAhead}
	spec := tournamentSpec(opts, bots)
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			dir := filepath.Join(b.TempDir(), "t")
			play := opts.play
			play.logDir = dir
			tr := localTournament(spec, &recording.Dir{Path: dir, Tool: "rewind test"}, seatMaker(&play, func(s string) string { return s }))
			tr.Games, tr.Parallel = games, 2
			if _, err := tr.Run(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N*games)*1e3, "ms/game")
	})
	b.Run("queue", func(b *testing.B) {
		for b.Loop() {
			o := *opts
			o.dir = filepath.Join(b.TempDir(), "t")
			if err := runTournament(context.Background(), &o); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N*games)*1e3, "ms/game")
	})
	_ = queue.DefaultLimits
}
