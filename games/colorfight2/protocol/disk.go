package protocol

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// recordingFile is one finished recording the server named
// (ROOM-GAMEID.rwd) in Options.Dir.
type recordingFile struct {
	path string
	size int64
	mod  time.Time
}

// ownRecording reports whether name is a finished recording of this
// server's naming: ROOM-GAMEID.rwd with a room id and a numeric game id.
func ownRecording(name string) bool {
	base, ok := strings.CutSuffix(name, ".rwd")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(base, '-')
	if i <= 0 || i == len(base)-1 || !validRoomID(base[:i]) {
		return false
	}
	for _, c := range base[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// makeRoom applies MaxDiskBytes before a game starts: when the server's
// recordings (finished, and the .partial files being written) reach it,
// "rotate" removes the oldest finished ones until they are under it, and
// "refuse" returns the error that stops the room. Other files of Dir
// are neither counted nor touched. Work: one listing of Dir.
func (s *Server) makeRoom() error {
	limit := s.opts.MaxDiskBytes
	if limit < 0 {
		return nil
	}
	s.diskMu.Lock()
	defer s.diskMu.Unlock()
	entries, err := os.ReadDir(s.opts.Dir)
	if err != nil {
		return fmt.Errorf("server: recordings: %w", err)
	}
	var total int64
	var done []recordingFile
	for _, e := range entries {
		name := e.Name()
		own := ownRecording(name)
		if !own && !(strings.HasSuffix(name, partialSuffix) && ownRecording(strings.TrimSuffix(name, partialSuffix))) {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		total += fi.Size()
		if own {
			done = append(done, recordingFile{filepath.Join(s.opts.Dir, name), fi.Size(), fi.ModTime()})
		}
	}
	if total < limit {
		return nil
	}
	if s.opts.DiskFull == "refuse" {
		return fmt.Errorf("the recordings take %d bytes, the disk budget (--max-disk) is %d: no new game until some are removed", total, limit)
	}
	sort.Slice(done, func(i, j int) bool {
		if !done[i].mod.Equal(done[j].mod) {
			return done[i].mod.Before(done[j].mod)
		}
		return gameIDLess(done[i].path, done[j].path) // game ids grow with time
	})
	for _, f := range done {
		if total < limit {
			break
		}
		if err := os.Remove(f.path); err != nil {
			return fmt.Errorf("server: rotating the recordings: %w", err)
		}
		total -= f.size
		s.logf("%s removed: the recordings reached the disk budget of %d bytes (oldest first)", filepath.Base(f.path), limit)
	}
	if total >= limit {
		return fmt.Errorf("the games being played take %d bytes, the disk budget (--max-disk) is %d", total, limit)
	}
	return nil
}

// gameIDLess orders two recordings by their game ids (numbers of the same
// magnitude: milliseconds).
func gameIDLess(a, b string) bool {
	id := func(p string) string {
		base := strings.TrimSuffix(filepath.Base(p), ".rwd")
		return base[strings.LastIndexByte(base, '-')+1:]
	}
	x, y := id(a), id(b)
	if len(x) != len(y) {
		return len(x) < len(y)
	}
	return x < y
}
