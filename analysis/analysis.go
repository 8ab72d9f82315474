// Package analysis computes per-player, per-round statistics, events and a
// summary from any replay rewind can open (.rwd or .cfr), streaming over its
// frames.
//
// # Contracts
//
//   - Analyze reads the source once, front to back, and keeps only two
//     frames (the previous and the current one) besides its results, whose
//     size is O(players × rounds): one fixed-width Round row per player per
//     round, at most MaxPlayerRounds of them (docs/limits.md).
//   - Round t (turn t = 1..N) compares frame t with frame t-1. Player
//     series are indexed by t-1; a player that appears late has zero rows
//     before its first turn (FirstTurn).
//   - All game quantities are int64 and exact. A round's figures are
//     ColorfightII's accounting (colorfight2.Accounts; its Account states
//     the gold and energy accounting and the registration round): values
//     that need the command log (CaptureEnergy, WastedEnergy, Commands,
//     Errors) are -1 when the source has none (.cfr; Analysis.HasCommands
//     is false).
//   - Rankings are best first by final gold, ties by ascending uid.
package analysis

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine/colorfight2"
	"github.com/rewind-game/rewind/internal/satint"
	"github.com/rewind-game/rewind/replay/source"
)

// MaxUID is the largest player uid Analyze accepts. The official server
// numbers players from 1 up to its max_player; per-opponent counts are
// indexed by uid, so a hostile replay with a huge uid is refused rather than
// allowed to exhaust memory.
const MaxUID = 255

// MaxPlayerRounds bounds what an analysis holds: players × rounds, one
// fixed-width Round row each (a few hundred bytes; see docs/limits.md). A
// real game is at most 8 players × 2000 rounds = 16,000; the limit,
// 524,288, is 32 times that (64 players for 8192 rounds, 8 for 65,536). A
// .rwd whose header promises more is refused before its first round, a
// .cfr as soon as its frames reach the limit, with ErrLimit.
const MaxPlayerRounds = 1 << 19

// ErrLimit reports a replay beyond one of the analysis's limits.
var ErrLimit = errors.New("analysis: replay exceeds a limit")

// seriesCapHint is the most rows a player's series reserves up front.
const seriesCapHint = 8192

// Round is one player's values after one round (turn Turn): the
// round's figures of ColorfightII's accounting.
type Round struct {
	Turn int
	colorfight2.Account
}

// Player is one player's identity, per-round series and totals.
type Player struct {
	UID      int
	Username string
	Bot      string // "" when unknown
	// FirstTurn is the first turn the player appears in (normally 1).
	FirstTurn int
	Series    []Round // Series[t-1] is turn t
	PeakCells int64
	PeakTurn  int // first turn PeakCells was reached
	// DiedTurn is the turn the player died, 0 if it did not.
	DiedTurn int
}

// Event kinds. The first five are the game's, found by its accounting
// (colorfight2.AccountEvent, whose kinds' docs say what UID, Other and
// Value are: UID lost its home to Other, has no cells left, reached tech
// level Value, entered cell or building tax bracket Other); the others
// are the analysis's own.
const (
	EventHomeCaptured    = colorfight2.EventHomeCaptured
	EventDied            = colorfight2.EventDied
	EventTechUp          = colorfight2.EventTechUp
	EventTaxBracket      = colorfight2.EventTaxBracket
	EventBuildingBracket = colorfight2.EventBuildingBracket
	EventLeadChange      = "lead_change" // UID is the new gold leader, Other the previous (0: none)
	// EventLeadForGood: UID, the winner, took the lead it kept to the end
	// (Summary.LeadSince) with Value gold; the lead changes before it are
	// the churn a reader may leave out.
	EventLeadForGood = "lead_for_good"
	// EventBotFault: UID's bot failed to answer (colorfight2.ErrBotFault)
	// from this turn on for Value rounds in a row.
	EventBotFault = "bot_fault"
	// EventAttackSurge: UID spent Value energy on attacks from this turn
	// to turn Other, far above its own habit (turning.go); EventBuildSurge
	// likewise Value gold on buildings and upgrades.
	EventAttackSurge = "attack_surge"
	EventBuildSurge  = "build_surge"
	// EventLeadSwing: a lead change where the new leader (UID) gained the
	// most gold on the old one (Other): Value gold over the explainWindow
	// rounds before; the biggest and those at least half as big, at most
	// 3 (turning.go).
	EventLeadSwing = "lead_swing"
)

