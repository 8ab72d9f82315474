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
//   - All game quantities are int64 and exact. Values that need the command
//     log (CaptureEnergy, WastedEnergy, Commands, Errors) are -1 when the
//     source has none (.cfr; Analysis.HasCommands is false).
//   - AttackEnergy is the sum of the player's accepted attack energies when
//     commands are known, otherwise the energy the accounting leaves
//     unexplained: energy(t-1) + energy_source(t) - tax(t) -
//     home upgrade energy(t) - energy(t). Both agree on every reference game.
//   - Gold accounting: for every player and round
//     gold(t) = gold(t-1) + gold_source(t) - tax(t) - GoldSpent(t) +
//     StolenIn(t) - StolenOut(t) + Refund(t) + MineBonus(t),
//     where GoldSpent is derived from building changes between the frames,
//     and theft and refunds by replaying the rules' taken effects in the
//     engine's column-major cell scan order. This is exact unless a building
//     was built or upgraded and then captured or removed in the same round
//     (invisible in frames).
//   - The registration round of a player (the first frame it appears in)
//     starts from gold 0, energy 1000 and its home is neither a capture nor
//     a build.
//   - Rankings are best first by final gold, ties by ascending uid.
package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rewind-game/rewind/engine/colorfight2"
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

// Round is one player's values after one round (turn Turn).
type Round struct {
	Turn         int
	Gold         int64
	Energy       int64
	GoldSource   int64
	EnergySource int64
	Tax          int64
	Cells        int64
	TechLevel    int64
	Dead         bool
	// Faults counts the rounds' commands standing for a bot that failed
	// to answer (colorfight2.ErrBotFault: a timeout, a crash, malformed
	// output, a missed lock-step round): 0 or 1 a round, -1 without
	// commands. (An int32 beside Dead, so a Round is no bigger.)
	Faults int32
	// Buildings counts by type as the replay reports them (building_number),
	// indexed by the engine's colorfight2.Building like
	// colorfight2.FrameUser.Buildings: Home..Fortress, with index 0
	// (BuildingNone) always 0.
	Buildings [colorfight2.NumBuildings]int64
	// Levels[type][level-1] counts the player's cells holding that building
	// at that level in the frame (type indexed as Buildings).
	Levels [colorfight2.NumBuildings][3]int64

	// Captured and Lost count cells that changed hands this round;
	// Exchanges splits them by the other party (CapturedFrom, LostTo).
	Captured int64
	Lost     int64
	// Exchanges lists, by ascending uid of the other party (0: unowned
	// cells), the cells the player took from it and lost to it this
	// round; nil when no cell changed hands. It holds one entry per party
	// involved, never one per possible uid.
	Exchanges []Exchange

	// GoldSpent is gold paid for builds and upgrades; UpgradeEnergy the
	// energy paid for home upgrades.
	GoldSpent     int64
	UpgradeEnergy int64
	// StolenIn is gold taken from others' homes, StolenOut gold taken from
	// the player's home; Refund is gold received when the player's
	// mine, well or fortress was taken; MineBonus is gold received for
	// capturing others' gold mines.
	StolenIn  int64
	StolenOut int64
	Refund    int64
	MineBonus int64
	// GoldUnexplained is what the gold accounting above leaves over:
	// always 0 with commands; without them, the effect of buildings built
	// or upgraded and captured in the same round, which frames cannot show
	// (e.g. -100 for a mine built and lost, +100 for capturing it).
	GoldUnexplained int64

	// AttackEnergy is the energy spent on attacks (see package doc).
	// CaptureEnergy is the part spent on cells the player captured this
	// round, WastedEnergy the rest; both -1 without commands.
	AttackEnergy  int64
	CaptureEnergy int64
	WastedEnergy  int64
	// Commands sent and how many failed; -1 without commands.
	Commands int64
	Errors   int64
}

// Exchange counts the cells a player took from one other party (From) and
// lost to it (To) in one round.
type Exchange struct {
	UID      int32
	From, To int32
}

