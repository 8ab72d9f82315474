package rules

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/rewind-game/rewind/engine"
	"github.com/rewind-game/rewind/internal/satint"
)

// Account is one player's figures for one round, as Accounts computes them
// from the frames before and after it (and the round's commands when they
// are known). For each entry of AccountMetrics it holds, under that name,
// the value after the round for a gauge and the round's amount for an
// amount (engine.Amount; Figure returns it by index).
//
// Gold accounting: for every player and round
//
//	Gold = gold(t-1) + GoldSource - Tax - GoldSpent + StolenIn - StolenOut + Refund + MineBonus + GoldUnexplained
//
// where gold(t-1) is the player's gold in the frame before.
type Account struct {
	Gold         int64
	Energy       int64
	GoldSource   int64
	EnergySource int64
	Tax          int64
	Cells        int64
	TechLevel    int64
	Dead         bool
	// Faults counts the round's commands standing for a bot that failed
	// to answer (ErrBotFault: a timeout, a crash, malformed output, a
	// missed lock-step round): 0 or 1 a round, -1 without commands. (An
	// int32 beside Dead, so an Account is no bigger.)
	Faults int32
	// Buildings counts by type as the frame reports them (building_number),
	// indexed by Building like FrameUser.Buildings: Home..Fortress, with
	// index 0 (BuildingNone) always 0.
	Buildings [NumBuildings]int64
	// Levels[type][level-1] counts the player's cells holding that building
	// at that level in the frame (type indexed as Buildings).
	Levels [NumBuildings][3]int64

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
	// energy paid for home upgrades. With commands they are the accepted
	// builds and upgrades; without, they are derived from the building
	// changes between the frames.
	GoldSpent     int64
	UpgradeEnergy int64
	// StolenIn is gold taken from others' homes, StolenOut gold taken from
	// the player's home; Refund is gold received when the player's
	// mine, well or fortress was taken; MineBonus is gold received for
	// capturing others' gold mines. They replay the rules' taken effects
	// in the engine's column-major cell scan order.
	StolenIn  int64
	StolenOut int64
	Refund    int64
	MineBonus int64
	// GoldUnexplained is what the gold accounting above leaves over:
	// always 0 with commands; without them, the effect of buildings built
	// or upgraded and captured in the same round, which frames cannot show
	// (e.g. -100 for a mine built and lost, +100 for capturing it). The
	// sum saturates at the int64 range instead of wrapping.
	GoldUnexplained int64

	// AttackEnergy is the energy spent on attacks: with commands the sum
	// of the player's accepted attack energies, otherwise the energy the
	// accounting leaves unexplained, energy(t-1) + EnergySource - Tax -
	// UpgradeEnergy - Energy (both agree on every reference game).
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
func (a *Account) CapturedFrom(uid int) int64 {
	for _, e := range a.Exchanges {
		if int(e.UID) == uid {
			return int64(e.From)
		}
	}
	return 0
}

// LostTo returns the cells the player lost to uid this round.
func (a *Account) LostTo(uid int) int64 {
	for _, e := range a.Exchanges {
		if int(e.UID) == uid {
			return int64(e.To)
		}
	}
	return 0
}

// ExchangeMetrics describes the per-party figures of an Account in a game
// of uids 1..maxUID, in this order: captured_from_K for K = 0..maxUID
// (CapturedFrom: cells taken from uid K this round, K = 0 unowned cells),
// then lost_to_K for K = 1..maxUID (LostTo). All are amounts in cells
// (engine.Amount); AppendExchanges gives them. It is the one naming of
// these figures (the analysis's series columns and the seam's metrics).
func ExchangeMetrics(maxUID int) []engine.Metric {
	maxUID = max(maxUID, 0)
	ms := make([]engine.Metric, 0, 2*maxUID+1)
	for k := 0; k <= maxUID; k++ {
		ms = append(ms, engine.Metric{Name: "captured_from_" + strconv.Itoa(k), Unit: "cells", Kind: engine.Amount})
	}
	for k := 1; k <= maxUID; k++ {
		ms = append(ms, engine.Metric{Name: "lost_to_" + strconv.Itoa(k), Unit: "cells", Kind: engine.Amount})
	}
	return ms
}

// AppendExchanges appends the figures ExchangeMetrics(maxUID) describes,
// in its order, to dst and returns it: CapturedFrom(K) for K =
// 0..maxUID, then LostTo(K) for K = 1..maxUID. A party above maxUID is
// left out.
func (a *Account) AppendExchanges(dst []int64, maxUID int) []int64 {
	maxUID = max(maxUID, 0)
	k := len(dst)
	dst = slices.Grow(dst, 2*maxUID+1)[:k+2*maxUID+1]
	clear(dst[k:])
	for _, e := range a.Exchanges {
		if u := int(e.UID); u >= 0 && u <= maxUID {
			dst[k+u] = int64(e.From)
			if u >= 1 {
				dst[k+maxUID+u] = int64(e.To)
			}
		}
	}
	return dst
}

// Indexes of AccountMetrics (and Figure): the fixed figures, then one per
// building type (Home..Fortress), then one per building type and level,
// then the round's amounts.
const (
	figGold = iota
	figEnergy
	figGoldSource
	figEnergySource
	figTax
	figCells
	figTechLevel
	figDead
	figBuildings // + type - Home
)

// figLevels + (type-Home)*3 + level-1 is a count by building and level.
const figLevels = figBuildings + int(NumBuildings-Home)

const (
	figCaptured = figLevels + 3*int(NumBuildings-Home) + iota // the round's amounts
	figLost
	figGoldSpent
	figUpgradeEnergy
	figStolenIn
	figStolenOut
	figRefund
	figMineBonus
	figGoldUnexplained
	figAttackEnergy
	figCaptureEnergy
	figWastedEnergy
	figCommands
	figErrors
	figFaults
	numFigures
)

// AccountMetrics describes, in order, the figures of an Account (Figure):
// gold, energy, gold_source, energy_source, tax, cells, tech_level, dead
// (1 or 0), the building counts named by Building.Key ("home" …
// "fortress"), the counts by building and level ("home_l1" …
// "fortress_l3"), then the round's captured, lost, gold_spent,
// upgrade_energy, stolen_in, stolen_out, refund, mine_bonus,
// gold_unexplained, attack_energy, capture_energy, wasted_energy,
// commands, errors and faults. Those are amounts (engine.Amount): a
// round's figure is what the round added, and the total over the game is
// the sum of its Account figures (Accounts.Total). gold_unexplained is a
// gauge: each round's stands alone, and it may be negative.
// capture_energy, wasted_energy, commands, errors and faults need the
// round's commands (engine.Metric.FromCommands): without them they are
// -1, unknown. The per-party exchanges (Account.Exchanges) are
// ExchangeMetrics, whose number depends on the players'. It is the one
// declaration of these figures: the ruleset's Metrics are six of them
// (gold, energy, cells, gold_source, energy_source, tech_level: what
// Game.Values reports), its engine.Accounting's AccountMetrics the rest
// and the exchanges. The slice must not be modified.
var AccountMetrics = accountMetrics()

func accountMetrics() []engine.Metric {
	ms := []engine.Metric{
		{Name: "gold", Unit: "gold", Kind: engine.Gauge, Swings: true},
		{Name: "energy", Unit: "energy", Kind: engine.Gauge},
		{Name: "gold_source", Unit: "gold", Kind: engine.Gauge},
		{Name: "energy_source", Unit: "energy", Kind: engine.Gauge},
		{Name: "tax", Unit: "gold", Kind: engine.Gauge},
		{Name: "cells", Unit: "cells", Kind: engine.Gauge},
		{Name: "tech_level", Unit: "level", Kind: engine.Gauge},
		{Name: "dead", Unit: "flag", Kind: engine.Gauge},
	}
	for b := Home; b < NumBuildings; b++ {
		ms = append(ms, engine.Metric{Name: b.Key(), Unit: "buildings", Kind: engine.Gauge})
	}
	for b := Home; b < NumBuildings; b++ {
		for l := 1; l <= 3; l++ {
			ms = append(ms, engine.Metric{Name: b.Key() + "_l" + strconv.Itoa(l), Unit: "buildings", Kind: engine.Gauge})
		}
	}
	return append(ms,
		engine.Metric{Name: "captured", Unit: "cells", Kind: engine.Amount, Explain: "+captured %d cells"},
		engine.Metric{Name: "lost", Unit: "cells", Kind: engine.Amount, Explain: "+lost %d"},
		engine.Metric{Name: "gold_spent", Unit: "gold", Kind: engine.Amount,
			Surge:   engine.Surge{Event: "build_surge", On: "buildings and upgrades", Title: "building surges", Floor: 10000},
			Explain: "spent %d gold on buildings and upgrades"},
		engine.Metric{Name: "upgrade_energy", Unit: "energy", Kind: engine.Amount},
		engine.Metric{Name: "stolen_in", Unit: "gold", Kind: engine.Amount, Explain: "stole %d gold"},
		engine.Metric{Name: "stolen_out", Unit: "gold", Kind: engine.Amount},
		engine.Metric{Name: "refund", Unit: "gold", Kind: engine.Amount},
		engine.Metric{Name: "mine_bonus", Unit: "gold", Kind: engine.Amount},
		engine.Metric{Name: "gold_unexplained", Unit: "gold", Kind: engine.Gauge},
		engine.Metric{Name: "attack_energy", Unit: "energy", Kind: engine.Amount,
			Surge:   engine.Surge{Event: "attack_surge", On: "attacks", Title: "attack surges", Floor: 20000},
			Explain: "%d energy on attacks"},
		engine.Metric{Name: "capture_energy", Unit: "energy", Kind: engine.Amount, FromCommands: true},
		engine.Metric{Name: "wasted_energy", Unit: "energy", Kind: engine.Amount, FromCommands: true},
		engine.Metric{Name: "commands", Unit: "commands", Kind: engine.Amount, FromCommands: true},
		engine.Metric{Name: "errors", Unit: "commands", Kind: engine.Amount, FromCommands: true},
		engine.Metric{Name: "faults", Unit: "rounds", Kind: engine.Amount, FromCommands: true},
	)
}

// Figure returns figure i of AccountMetrics (0 for an index out of range).
func (a *Account) Figure(i int) int64 {
	switch {
	case i >= figBuildings && i < figLevels:
		return a.Buildings[Home+Building(i-figBuildings)]
	case i >= figLevels && i < figCaptured:
		k := i - figLevels
		return a.Levels[Home+Building(k/3)][k%3]
	}
	switch i {
	case figGold:
		return a.Gold
	case figEnergy:
		return a.Energy
	case figGoldSource:
		return a.GoldSource
	case figEnergySource:
		return a.EnergySource
	case figTax:
		return a.Tax
	case figCells:
		return a.Cells
	case figTechLevel:
		return a.TechLevel
	case figDead:
		if a.Dead {
			return 1
		}
		return 0
	case figCaptured:
		return a.Captured
	case figLost:
		return a.Lost
	case figGoldSpent:
		return a.GoldSpent
	case figUpgradeEnergy:
		return a.UpgradeEnergy
	case figStolenIn:
		return a.StolenIn
	case figStolenOut:
		return a.StolenOut
	case figRefund:
		return a.Refund
	case figMineBonus:
		return a.MineBonus
	case figGoldUnexplained:
		return a.GoldUnexplained
	case figAttackEnergy:
		return a.AttackEnergy
	case figCaptureEnergy:
		return a.CaptureEnergy
	case figWastedEnergy:
		return a.WastedEnergy
	case figCommands:
		return a.Commands
	case figErrors:
		return a.Errors
	case figFaults:
		return int64(a.Faults)
	}
	return 0
}

// Steal is a home captured in a round: player From lost it to By, and
// with it Gold (a third of From's gold at that point of the cell scan).
type Steal struct {
	From, By int
	Gold     int64
}

// ErrAccountFrame reports frames Accounts cannot compare: a user's uid
// out of range, or cells that do not match the frames' sizes.
var ErrAccountFrame = errors.New("colorfight2: frames cannot be accounted")

// Accounts computes ColorfightII's per-player figures (Account) round by
// round from consecutive frames, with or without the rounds' commands.
//
// A player has an account from the first frame whose users list it on:
// in that round (its registration round) it starts from gold 0 and energy
// 1000, and its home is neither a capture nor a build. A player that
// later vanishes from the users list keeps its last gold and energy and
// is dead. Cells owned by a uid no users list has named count for no one.
//
// The accounting is exact unless a building was built or upgraded and
// then captured or removed in the same round, which frames cannot show
// (GoldUnexplained, without commands; with commands there is no such
// case). Accounts does no I/O and allocates only as the players, the map
// and the exchanges grow. It is not safe for concurrent use.
type Accounts struct {
	maxUID   int
	commands bool

	has   []bool    // uid has an account
	acc   []Account // this round's, by uid
	tot   []Account // amounts summed over every round, by uid
	prevU []*FrameUser
	curU  []*FrameUser
	gold  []int64 // running gold in the taken-effects replay, by uid
	rej   [][]bool
	// ex[o*exN+po] counts the cells o took from po this round; exPairs
	// lists the pairs counted, exTmp is scratch for one player's entries.
	ex      []int32
	exN     int
	exPairs [][2]int
	exTmp   [][]Exchange
	exSlab  []Exchange
	// Building state after the command step, for cells builds or
	// upgrades touched this round (with commands only).
	ovSet   []bool
	ovB     []Building
	ovL     []int64
	touched []int
	steals  []Steal
	evs     []eventState // by uid
	events  []AccountEvent
}

// NewAccounts returns Accounts for players with uids 1..maxUID (the
// caller's bound on memory: per-opponent counts are maxUID² at most).
// commands says whether the rounds' commands will be given to Round (a
// recording): without them, CaptureEnergy, WastedEnergy, Commands, Errors
// and Faults are -1 and spending is derived from the frames.
func NewAccounts(maxUID int, commands bool) *Accounts {
	return &Accounts{maxUID: maxUID, commands: commands}
}

// exSlabSize is how many Exchange entries one slab holds.
const exSlabSize = 4096

// Round accounts for the round that led from frame prev to frame cur,
// which must have the same size. cmds[uid-1] are the commands applied for
// player uid and errs the errors they drew (as State.Errors reports them);
// with commands (NewAccounts), nil for both stands for a round whose
// commands are unknown: no commands, no errors. Without commands they are
// ignored. Round returns an error wrapping ErrAccountFrame, and accounts
// for nothing, when a user's uid is outside 1..maxUID or the frames' cells
// do not match their sizes. After it, Account, Steals and Events describe
// the round.
func (a *Accounts) Round(prev, cur *Frame, cmds [][]Command, errs []CommandError) error {
	if cur.Width < 0 || cur.Height < 0 || len(cur.Cells) != cur.Width*cur.Height ||
		len(prev.Cells) != len(cur.Cells) || prev.Width != cur.Width {
		return fmt.Errorf("%w: %dx%d frame of %d cells after %dx%d of %d", ErrAccountFrame,
			cur.Width, cur.Height, len(cur.Cells), prev.Width, prev.Height, len(prev.Cells))
	}
	for i := range cur.Users {
		if uid := cur.Users[i].UID; uid < 1 || uid > int64(a.maxUID) {
			return fmt.Errorf("%w: uid %d is out of range 1..%d", ErrAccountFrame, uid, a.maxUID)
		}
	}
	n := len(a.has)
	for i := range cur.Users {
		n = max(n, int(cur.Users[i].UID)+1)
	}
	a.has, a.acc, a.tot, a.gold = grow(a.has, n), grow(a.acc, n), grow(a.tot, n), grow(a.gold, n)
	a.evs = grow(a.evs, n)
	for i := range cur.Users {
		a.has[cur.Users[i].UID] = true
	}
	a.prevU = grow(a.prevU, n)
	a.curU = grow(a.curU, n)
	for i := range prev.Users {
		if uid := int(prev.Users[i].UID); uid >= 1 && uid < n {
			a.prevU[uid] = &prev.Users[i]
		}
	}
	for i := range cur.Users {
		a.curU[int(cur.Users[i].UID)] = &cur.Users[i]
	}
	a.steals = a.steals[:0]
	for uid := range a.acc {
		if !a.has[uid] {
			continue
		}
		r, es := &a.acc[uid], &a.evs[uid]
		lastGold, lastEnergy := r.Gold, r.Energy
		es.wasCells, es.wasTech, es.wasDead = r.Cells, r.TechLevel, r.Dead
		*r = Account{}
		if u := a.curU[uid]; u != nil {
			r.Gold, r.Energy, r.GoldSource, r.EnergySource = u.Gold, u.Energy, u.GoldSource, u.EnergySource
			r.Tax, r.Cells, r.TechLevel, r.Dead = u.TaxAmount, u.CellNumber, u.TechLevel, u.Dead
			r.Buildings = u.Buildings
			r.Buildings[BuildingNone] = 0
		} else {
			// Vanished from the users list: keep last values.
			r.Gold, r.Energy, r.Dead = lastGold, lastEnergy, true
		}
		if !a.commands {
			r.CaptureEnergy, r.WastedEnergy, r.Commands, r.Errors, r.Faults = -1, -1, -1, -1, -1
		}
	}
	if a.exN < n {
		a.ex, a.exN = make([]int32, n*n), n
	}

	a.cells(prev, cur)
	a.exchanges()
	if a.commands {
		a.applied(prev, cur, cmds, errs)
	}
	a.taken(prev, cur)

	// Energy and gold left unexplained, and the running totals.
	for uid := range a.acc {
		if !a.has[uid] {
			continue
		}
		r, pu := &a.acc[uid], a.prevU[uid]
		if pu != nil && a.curU[uid] != nil {
			if !a.commands {
				r.AttackEnergy = pu.Energy + r.EnergySource - r.Tax - r.UpgradeEnergy - r.Energy
			}
			want := satint.Sum(pu.Gold, r.GoldSource, -r.Tax, -r.GoldSpent, r.StolenIn, -r.StolenOut, r.Refund, r.MineBonus)
			r.GoldUnexplained = satint.Sum(r.Gold, -want)
		}
		t := &a.tot[uid]
		t.Captured += r.Captured
		t.Lost += r.Lost
		t.GoldSpent += r.GoldSpent
		t.UpgradeEnergy += r.UpgradeEnergy
		t.StolenIn += r.StolenIn
		t.StolenOut += r.StolenOut
		t.Refund += r.Refund
		t.MineBonus += r.MineBonus
		t.AttackEnergy += r.AttackEnergy
		t.CaptureEnergy += r.CaptureEnergy
		t.WastedEnergy += r.WastedEnergy
		t.Commands += r.Commands
		t.Errors += r.Errors
		t.Faults += r.Faults
	}
	a.findEvents()
	clear(a.prevU)
	clear(a.curU)
	for _, i := range a.touched {
		a.ovSet[i] = false
	}
	a.touched = a.touched[:0]
	return nil
}

// Account returns player uid's figures for the last round accounted, nil
// when uid has no account (no users list has named it yet). It is valid
// until the next Round; its Exchanges stay valid and unchanged for good.
func (a *Accounts) Account(uid int) *Account {
	if uid < 0 || uid >= len(a.has) || !a.has[uid] {
		return nil
	}
	return &a.acc[uid]
}

// Steals returns the homes captured in the last round accounted, in the
// engine's cell scan order. It is valid until the next Round.
func (a *Accounts) Steals() []Steal { return a.steals }

// Total returns player uid's figures over every round accounted: the
// gauges of AccountMetrics as of the last round, the amounts summed over
// the rounds (without commands CaptureEnergy, WastedEnergy, Commands,
// Errors and Faults are -1), Exchanges nil. ok is false when uid has no
// account.
func (a *Accounts) Total(uid int) (t Account, ok bool) {
	r := a.Account(uid)
	if r == nil {
		return Account{}, false
	}
	t = a.tot[uid]
	t.Gold, t.Energy, t.GoldSource, t.EnergySource = r.Gold, r.Energy, r.GoldSource, r.EnergySource
	t.Tax, t.Cells, t.TechLevel, t.Dead = r.Tax, r.Cells, r.TechLevel, r.Dead
	t.Buildings, t.Levels, t.GoldUnexplained = r.Buildings, r.Levels, r.GoldUnexplained
	if !a.commands {
		t.CaptureEnergy, t.WastedEnergy, t.Commands, t.Errors, t.Faults = -1, -1, -1, -1, -1
	}
	return t, true
}

// cells counts levels and captures and, without commands, derives the
// spending from the building changes.
func (a *Accounts) cells(prev, cur *Frame) {
	n := len(a.has)
	for i := range cur.Cells {
		c, pc := &cur.Cells[i], &prev.Cells[i]
		o := int(c.Owner)
		if o <= 0 || o >= n || !a.has[o] {
			continue
		}
		r := &a.acc[o]
		if c.Building != BuildingNone && c.Building < NumBuildings && c.Level >= 1 && c.Level <= 3 {
			r.Levels[c.Building][c.Level-1]++
		}
		if a.prevU[o] == nil { // registration round
			continue
		}
		po := int(pc.Owner)
		if po != o {
			r.Captured++
			if po >= 0 && po < n {
				if k := o*a.exN + po; a.ex[k] == 0 {
					a.exPairs = append(a.exPairs, [2]int{o, po})
					a.ex[k] = 1
				} else {
					a.ex[k]++
				}
				if po > 0 && a.has[po] {
					a.acc[po].Lost++
				}
			}
		}
		if a.commands || c.Building == BuildingNone || c.Building >= NumBuildings || c.Level < 1 || c.Level > 3 {
			continue
		}
		bt := c.Building
		from := int64(1)
		if po == o && pc.Building == c.Building {
			from = pc.Level
		} else {
			r.GoldSpent += BuildCost(bt)
		}
		for l := from; l < c.Level; l++ {
			g, e := UpgradeCost(bt, l)
			r.GoldSpent += g
			r.UpgradeEnergy += e
		}
	}
}

// exchanges turns the pairs counted this round into each player's
// Exchanges (by ascending uid of the other party) and clears the counts.
func (a *Accounts) exchanges() {
	if len(a.exPairs) == 0 {
		return
	}
	a.exTmp = grow(a.exTmp, len(a.has))
	add := func(uid, other int, from, to int32) {
		l := a.exTmp[uid]
		for i := range l {
			if int(l[i].UID) == other {
				l[i].From += from
				l[i].To += to
				return
			}
		}
		a.exTmp[uid] = append(l, Exchange{UID: int32(other), From: from, To: to})
	}
	for _, pr := range a.exPairs {
		o, po := pr[0], pr[1]
		k := o*a.exN + po
		c := a.ex[k]
		a.ex[k] = 0
		add(o, po, c, 0)
		if po > 0 && a.has[po] {
			add(po, o, 0, c)
		}
	}
	a.exPairs = a.exPairs[:0]
	for uid, l := range a.exTmp {
		if len(l) == 0 {
			continue
		}
		slices.SortFunc(l, func(x, y Exchange) int { return cmp.Compare(x.UID, y.UID) })
		if a.has[uid] {
			// Accounts' entries are carved from shared slabs: one
			// allocation for many rounds, never written again, so a
			// copy of an Account keeps its Exchanges.
			if cap(a.exSlab)-len(a.exSlab) < len(l) {
				a.exSlab = make([]Exchange, 0, max(exSlabSize, len(l)))
			}
			k := len(a.exSlab)
			a.exSlab = append(a.exSlab, l...)
			a.acc[uid].Exchanges = a.exSlab[k : k+len(l) : k+len(l)]
		}
		a.exTmp[uid] = l[:0]
	}
}

// applied fills the command counts, attack energies, and the exact build
// and upgrade spending from the accepted commands, recording the building
// state after the command step in the overlay.
func (a *Accounts) applied(prev, cur *Frame, cmds [][]Command, errs []CommandError) {
	n := len(a.has)
	for uid := range a.acc {
		if a.has[uid] {
			a.acc[uid].Commands, a.acc[uid].Errors, a.acc[uid].Faults = 0, 0, 0
		}
	}
	if len(a.ovSet) != len(cur.Cells) {
		a.ovSet = make([]bool, len(cur.Cells))
		a.ovB = make([]Building, len(cur.Cells))
		a.ovL = make([]int64, len(cur.Cells))
	}
	for len(a.rej) < len(cmds) {
		a.rej = append(a.rej, nil)
	}
	for i, cs := range cmds {
		rj := a.rej[i][:0]
		for range cs {
			rj = append(rj, false)
		}
		a.rej[i] = rj
		if uid := i + 1; uid < n && a.has[uid] {
			a.acc[uid].Commands = int64(len(cs))
		}
	}
	for _, e := range errs {
		if e.UID >= 1 && e.UID < n && a.has[e.UID] {
			a.acc[e.UID].Errors++
			if e.Code == ErrBotFault {
				a.acc[e.UID].Faults++
			}
		}
		if e.UID >= 1 && e.UID <= len(cmds) && e.Index >= 0 && e.Index < len(a.rej[e.UID-1]) {
			a.rej[e.UID-1][e.Index] = true
		}
	}
	w, h := cur.Width, cur.Height
	for i, cs := range cmds {
		uid := i + 1
		if uid >= n || !a.has[uid] {
			continue
		}
		r := &a.acc[uid]
		for j, c := range cs {
			if a.rej[i][j] || c.Kind == CmdInvalid || c.X < 0 || c.Y < 0 || c.X >= w || c.Y >= h {
				continue
			}
			k := c.Y*w + c.X
			switch c.Kind {
			case CmdAttack:
				r.AttackEnergy += c.Energy
				if int(cur.Cells[k].Owner) == uid && int(prev.Cells[k].Owner) != uid {
					r.CaptureEnergy += c.Energy
				} else {
					r.WastedEnergy += c.Energy
				}
			case CmdBuild:
				if c.Building == BuildingNone || c.Building >= NumBuildings {
					continue
				}
				r.GoldSpent += BuildCost(c.Building)
				a.overlay(k, c.Building, 1)
			case CmdUpgrade:
				b, l := prev.Cells[k].Building, prev.Cells[k].Level
				if a.ovSet[k] {
					b, l = a.ovB[k], a.ovL[k]
				}
				if b == BuildingNone || b >= NumBuildings || l < 1 || l >= 3 {
					continue
				}
				g, e := UpgradeCost(b, l)
				r.GoldSpent += g
				r.UpgradeEnergy += e
				a.overlay(k, b, l+1)
			}
		}
	}
}

func (a *Accounts) overlay(k int, b Building, l int64) {
	if !a.ovSet[k] {
		a.ovSet[k] = true
		a.touched = append(a.touched, k)
	}
	a.ovB[k], a.ovL[k] = b, l
}

// taken replays the rules' taken effects (homes' gold stolen, refunds,
// the mine bonus) in the engine's column-major cell scan order, on each
// player's gold before the round less its spending.
func (a *Accounts) taken(prev, cur *Frame) {
	n := len(a.has)
	for uid := range a.gold {
		a.gold[uid] = 0
		if u := a.prevU[uid]; u != nil {
			a.gold[uid] = u.Gold
		}
		if a.has[uid] {
			a.gold[uid] -= a.acc[uid].GoldSpent
		}
	}
	w, h := cur.Width, cur.Height
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			i := y*w + x
			c, pc := &cur.Cells[i], &prev.Cells[i]
			po, o := int(pc.Owner), int(c.Owner)
			if po == o || po <= 0 || o <= 0 || po >= n || o >= n || !a.has[po] || !a.has[o] || a.prevU[o] == nil {
				continue
			}
			bld, lv := pc.Building, pc.Level
			if a.ovSet != nil && a.ovSet[i] {
				bld, lv = a.ovB[i], a.ovL[i]
			}
			if lv < 1 || lv > 3 {
				continue
			}
			v := TakenValue(lv)
			switch bld {
			case Home:
				stolen := a.gold[po] / 3
				a.gold[po] -= stolen
				a.gold[o] += stolen
				a.acc[po].StolenOut += stolen
				a.acc[o].StolenIn += stolen
				a.steals = append(a.steals, Steal{From: po, By: o, Gold: stolen})
			case GoldMine:
				a.gold[o] += v
				a.gold[po] += v
				a.acc[o].MineBonus += v
				a.acc[po].Refund += v
			case EnergyWell, Fortress:
				a.gold[po] += v
				a.acc[po].Refund += v
			}
		}
	}
}

// grow returns s with at least n elements, the new ones zero.
func grow[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}