// EventKinds lists every event kind with how people call it (the
// viewer's event filter shows these words), in the order to show them.
var EventKinds = []struct{ Kind, Title string }{
	{EventHomeCaptured, "homes captured"},
	{EventDied, "eliminations"},
	{EventBotFault, "bot faults"},
	{EventAttackSurge, "attack surges"},
	{EventBuildSurge, "building surges"},
	{EventLeadSwing, "lead swings"},
	{EventLeadForGood, "lead for good"},
	{EventLeadChange, "lead changes"},
	{EventTechUp, "tech levels"},
	{EventTaxBracket, "cell tax brackets"},
	{EventBuildingBracket, "building tax brackets"},
}

// Event is something notable that happened in a round.
type Event struct {
	Turn  int    `json:"turn"`
	Kind  string `json:"kind"`
	UID   int    `json:"uid"`
	Other int    `json:"other"`
	Value int64  `json:"value"`
}

// Text describes the event in one sentence, naming players with name
// (normally (*Analysis).Name; the text table passes one that quotes them).
// The game's kinds are worded by their declaration
// (colorfight2.AccountEventKinds, engine.EventKind.Sentence), the
// analysis's own here: this is the only place the analysis's event
// wording is written, and the text table, the HTML report and the viewer
// (which gets it in its packed data) all show it. The text is plain, not
// HTML: names in it are whatever name returns.
func (e Event) Text(name func(uid int) string) string {
	if k := colorfight2.AccountEventKind(e.Kind); k != nil {
		ae := colorfight2.AccountEvent{Kind: e.Kind, UID: e.UID, Other: e.Other, Value: e.Value}
		ev := ae.Event()
		return k.Sentence(&ev, func(p int) string { return name(p + 1) })
	}
	switch e.Kind {
	case EventLeadChange:
		return fmt.Sprintf("%s takes the gold lead (%d gold)", name(e.UID), e.Value)
	case EventLeadForGood:
		return leadForGoodText(name(e.UID), e.Value, "gold")
	case EventAttackSurge:
		return fmt.Sprintf("%s surges: %d energy on attacks in turns %s", name(e.UID), e.Value, turnSpan(e.Turn, e.Other))
	case EventBuildSurge:
		return fmt.Sprintf("%s surges: %d gold on buildings and upgrades in turns %s", name(e.UID), e.Value, turnSpan(e.Turn, e.Other))
	case EventLeadSwing:
		return fmt.Sprintf("lead swing: %s gains %d gold on %s in %d rounds and takes the lead from it", name(e.UID), e.Value, name(e.Other), explainWindow)
	case EventBotFault:
		if e.Value == 1 {
			return fmt.Sprintf("%s's bot fails to answer (1 round)", name(e.UID))
		}
		return fmt.Sprintf("%s's bot fails to answer (%d rounds in a row)", name(e.UID), e.Value)
	}
	return fmt.Sprintf("%s: %s (other %d, value %d)", strings.ReplaceAll(e.Kind, "_", " "), name(e.UID), e.Other, e.Value)
}

// turnSpan is "360–361", or "360" for one turn.
func turnSpan(from, to int) string {
	if to <= from {
		return fmt.Sprint(from)
	}
	return fmt.Sprintf("%d–%d", from, to)
}

// leadForGoodText is the lead_for_good sentence of every game: who took
// the lead for good, with value of unit (gold, hives) then.
func leadForGoodText(who string, value int64, unit string) string {
	return fmt.Sprintf("%s takes the lead for good (%d %s)", who, value, unit)
}

// Standing is one line of the final ranking, with the player's totals.
type Standing struct {
	Rank      int    `json:"rank"`
	UID       int    `json:"uid"`
	Username  string `json:"username"`
	Bot       string `json:"bot"`
	Gold      int64  `json:"gold"`
	Cells     int64  `json:"cells"`
	Energy    int64  `json:"energy"`
	TechLevel int64  `json:"tech_level"`
	Dead      bool   `json:"dead"`
	PeakCells int64  `json:"peak_cells"`
	PeakTurn  int    `json:"peak_turn"`
	DiedTurn  int    `json:"died_turn"`
	Captured  int64  `json:"captured"`
	Lost      int64  `json:"lost"`
	GoldSpent int64  `json:"gold_spent"`
	StolenIn  int64  `json:"stolen_in"`
	StolenOut int64  `json:"stolen_out"`
	Refund    int64  `json:"refund"`
	MineBonus int64  `json:"mine_bonus"`
	// AttackEnergy totals; CaptureEnergy, WastedEnergy, Commands and Errors
	// are -1 without commands.
	AttackEnergy  int64 `json:"attack_energy"`
	CaptureEnergy int64 `json:"capture_energy"`
	WastedEnergy  int64 `json:"wasted_energy"`
	Commands      int64 `json:"commands"`
	Errors        int64 `json:"errors"`
}

