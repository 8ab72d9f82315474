package source

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/replay"
)

// Summary is what a replay says about its game at a glance, read without
// re-simulating or analysing it: a .rwd's header, round records and
// footer; an official file's frames (or its format's own pass:
// engine.Format.Summarize). It is the one summary behind `rewind info`
// and the viewer's library.
type Summary struct {
	Format Format
	// Ruleset is the game's ruleset id.
	Ruleset string
	// MaxTurn is the game's turn limit (0 when unknown).
	MaxTurn int
	// Players in uid order.
	Players []Player
	// Created is when the game was recorded (.rwd header); zero when
	// unknown.
	Created time.Time
	// Rounds is the number of whole rounds the file holds.
	Rounds int
	// Complete is true when the recording ended properly: a .rwd with its
	// footer; an official file that reads to its end. A complete file
	// can still have ended before its turn limit (EndedEarly).
	Complete bool
	// Damage says why reading stopped before a proper end (a recording
	// still being written, a truncated or corrupted file); nil when
	// Complete.
	Damage error
	// Winner is the uid ranked first at the last whole round (the
	// footer's ranking for a .rwd), 0 when unknown; WinnerScore its
	// score.
	Winner      int
	WinnerScore int64
	// Unit names what WinnerScore and the players' scores count: the
	// metric a .rwd footer keeps (engine.FooterIndex), or an official
	// file's score metric; "" when the game is not registered.
	Unit string
	// Parent is the file name of the replay a fork was played on from,
	// Import the official replay an imported game came from (.rwd
	// header); "" when none.
	Parent, Import string
	// Settings describe the game as an official file's header does
	// (engine.Summary.Settings); a .rwd's header is the recording's own.
	Settings [][2]string
	// Content is a complete .rwd's content hash (replay.Reader.ContentHash:
	// its header and commands, never its side data); "" for any other
	// file, whose identity is its bytes.
	Content string
	// Marks counts a .rwd's bot marks (none for any other file).
	Marks replay.MarkCount
}

// EndedEarly reports a recording that ended properly before its last
// turn (a game stopped at turn 200 of 500).
func (s *Summary) EndedEarly() bool {
	return s.Complete && s.MaxTurn > 0 && s.Rounds < s.MaxTurn
}

// Status is the one-line state of the recording, as the library and
// `rewind info` show it: "complete", "ended at turn N of M" or
// "incomplete: N rounds so far (…)".
func (s *Summary) Status() string {
	switch {
	case !s.Complete:
		return fmt.Sprintf("incomplete: %d rounds so far (still being recorded, or cut short)", s.Rounds)
	case s.EndedEarly():
		return fmt.Sprintf("ended at turn %d of %d", s.Rounds, s.MaxTurn)
	}
	return "complete"
}

// PlayerName returns the name of player uid, or "player N".
func (s *Summary) PlayerName(uid int) string {
	for _, p := range s.Players {
		if p.UID == uid {
			return p.Name
		}
	}
	return fmt.Sprintf("player %d", uid)
}

// Summarize reads a whole replay from r and summarizes it. It fails only
// when r is not a replay at all (or its header is unreadable); damage
// after a readable start is reported in Summary.Damage with the whole
// rounds before it counted. The players of a .rwd of a game whose
// players name themselves in play (engine.Registration.NamedInPlay),
// read from a reader that can seek, go by the names they took
// (PlayedNames: the recording is played for them).
func Summarize(r io.Reader) (*Summary, error) {
	seeker, start := seekerAt(r)
	br := bufio.NewReaderSize(r, 64<<10)
	prefix, _ := br.Peek(SniffBytes)
	format, err := Sniff(prefix)
	if err != nil {
		return nil, err
	}
	if format == RWD {
		sum, err := summarizeRWD(br)
		if err != nil || !namedInPlay(sum.Ruleset) || seeker == nil {
			return sum, err
		}
		// Its players go by the names they took in play (PlayedNames).
		names, err := playedNamesAt(seeker, start)
		if err != nil {
			return nil, err
		}
		for i := range sum.Players {
			if i < len(names) {
				sum.Players[i].Name = names[i]
			}
		}
		return sum, nil
	}
	f, _ := LookupStreamFormat(prefix)
	if f.Summarize == nil {
		sum, _, err := SummarizeStream(br)
		return sum, err
	}
	return summarizeFormat(f, br)
}

