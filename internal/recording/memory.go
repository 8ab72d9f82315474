package recording

import "sync"

// Memory is a match.Archive that keeps each finished
// game's replay in memory until Take, for a player whose replays go
// elsewhere (a queue worker of the tournament's own process): no file is
// written. It holds no game before the first: Finished is always
// false.
// Its memory is the replays not yet taken, each the size of its .rwd.
type Memory struct {
	// Tool goes into every replay header.
	Tool string

	mu    sync.Mutex
	games map[int][]byte
}

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