// Summary is the outcome of the game.
type Summary struct {
	Ranking []Standing `json:"ranking"`
	// Winner is Ranking[0].UID (0 when there are no players).
	Winner int `json:"winner"`
	// Margin is the gold of the first minus the second (the first's gold
	// with a single player).
	Margin int64 `json:"margin"`
	// LeadSince is the first turn from which the winner's gold was strictly
	// the highest through the last turn; 0 if it never was (e.g. a tie).
	LeadSince int `json:"lead_since"`
	// SwingTurn is the turn whose round changed the winner's gold lead
	// over the best other player the most, SwingGold that change (negative
	// when the lead shrank); 0 with fewer than two players.
	SwingTurn int   `json:"swing_turn"`
	SwingGold int64 `json:"swing_gold"`
	// Incomplete is Analysis.Incomplete: the game stops before its end,
	// so Winner is the leader at the last round, not a winner.
	Incomplete bool `json:"incomplete"`
}

// Outcome says in one line when the winner took the lead for good and
// the round of the largest swing ("" when there is neither), as the
// viewer's header shows it. In an incomplete game (Incomplete) the first
// is the leader, not a winner, and is called so.
func (a *Analysis) Outcome() string {
	s := a.Summary
	var parts []string
	if s.LeadSince > 0 {
		parts = append(parts, fmt.Sprintf("%s led for good from turn %d", a.Name(s.Winner), s.LeadSince))
	}
	if s.SwingTurn > 0 {
		who := "winner"
		if a.Incomplete() {
			who = "leader"
		}
		parts = append(parts, fmt.Sprintf("largest swing at turn %d (the %s's lead %+d gold)", s.SwingTurn, who, s.SwingGold))
	}
	return strings.Join(parts, "; ")
}

// Incomplete reports whether the game stops before its end: a damaged or
// cut-short replay (Truncated), or one that ends before max_turn (a
// match interrupted, a server game stopped). Its first is a leader, not
// a winner (FirstPlace).
func (a *Analysis) Incomplete() bool {
	return a.Truncated != nil || (a.Config.MaxTurn > 0 && a.Rounds < a.Config.MaxTurn)
}

// FirstPlace names the first of the ranking, name, as every output says it
// (the viewer's header, the report, analyze's table): "winner NAME" for
// a game played to its end, "leader at round N (game incomplete): NAME"
// for one that stops at round N before it (Analysis.Incomplete) — never
// "winner". unit is what the game counts ("round", Monad's "turn").
func FirstPlace(incomplete bool, unit string, n int, name string) string {
	if incomplete {
		return fmt.Sprintf("leader at %s %d (game incomplete): %s", unit, n, name)
	}
	return "winner " + name
}

// FirstPlace is FirstPlace for a's first player.
func (a *Analysis) FirstPlace() string {
	return FirstPlace(a.Incomplete(), "round", a.Rounds, a.Name(a.Summary.Winner))
}

// Analysis is the result of Analyze.
type Analysis struct {
	Format      source.Format
	Config      colorfight2.Config
	Rounds      int // N: the number of rounds (frames after frame 0)
	HasCommands bool
	MaxUID      int
	Players     []*Player // ascending uid
	Events      []Event   // in turn order, then as detected
	Summary     Summary
	// Truncated is the error that ended a damaged or cut-short replay
	// after Rounds whole rounds; everything above covers those rounds.
	// nil when the replay ended cleanly.
	Truncated error
}

// Name returns how the player uid is shown to people: its username, or
// "player N" when it has none or is not a player of the game.
func (a *Analysis) Name(uid int) string {
	if p := a.Player(uid); p != nil && p.Username != "" {
		return p.Username
	}
	return "player " + strconv.Itoa(uid)
}

// Player returns the player with this uid, or nil.
func (a *Analysis) Player(uid int) *Player {
	for _, p := range a.Players {
		if p.UID == uid {
			return p
		}
	}
	return nil
}

// analyzer is the streaming state.
type analyzer struct {
	a     *Analysis
	src   source.Source
	acc   *colorfight2.Accounts
	byUID []*Player // index uid
	// held counts the rows of every series (MaxPlayerRounds).
	held   int
	leader int
}