func summarizeRWD(r io.Reader) (*Summary, error) {
	rd, err := replay.NewReader(r)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	rd.HashContent()
	h := rd.Header()
	s := &Summary{Format: RWD, MaxTurn: h.Config.MaxTurn, Created: h.Created}
	if h.Parent != nil {
		s.Parent = h.Parent.Source
	}
	if h.Import != nil {
		s.Import = h.Import.Source
	}
	for _, p := range h.Players {
		s.Players = append(s.Players, Player{UID: p.UID, Name: p.Name, Bot: p.Bot})
	}
	// The footer's numbers are its footer metric's.
	s.Ruleset = h.Ruleset
	if rs, err := engine.Get(h.Ruleset); err == nil {
		if ms := rs.Metrics(); len(ms) > 0 {
			s.Unit = ms[engine.FooterIndex(rs, h.Compact())].Name
		}
	}
	for {
		round, err := rd.NextText()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			s.Rounds, s.Damage = rd.Turn(), err
			return s, nil
		}
		s.Marks.Add(round, len(h.Players))
	}
	s.Rounds = rd.Turn()
	ft := rd.Footer()
	if ft == nil {
		s.Damage = fmt.Errorf("%w: no footer after %d rounds", replay.ErrTruncated, s.Rounds)
		return s, nil
	}
	s.Complete, s.Rounds, s.Content = true, ft.Turn, rd.ContentHash()
	s.setRanking(ft.Ranking, ft.Gold)
	if len(ft.Ranking) > 0 {
		s.Winner = ft.Ranking[0]
		if i := s.Winner - 1; i >= 0 && i < len(ft.Gold) {
			s.WinnerScore = ft.Gold[i]
		}
	}
	return s, nil
}

// summarizeFormat summarizes a file of official format f by its own
// pass (engine.Format.Summarize), the game and unit its registration's.
func summarizeFormat(f engine.Format, r io.Reader) (*Summary, error) {
	c, err := f.Summarize(r)
	if err != nil {
		return nil, err
	}
	s := &Summary{Format: Format(f.Name), MaxTurn: c.MaxTurn, Rounds: c.Rounds, Complete: c.Complete, Damage: c.Damage,
		Winner: c.Winner, WinnerScore: c.WinnerScore, Settings: c.Settings}
	if g, ok := engine.GameOf(f.Name); ok {
		rs := g.Ruleset
		s.Ruleset, s.Unit = rs.ID(), rs.Metrics()[engine.ScoreIndex(rs)].Name
	}
	for _, p := range c.Players {
		s.Players = append(s.Players, Player{UID: p.UID, Name: p.Name, Rank: p.Rank, Score: p.Score})
	}
	return s, nil
}

// SetRanking fills in the players' Rank and Score from a ranking (uids,
// best first) and the final scores by uid (index uid-1), as a footer has
// them; a uid out of range is ignored.
func (s *Summary) SetRanking(ranking []int, score []int64) { s.setRanking(ranking, score) }

func (s *Summary) setRanking(ranking []int, score []int64) {
	for i := range s.Players {
		p := &s.Players[i]
		for r, uid := range ranking {
			if uid == p.UID {
				p.Rank = r + 1
			}
		}
		if k := p.UID - 1; k >= 0 && k < len(score) {
			p.Score = score[k]
		}
	}
}

// Created returns when the replay at path was recorded, as its header
// says (a .rwd's Header.Created), reading the header only; the zero time
// for a file of another format, one that records none or cannot be
// read: what places a game in game order (the creation time, then the
// path), the order the library's standings count games in.
func Created(path string) time.Time {
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	prefix, _ := br.Peek(SniffBytes)
	if format, err := Sniff(prefix); err != nil || format != RWD {
		return time.Time{}
	}
	rd, err := replay.NewReader(br)
	if err != nil {
		return time.Time{}
	}
	defer rd.Close()
	return rd.Header().Created
}
