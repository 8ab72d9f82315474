package recording

import (
	"bytes"
	"sync"
	"time"

	"github.com/rewind-game/rewind/engine/match"
)

// Memory is a match.Archive and match.SeamArchive that keeps each finished
// game's replay in memory until Take, for a player whose replays go
// elsewhere (a queue worker of the tournament's own process): no file is
// written. It holds no game before the first: Finished is always false.
// Its memory is the replays not yet taken, each the size of its .rwd.
type Memory struct {
	// Tool goes into every replay header.
	Tool string

	mu    sync.Mutex
	games map[int][]byte
}

var _ match.Archive = (*Memory)(nil)

// Take returns game i's replay and forgets it (nil when there is none).
func (m *Memory) Take(i int) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.games[i]
	delete(m.games, i)
	return b
}

func (m *Memory) keep(i int, b []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.games == nil {
		m.games = map[int][]byte{}
	}
	m.games[i] = b
}

// Finished is always false: a Memory archive keeps nothing across runs.
func (m *Memory) Finished(int, uint64, int, []string) (match.GameResult, bool) {
	return match.GameResult{}, false
}

// Create starts recording game i in memory.
func (m *Memory) Create(i int) (match.GameRecording, error) {
	g := &memGame{m: m, i: i}
	g.Recorder = New(&g.buf, time.Now(), m.Tool)
	return g, nil
}

type memGame struct {
	*Recorder
	m   *Memory
	i   int
	buf bytes.Buffer
}

// Commit keeps the replay for Take; the path is "".
func (g *memGame) Commit() (string, error) { g.m.keep(g.i, g.buf.Bytes()); return "", nil }
func (g *memGame) Abort()                  {}