// Analyze reads src to its end and analyses the game. It does not close src.
func Analyze(src source.Source) (*Analysis, error) {
	m := src.Meta()
	az := &analyzer{a: &Analysis{Format: m.Format, Config: m.Config, HasCommands: m.Format == source.RWD}, src: src}
	az.acc = colorfight2.NewAccounts(MaxUID, az.a.HasCommands)
	if m.Header != nil {
		if n := int64(len(m.Header.Players)) * int64(m.Config.MaxTurn); n > MaxPlayerRounds {
			return nil, fmt.Errorf("analysis: %d players for %d rounds is %d player-rounds, which exceeds the limit of %d; see docs/limits.md: %w",
				len(m.Header.Players), m.Config.MaxTurn, n, MaxPlayerRounds, ErrLimit)
		}
	}
	var prev, cur colorfight2.Frame
	if err := src.Next(&prev); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("analysis: replay has no frames")
		}
		return nil, err
	}
	for {
		err := src.Next(&cur)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if az.a.Rounds == 0 {
				return nil, fmt.Errorf("analysis: frame %d: %w", az.a.Rounds+1, err)
			}
			// A cut-short replay: analyse the whole rounds it has.
			az.a.Truncated = fmt.Errorf("frame %d: %w", az.a.Rounds+1, err)
			break
		}
		if len(cur.Cells) != len(prev.Cells) || cur.Width != prev.Width {
			return nil, fmt.Errorf("analysis: frame %d: map size changed", az.a.Rounds+1)
		}
		az.a.Rounds++
		if err := az.round(&prev, &cur); err != nil {
			return nil, err
		}
		prev, cur = cur, prev
	}
	az.finish()
	return az.a, nil
}

// player returns the player for uid, creating it (and padding its series)
// when first seen.
func (az *analyzer) player(uid int, t int) *Player {
	for uid >= len(az.byUID) {
		az.byUID = append(az.byUID, nil)
	}
	if p := az.byUID[uid]; p != nil {
		return p
	}
	p := &Player{UID: uid, FirstTurn: t}
	for _, mp := range az.src.Meta().Players {
		if mp.UID == uid {
			p.Username, p.Bot = mp.Name, mp.Bot
		}
	}
	p.Series = make([]Round, t-1, max(t-1, min(az.a.Config.MaxTurn, seriesCapHint)))
	for i := range p.Series {
		p.Series[i].Turn = i + 1
	}
	az.held += t - 1
	az.byUID[uid] = p
	if uid > az.a.MaxUID {
		az.a.MaxUID = uid
	}
	return p
}

func (az *analyzer) event(e Event) { az.a.Events = append(az.a.Events, e) }

func (az *analyzer) round(prev, cur *colorfight2.Frame) error {
	t := az.a.Rounds
	// Players.
	for i := range cur.Users {
		u := &cur.Users[i]
		if u.UID < 1 || u.UID > MaxUID {
			return fmt.Errorf("analysis: frame %d: uid %d is out of range 1..%d", t, u.UID, MaxUID)
		}
		p := az.player(int(u.UID), t)
		if u.Username != "" {
			p.Username = u.Username
		}
	}

	// The round's figures.
	var cmds [][]colorfight2.Command
	var errs []colorfight2.CommandError
	if az.a.HasCommands {
		if rd, e, ok := az.src.Round(); ok && rd != nil {
			cmds, errs = rd.Commands, e
		}
	}
	if err := az.acc.Round(prev, cur, cmds, errs); err != nil {
		return fmt.Errorf("analysis: frame %d: %w", t, err)
	}
	for _, e := range az.acc.Events() {
		az.event(Event{Turn: t, Kind: e.Kind, UID: e.UID, Other: e.Other, Value: e.Value})
		if e.Kind == EventDied {
			az.byUID[e.UID].DiedTurn = t
		}
	}

	// Rows, peaks and events.
	for uid, p := range az.byUID {
		if p == nil {
			continue
		}
		if az.held++; az.held > MaxPlayerRounds {
			return fmt.Errorf("analysis: frame %d: more than %d player-rounds (players × rounds), which exceeds the limit; see docs/limits.md: %w", t, MaxPlayerRounds, ErrLimit)
		}
		p.Series = append(p.Series, Round{Turn: t, Account: *az.acc.Account(uid)})
		r := &p.Series[len(p.Series)-1]
		if r.Cells > p.PeakCells {
			p.PeakCells, p.PeakTurn = r.Cells, t
		}
	}
	if l := az.strictLeader(); l != 0 && l != az.leader {
		az.event(Event{Turn: t, Kind: EventLeadChange, UID: l, Other: az.leader, Value: az.last(l).Gold})
		az.leader = l
	}
	return nil
}