// CapturedFrom returns the cells the player captured from uid this round
// (uid 0: unowned cells).
func (r *Round) CapturedFrom(uid int) int64 {
	for _, e := range r.Exchanges {
		if int(e.UID) == uid {
			return int64(e.From)
		}
	}
	return 0
}

// LostTo returns the cells the player lost to uid this round.
func (r *Round) LostTo(uid int) int64 {
	for _, e := range r.Exchanges {
		if int(e.UID) == uid {
			return int64(e.To)
		}
	}
	return 0
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

// Event kinds.
const (
	EventHomeCaptured    = "home_captured"    // UID lost its home to Other
	EventDied            = "died"             // UID has no cells left
	EventTechUp          = "tech_up"          // UID's tech level rose to Value
	EventLeadChange      = "lead_change"      // UID is the new gold leader, Other the previous (0: none)
	EventTaxBracket      = "tax_bracket"      // UID's cells (Value) entered a new T(n) bracket (Other = bracket)
	EventBuildingBracket = "building_bracket" // UID's mines+wells (Value) entered a new T(n) bracket (Other = bracket)
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
// This is the only place event wording is written: the text table, the
// HTML report and the viewer (which gets it in its packed data) all show
// it. The text is plain, not HTML: names in it are whatever name returns.
func (e Event) Text(name func(uid int) string) string {
	switch e.Kind {
	case EventHomeCaptured:
		return fmt.Sprintf("%s loses its home to %s (%d gold stolen)", name(e.UID), name(e.Other), e.Value)
	case EventDied:
		return fmt.Sprintf("%s is eliminated", name(e.UID))
	case EventTechUp:
		return fmt.Sprintf("%s reaches tech level %d", name(e.UID), e.Value)
	case EventLeadChange:
		return fmt.Sprintf("%s takes the gold lead (%d gold)", name(e.UID), e.Value)
	case EventTaxBracket:
		return fmt.Sprintf("%s enters cell tax bracket %d (%d cells)", name(e.UID), e.Other, e.Value)
	case EventBuildingBracket:
		return fmt.Sprintf("%s enters building tax bracket %d (%d mines and wells)", name(e.UID), e.Other, e.Value)
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
	byUID []*Player // index uid
	gold  []int64   // running gold in the taken-effects replay, by uid
	prevU []*colorfight2.FrameUser
	curU  []*colorfight2.FrameUser
	rows  []*Round // this round's row of each uid
	rej   [][]bool
	// ex[o*exN+po] counts the cells o took from po this round; exPairs
	// lists the pairs counted, exTmp is scratch for one player's entries.
	ex      []int32
	exN     int
	exPairs [][2]int
	exTmp   [][]Exchange
	exSlab  []Exchange
	// held counts the rows of every series (MaxPlayerRounds).
	held   int
	leader int
	maxTax []int64
	maxBld []int64
	// Building state after the command step, for cells builds or
	// upgrades touched this round (.rwd only).
	ovSet   []bool
	ovB     []colorfight2.Building
	ovL     []int64
	touched []int
}

// Analyze reads src to its end and analyses the game. It does not close src.
func Analyze(src source.Source) (*Analysis, error) {
	m := src.Meta()
	az := &analyzer{a: &Analysis{Format: m.Format, Config: m.Config, HasCommands: m.Format == source.RWD}, src: src}
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
		az.gold = append(az.gold, 0)
		az.maxTax = append(az.maxTax, 0)
		az.maxBld = append(az.maxBld, 0)
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
	// Players and their rows.
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
	n := len(az.byUID)
	az.prevU = resize(az.prevU, n)
	az.curU = resize(az.curU, n)
	for i := range prev.Users {
		if uid := int(prev.Users[i].UID); uid < n {
			az.prevU[uid] = &prev.Users[i]
		}
	}
	for i := range cur.Users {
		az.curU[int(cur.Users[i].UID)] = &cur.Users[i]
	}
	for len(az.rows) < n {
		az.rows = append(az.rows, nil)
	}
	rows := az.rows[:n]
	clear(rows)
	for uid, p := range az.byUID {
		if p == nil {
			continue
		}
		if az.held++; az.held > MaxPlayerRounds {
			return fmt.Errorf("analysis: frame %d: more than %d player-rounds (players × rounds), which exceeds the limit; see docs/limits.md: %w", t, MaxPlayerRounds, ErrLimit)
		}
		p.Series = append(p.Series, Round{Turn: t})
		r := &p.Series[len(p.Series)-1]
		rows[uid] = r
		if u := az.curU[uid]; u != nil {
			r.Gold, r.Energy, r.GoldSource, r.EnergySource = u.Gold, u.Energy, u.GoldSource, u.EnergySource
			r.Tax, r.Cells, r.TechLevel, r.Dead = u.TaxAmount, u.CellNumber, u.TechLevel, u.Dead
			r.Buildings = u.Buildings
			r.Buildings[colorfight2.BuildingNone] = 0
		} else if len(p.Series) > 1 {
			// Vanished from the users list: keep last values.
			last := p.Series[len(p.Series)-2]
			r.Gold, r.Energy, r.Dead = last.Gold, last.Energy, true
		}
		if az.a.HasCommands {
			r.CaptureEnergy, r.WastedEnergy = 0, 0
		} else {
			r.CaptureEnergy, r.WastedEnergy, r.Commands, r.Errors, r.Faults = -1, -1, -1, -1, -1
		}
	}
	isNew := func(uid int) bool { return az.prevU[uid] == nil }
	if az.exN < n {
		az.ex, az.exN = make([]int32, n*n), n
	}

	// Cells: levels, captures, spending.
	for i := range cur.Cells {
		c, pc := &cur.Cells[i], &prev.Cells[i]
		o := int(c.Owner)
		if o <= 0 || o >= n || rows[o] == nil {
			continue
		}
		r := rows[o]
		if c.Building != colorfight2.BuildingNone && c.Building < colorfight2.NumBuildings && c.Level >= 1 && c.Level <= 3 {
			r.Levels[c.Building][c.Level-1]++
		}
		if isNew(o) {
			continue
		}
		po := int(pc.Owner)
		if po != o {
			r.Captured++
			if po >= 0 && po < n {
				if k := o*az.exN + po; az.ex[k] == 0 {
					az.exPairs = append(az.exPairs, [2]int{o, po})
					az.ex[k] = 1
				} else {
					az.ex[k]++
				}
				if po > 0 && rows[po] != nil {
					rows[po].Lost++
				}
			}
		}
		if az.a.HasCommands || c.Building == colorfight2.BuildingNone || c.Building >= colorfight2.NumBuildings || c.Level < 1 || c.Level > 3 {
			continue
		}
		bt := c.Building
		from := int64(1)
		if po == o && pc.Building == c.Building {
			from = pc.Level
		} else {
			r.GoldSpent += colorfight2.BuildCost(bt)
		}
		for l := from; l < c.Level; l++ {
			g, e := colorfight2.UpgradeCost(bt, l)
			r.GoldSpent += g
			r.UpgradeEnergy += e
		}
	}

	az.exchanges(rows)

	// Commands: attacks, and with them the exact builds and upgrades.
	if az.a.HasCommands {
		az.commands(prev, cur, rows)
	}

	// Taken effects, in the engine's column-major scan order.
	for uid := range az.gold {
		az.gold[uid] = 0
		if u := az.prevU[uid]; u != nil {
			az.gold[uid] = u.Gold
		}
		if rows[uid] != nil {
			az.gold[uid] -= rows[uid].GoldSpent
		}
	}
	w, h := cur.Width, cur.Height
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			i := y*w + x
			c, pc := &cur.Cells[i], &prev.Cells[i]
			po, o := int(pc.Owner), int(c.Owner)
			if po == o || po <= 0 || o <= 0 || po >= n || o >= n || rows[po] == nil || rows[o] == nil || isNew(o) {
				continue
			}
			bld, lv := pc.Building, pc.Level
			if az.ovSet != nil && az.ovSet[i] {
				bld, lv = az.ovB[i], az.ovL[i]
			}
			if lv < 1 || lv > 3 {
				continue
			}
			v := colorfight2.TakenValue(lv)
			switch bld {
			case colorfight2.Home:
				stolen := az.gold[po] / 3
				az.gold[po] -= stolen
				az.gold[o] += stolen
				rows[po].StolenOut += stolen
				rows[o].StolenIn += stolen
				az.event(Event{Turn: t, Kind: EventHomeCaptured, UID: po, Other: o, Value: stolen})
			case colorfight2.GoldMine:
				az.gold[o] += v
				az.gold[po] += v
				rows[o].MineBonus += v
				rows[po].Refund += v
			case colorfight2.EnergyWell, colorfight2.Fortress:
				az.gold[po] += v
				rows[po].Refund += v
			}
		}
	}

	// Energy accounting, peaks and events.
	for uid, p := range az.byUID {
		r := rows[uid]
		if r == nil {
			continue
		}
		pu := az.prevU[uid]
		if !az.a.HasCommands && pu != nil && az.curU[uid] != nil {
			r.AttackEnergy = pu.Energy + r.EnergySource - r.Tax - r.UpgradeEnergy - r.Energy
		}
		if pu != nil && az.curU[uid] != nil {
			want := satSum(pu.Gold, r.GoldSource, -r.Tax, -r.GoldSpent, r.StolenIn, -r.StolenOut, r.Refund, r.MineBonus)
			r.GoldUnexplained = satSum(r.Gold, -want)
		}
		if r.Cells > p.PeakCells {
			p.PeakCells, p.PeakTurn = r.Cells, t
		}
		var was Round
		if len(p.Series) > 1 {
			was = p.Series[len(p.Series)-2]
		}
		if pu != nil && p.DiedTurn == 0 && (r.Dead || r.Cells == 0) && !(was.Dead || was.Cells == 0) {
			p.DiedTurn = t
			az.event(Event{Turn: t, Kind: EventDied, UID: uid, Value: was.Cells})
		}
		if pu != nil && r.TechLevel > was.TechLevel && r.TechLevel > 1 {
			az.event(Event{Turn: t, Kind: EventTechUp, UID: uid, Other: int(was.TechLevel), Value: r.TechLevel})
		}
		if b := colorfight2.TaxBracket(r.Cells); b > az.maxTax[uid] {
			az.maxTax[uid] = b
			az.event(Event{Turn: t, Kind: EventTaxBracket, UID: uid, Other: int(b), Value: r.Cells})
		}
		nb := r.Buildings[colorfight2.GoldMine] + r.Buildings[colorfight2.EnergyWell]
		if b := colorfight2.TaxBracket(nb); b > az.maxBld[uid] {
			az.maxBld[uid] = b
			az.event(Event{Turn: t, Kind: EventBuildingBracket, UID: uid, Other: int(b), Value: nb})
		}
	}
	if l := strictLeader(rows); l != 0 && l != az.leader {
		az.event(Event{Turn: t, Kind: EventLeadChange, UID: l, Other: az.leader, Value: rows[l].Gold})
		az.leader = l
	}
	for i := range az.prevU {
		az.prevU[i], az.curU[i] = nil, nil
	}
	for _, i := range az.touched {
		az.ovSet[i] = false
	}
	az.touched = az.touched[:0]
	return nil
}

// exchanges turns the pairs counted this round into each player's
// Exchanges (by ascending uid of the other party) and clears the counts.
func (az *analyzer) exchanges(rows []*Round) {
	if len(az.exPairs) == 0 {
		return
	}
	for len(az.exTmp) < len(rows) {
		az.exTmp = append(az.exTmp, nil)
	}
	add := func(uid, other int, from, to int32) {
		l := az.exTmp[uid]
		for i := range l {
			if int(l[i].UID) == other {
				l[i].From += from
				l[i].To += to
				return
			}
		}
		az.exTmp[uid] = append(l, Exchange{UID: int32(other), From: from, To: to})
	}
	for _, pr := range az.exPairs {
		o, po := pr[0], pr[1]
		k := o*az.exN + po
		c := az.ex[k]
		az.ex[k] = 0
		add(o, po, c, 0)
		if po > 0 && rows[po] != nil {
			add(po, o, 0, c)
		}
	}
	az.exPairs = az.exPairs[:0]
	for uid, l := range az.exTmp {
		if len(l) == 0 {
			continue
		}
		slices.SortFunc(l, func(a, b Exchange) int { return cmp.Compare(a.UID, b.UID) })
		if rows[uid] != nil {
			// Rows' entries are carved from shared slabs: one allocation
			// for many rounds, none of them kept longer than the rows.
			if cap(az.exSlab)-len(az.exSlab) < len(l) {
				az.exSlab = make([]Exchange, 0, max(exSlabSize, len(l)))
			}
			k := len(az.exSlab)
			az.exSlab = append(az.exSlab, l...)
			rows[uid].Exchanges = az.exSlab[k : k+len(l) : k+len(l)]
		}
		az.exTmp[uid] = l[:0]
	}
}

// exSlabSize is how many Exchange entries one slab holds.
const exSlabSize = 4096

// strictLeader returns the uid with strictly the most gold, or 0.
func strictLeader(rows []*Round) int {
	best, bestUID, tie := int64(0), 0, false
	for uid, r := range rows {
		if r == nil {
			continue
		}
		switch {
		case bestUID == 0 || r.Gold > best:
			best, bestUID, tie = r.Gold, uid, false
		case r.Gold == best:
			tie = true
		}
	}
	if tie {
		return 0
	}
	return bestUID
}

func resize(s []*colorfight2.FrameUser, n int) []*colorfight2.FrameUser {
	for len(s) < n {
		s = append(s, nil)
	}
	return s
}

// commands fills the command counts, attack energies, and the exact
// build and upgrade spending from the accepted commands, recording the
// building state after the command step in the overlay.
func (az *analyzer) commands(prev, cur *colorfight2.Frame, rows []*Round) {
	rd, errs, ok := az.src.Round()
	for _, r := range rows {
		if r != nil {
			r.Commands, r.Errors, r.Faults = 0, 0, 0
		}
	}
	if !ok || rd == nil {
		return
	}
	if len(az.ovSet) != len(cur.Cells) {
		az.ovSet = make([]bool, len(cur.Cells))
		az.ovB = make([]colorfight2.Building, len(cur.Cells))
		az.ovL = make([]int64, len(cur.Cells))
	}
	for len(az.rej) < len(rd.Commands) {
		az.rej = append(az.rej, nil)
	}
	for i, cs := range rd.Commands {
		rj := az.rej[i][:0]
		for range cs {
			rj = append(rj, false)
		}
		az.rej[i] = rj
		if uid := i + 1; uid < len(rows) && rows[uid] != nil {
			rows[uid].Commands = int64(len(cs))
		}
	}
	for _, e := range errs {
		if e.UID >= 1 && e.UID < len(rows) && rows[e.UID] != nil {
			rows[e.UID].Errors++
			if e.Code == colorfight2.ErrBotFault {
				rows[e.UID].Faults++
			}
		}
		if e.UID >= 1 && e.UID <= len(rd.Commands) && e.Index >= 0 && e.Index < len(az.rej[e.UID-1]) {
			az.rej[e.UID-1][e.Index] = true
		}
	}
	w, h := cur.Width, cur.Height
	for i, cs := range rd.Commands {
		uid := i + 1
		if uid >= len(rows) || rows[uid] == nil {
			continue
		}
		r := rows[uid]
		for j, c := range cs {
			if az.rej[i][j] || c.Kind == colorfight2.CmdInvalid || c.X < 0 || c.Y < 0 || c.X >= w || c.Y >= h {
				continue
			}
			k := c.Y*w + c.X
			switch c.Kind {
			case colorfight2.CmdAttack:
				r.AttackEnergy += c.Energy
				if int(cur.Cells[k].Owner) == uid && int(prev.Cells[k].Owner) != uid {
					r.CaptureEnergy += c.Energy
				} else {
					r.WastedEnergy += c.Energy
				}
			case colorfight2.CmdBuild:
				if c.Building == colorfight2.BuildingNone || c.Building >= colorfight2.NumBuildings {
					continue
				}
				r.GoldSpent += colorfight2.BuildCost(c.Building)
				az.overlay(k, c.Building, 1)
			case colorfight2.CmdUpgrade:
				b, l := prev.Cells[k].Building, prev.Cells[k].Level
				if az.ovSet[k] {
					b, l = az.ovB[k], az.ovL[k]
				}
				if b == colorfight2.BuildingNone || b >= colorfight2.NumBuildings || l < 1 || l >= 3 {
					continue
				}
				g, e := colorfight2.UpgradeCost(b, l)
				r.GoldSpent += g
				r.UpgradeEnergy += e
				az.overlay(k, b, l+1)
			}
		}
	}
}

func (az *analyzer) overlay(k int, b colorfight2.Building, l int64) {
	if !az.ovSet[k] {
		az.ovSet[k] = true
		az.touched = append(az.touched, k)
	}
	az.ovB[k], az.ovL[k] = b, l
}

func (az *analyzer) finish() {
	a := az.a
	for _, p := range az.byUID {
		if p != nil {
			a.Players = append(a.Players, p)
		}
	}
	for _, p := range a.Players {
		st := Standing{UID: p.UID, Username: p.Username, Bot: p.Bot, PeakCells: p.PeakCells, PeakTurn: p.PeakTurn, DiedTurn: p.DiedTurn}
		if a.HasCommands {
			st.CaptureEnergy, st.WastedEnergy = 0, 0
		} else {
			st.CaptureEnergy, st.WastedEnergy, st.Commands, st.Errors = -1, -1, -1, -1
		}
		for i := range p.Series {
			r := &p.Series[i]
			st.Captured += r.Captured
			st.Lost += r.Lost
			st.GoldSpent += r.GoldSpent
			st.StolenIn += r.StolenIn
			st.StolenOut += r.StolenOut
			st.Refund += r.Refund
			st.MineBonus += r.MineBonus
			st.AttackEnergy += r.AttackEnergy
			if a.HasCommands {
				st.CaptureEnergy += r.CaptureEnergy
				st.WastedEnergy += r.WastedEnergy
				st.Commands += r.Commands
				st.Errors += r.Errors
			}
		}
		if len(p.Series) > 0 {
			last := p.Series[len(p.Series)-1]
			st.Gold, st.Cells, st.Energy, st.TechLevel, st.Dead = last.Gold, last.Cells, last.Energy, last.TechLevel, last.Dead
		}
		a.Summary.Ranking = append(a.Summary.Ranking, st)
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
			lead := satSum(g, -best)
			if d := satSum(lead, -prev); t > 1 && (a.Summary.SwingTurn == 0 || abs64(d) > abs64(a.Summary.SwingGold)) {
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

// satSum adds the values, saturating at the int64 range instead of
// wrapping: a hostile replay's extreme gold gives an extreme, not a
// sign-flipped, unexplained amount. (-math.MinInt64 wraps too: callers
// negate values that come from int64 fields bounded far inside the range,
// except the hostile case, where the result saturates the same way.)
func satSum(vs ...int64) int64 {
	var s int64
	for _, v := range vs {
		if v > 0 && s > math.MaxInt64-v {
			s = math.MaxInt64
		} else if v < 0 && s < math.MinInt64-v {
			s = math.MinInt64
		} else {
			s += v
		}
	}
	return s
}