// strictLeader returns the uid with strictly the most gold this round, or 0.
func (az *analyzer) strictLeader() int {
	best, bestUID, tie := int64(0), 0, false
	for uid, p := range az.byUID {
		if p == nil {
			continue
		}
		switch g := az.last(uid).Gold; {
		case bestUID == 0 || g > best:
			best, bestUID, tie = g, uid, false
		case g == best:
			tie = true
		}
	}
	if tie {
		return 0
	}
	return bestUID
}

// last returns player uid's row of this round.
func (az *analyzer) last(uid int) *Round {
	p := az.byUID[uid]
	return &p.Series[len(p.Series)-1]
}

func (az *analyzer) finish() {
	a := az.a
	for _, p := range az.byUID {
		if p != nil {
			a.Players = append(a.Players, p)
		}
	}
	for _, p := range a.Players {
		tot, _ := az.acc.Total(p.UID)
		a.Summary.Ranking = append(a.Summary.Ranking, Standing{
			UID: p.UID, Username: p.Username, Bot: p.Bot, PeakCells: p.PeakCells, PeakTurn: p.PeakTurn, DiedTurn: p.DiedTurn,
			Gold: tot.Gold, Cells: tot.Cells, Energy: tot.Energy, TechLevel: tot.TechLevel, Dead: tot.Dead,
			Captured: tot.Captured, Lost: tot.Lost, GoldSpent: tot.GoldSpent,
			StolenIn: tot.StolenIn, StolenOut: tot.StolenOut, Refund: tot.Refund, MineBonus: tot.MineBonus,
			AttackEnergy: tot.AttackEnergy, CaptureEnergy: tot.CaptureEnergy, WastedEnergy: tot.WastedEnergy,
			Commands: tot.Commands, Errors: tot.Errors,
		})
	}
	rk := a.Summary.Ranking
	sort.SliceStable(rk, func(i, j int) bool {
		if rk[i].Gold != rk[j].Gold {
			return rk[i].Gold > rk[j].Gold
		}
		return rk[i].UID < rk[j].UID
	})
	for i := range rk {
		rk[i].Rank = i + 1
	}
	a.Summary.Incomplete = a.Incomplete()
	if len(rk) == 0 {
		return
	}
	a.Summary.Winner = rk[0].UID
	a.Summary.Margin = rk[0].Gold
	if len(rk) > 1 {
		a.Summary.Margin = rk[0].Gold - rk[1].Gold
	}
	w := a.Player(rk[0].UID)
	for t := a.Rounds; t >= 1; t-- {
		g := w.Series[t-1].Gold
		ahead := true
		for _, p := range a.Players {
			if p != w && p.Series[t-1].Gold >= g && t >= p.FirstTurn {
				ahead = false
				break
			}
		}
		if !ahead {
			break
		}
		a.Summary.LeadSince = t
	}
	if len(a.Players) > 1 {
		var prev int64
		for t := 1; t <= a.Rounds; t++ {
			g := w.Series[t-1].Gold
			best, any := int64(0), false
			for _, p := range a.Players {
				if p != w && t >= p.FirstTurn && (!any || p.Series[t-1].Gold > best) {
					best, any = p.Series[t-1].Gold, true
				}
			}
			lead := satint.Sum(g, -best)
			if d := satint.Sum(lead, -prev); t > 1 && (a.Summary.SwingTurn == 0 || abs64(d) > abs64(a.Summary.SwingGold)) {
				a.Summary.SwingTurn, a.Summary.SwingGold = t, d
			}
			prev = lead
		}
	}
	if t := a.Summary.LeadSince; t > 0 {
		a.Events = append(a.Events, Event{Turn: t, Kind: EventLeadForGood, UID: w.UID, Value: w.Series[t-1].Gold})
	}
	a.turningPoints()
	// A bot's faults are one event a run of rounds in a row.
	for _, p := range a.Players {
		for i := 0; i < len(p.Series); i++ {
			if p.Series[i].Faults <= 0 {
				continue
			}
			j := i
			for j < len(p.Series) && p.Series[j].Faults > 0 {
				j++
			}
			a.Events = append(a.Events, Event{Turn: p.Series[i].Turn, Kind: EventBotFault, UID: p.UID, Value: int64(j - i)})
			i = j
		}
	}
	sort.SliceStable(a.Events, func(i, j int) bool { return a.Events[i].Turn < a.Events[j].Turn })
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
