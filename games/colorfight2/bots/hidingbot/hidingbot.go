// Package hidingbot is a ColorfightII player for tests, not offered to
// users: it makes as many of the actions an official replay's frames hide
// as the rules allow (docs/import.md, "What a round shows, and what it
// hides"), so that the inference of rewind import and audit meets them.
//
// It cheats, which a test may: it sees the state and the commands the
// other players chose for the round, plays the round ahead, and then builds
// and upgrades on the very cells it is about to lose, upgrades and rebuilds
// a Home that is about to fall (its other buildings go with it), spends
// its gold and energy to (nearly) zero and attacks in every way that leaves
// no trace (failed attacks, ties, attacks on its own cells). Every command
// it sends is legal, so every game it plays is one the rules produce.
//
// Game plays a whole game of hiders and built-in bots and writes it as an
// official .cfr, the way the reference server writes one.
package hidingbot

import (
	"fmt"
	"io"
	"strings"

	"github.com/rewind-game/rewind/engine/rng"
	bot "github.com/rewind-game/rewind/games/colorfight2/bots"
	"github.com/rewind-game/rewind/games/colorfight2/formats/cfr"
	colorfight2 "github.com/rewind-game/rewind/games/colorfight2/rules"
	"github.com/rewind-game/rewind/replay"
)

// Hider is one hiding player. Its zero value is not usable: use New.
type Hider struct {
	uid  int
	r    *rng.Source
	sim  colorfight2.State
	f, g colorfight2.Frame
	// inner is the built-in whose attacks it mostly makes
	inner bot.Bot
	// hunter: it saves its energy to take another hider's Home
	hunter bool
	// the attack phase's choices, for Hide
	attacks []colorfight2.Command
	homeUp  bool
	// Stats counts what it tried to hide (as the round played ahead
	// foresaw; a build it adds can change the outcome).
	Stats Stats
}

// Stats counts a hider's hidden actions.
type Stats struct {
	// Builds and Upgrades on cells about to be captured.
	Builds, Upgrades int
	// HomeFalls: rounds its Home fell; HomeUpgrades: upgrades of a Home
	// about to fall; Removed: builds and upgrades on kept cells in such a
	// round (the lost-homes step removes them); HomeRebuilt: Homes built
	// on a cell about to be captured.
	HomeFalls, HomeUpgrades, Removed, HomeRebuilt int
	// Failed counts its commands the rules refused (Game fills it in).
	Failed int
}

// Add adds o to s.
func (s *Stats) Add(o Stats) {
	s.Builds += o.Builds
	s.Upgrades += o.Upgrades
	s.HomeFalls += o.HomeFalls
	s.HomeUpgrades += o.HomeUpgrades
	s.Removed += o.Removed
	s.HomeRebuilt += o.HomeRebuilt
	s.Failed += o.Failed
}

// New returns the hider playing uid, deterministic given seed. Most of its
// attacks are those the built-in named inner would make ("" for none).
func New(uid int, seed uint64, inner string) (*Hider, error) {
	h := &Hider{uid: uid, r: rng.New(seed)}
	h.hunter = h.r.Intn(2) == 0
	if inner != "" {
		b, err := bot.Builtin(inner)
		if err != nil {
			return nil, err
		}
		if err := b.Start(uid, seed); err != nil {
			return nil, err
		}
		h.inner = b
	}
	return h, nil
}

var types = [...]colorfight2.Building{colorfight2.GoldMine, colorfight2.EnergyWell, colorfight2.Fortress}

// Commands returns the hider's commands for the round played from st,
// given the commands the other players chose (indexed by uid-1; the
// hider's own entry is ignored): Attacks, then Hide. st is not modified.
func (h *Hider) Commands(st *colorfight2.State, chosen [][]colorfight2.Command) []colorfight2.Command {
	all := make([][]colorfight2.Command, len(chosen))
	copy(all, chosen)
	all[h.uid-1] = h.Attacks(st, chosen)
	return h.Hide(st, all)
}

// self is the hider in its frame h.f, nil when it is not there or dead.
func (h *Hider) self() *colorfight2.FrameUser {
	var me *colorfight2.FrameUser
	for k := range h.f.Users {
		if int(h.f.Users[k].UID) == h.uid {
			me = &h.f.Users[k]
		}
	}
	if me == nil || me.Dead {
		return nil
	}
	return me
}

// Attacks chooses the hider's attacks for the round played from st, given
// the commands others chose so far (it may tie with them). Several hiders
// choose their attacks first, then each hides knowing them all (Hide).
func (h *Hider) Attacks(st *colorfight2.State, chosen [][]colorfight2.Command) []colorfight2.Command {
	h.attacks = h.attacks[:0]
	h.homeUp = false
	f := &h.f
	st.Frame(f)
	w, hh := f.Width, f.Height
	me := h.self()
	if me == nil {
		return nil
	}
	energy, gold := me.Energy, me.Gold
	uid := int64(h.uid)
	owns := func(i int) bool { return f.Cells[i].Owner == uid }
	adjacent := func(i int) bool {
		x, y := i%w, i/w
		return (y > 0 && owns(i-w)) || (y < hh-1 && owns(i+w)) || (x > 0 && owns(i-1)) || (x < w-1 && owns(i+1))
	}
	var mine, targets []int
	home := -1
	for i := range f.Cells {
		if owns(i) {
			mine = append(mine, i)
			if f.Cells[i].Building == colorfight2.Home {
				home = i
			}
		}
		if adjacent(i) {
			targets = append(targets, i)
		}
	}
	at := func(i int) (int, int) { return i % w, i / w }

	// Attacks, with the energy left after a Home upgrade it may make. One
	// round in three, in stretches, it is exposed: it keeps only what the
	// upgrade needs and spends the rest, so its Home stores little and
	// falls easily — with everything it builds in the round.
	_ = mine
	exposed := (f.Turn/10)%3 == 2
	// It saves the energy of its Home's next level while it has the gold.
	homeUp := false
	budget := energy
	if home >= 0 && f.Cells[home].Level < 3 {
		upG, upE := colorfight2.UpgradeCost(colorfight2.Home, f.Cells[home].Level)
		if gold >= upG {
			budget = max(0, energy-upE)
			homeUp = energy >= upE
		}
	}
	h.homeUp = homeUp
	attacks := h.attacks
	// Enemy cells first: captures make the losses others' hiders hide.
	var enemy []int
	for _, t := range targets {
		if o := f.Cells[t].Owner; o != 0 && o != uid {
			enemy = append(enemy, t)
		}
	}
	left := budget
	add := func(t int, e int64) {
		e = min(max(e, 0), left)
		x, y := at(t)
		attacks = append(attacks, colorfight2.Command{Kind: colorfight2.CmdAttack, X: x, Y: y, Energy: e})
		left -= e
	}
	// A hunter (in its hunting stretches) saves its energy for an enemy
	// Home next to it, enough to take it should its owner spend its
	// energy and upgrade it, and then spends it all there.
	prey := -1
	if h.hunter {
		for _, t := range enemy {
			if c := &f.Cells[t]; c.Building == colorfight2.Home && strings.HasPrefix(userName(f, c.Owner), Name) {
				prey = t
				if need := (1000+c.ForceField)*min(3, c.Level+1) + 10; left >= need {
					add(t, left)
				}
				break
			}
		}
	}
	// Most of its attacks are a built-in's, so that it grows, earns and
	// meets its neighbours; it keeps the gold for what it hides.
	if h.inner != nil && left > 0 && prey < 0 {
		lines, _ := h.inner.Commands(f)
		for _, line := range lines {
			if c := colorfight2.ParseCommand(line); c.Kind == colorfight2.CmdAttack && c.Energy <= left && c.Energy >= 0 && c.X >= 0 && c.X < w && c.Y >= 0 && c.Y < hh {
				add(c.Y*w+c.X, c.Energy)
			}
		}
	}
	// Then attacks that leave no trace or mislead: ties with others',
	// failed ones, captures of enemy cells, and at times all that is left.
	if left > 0 && len(targets) > 0 && h.r.Intn(3) == 0 {
		for k := h.r.Intn(4); k > 0 && left > 0; k-- {
			t := targets[h.r.Intn(len(targets))]
			if len(enemy) > 0 && h.r.Intn(2) == 0 {
				t = enemy[h.r.Intn(len(enemy))]
			}
			cost := f.Cells[t].AttackCost
			switch h.r.Intn(4) {
			case 0: // exactly the cost: a capture with field 0
				if cost < left/2 {
					add(t, cost)
				}
			case 1: // a failed attack, or a tie with someone else's
				e := int64(h.r.Intn(int(min(left/8, cost) + 1)))
				for _, c := range chosen {
					for _, o := range c {
						if o.Kind == colorfight2.CmdAttack && o.X == t%w && o.Y == t/w && h.r.Intn(2) == 0 {
							e = o.Energy
						}
					}
				}
				add(t, e)
			default: // a capture with a little to spare
				if cost < left/2 {
					add(t, cost+int64(h.r.Intn(50)))
				}
			}
		}
		if h.r.Intn(8) == 0 && left > 0 {
			add(targets[h.r.Intn(len(targets))], left)
		}
	}
	// A hunter too: an enemy Home it may take gets all that is left.
	for _, t := range enemy {
		if c := &f.Cells[t]; c.Building == colorfight2.Home && left > c.AttackCost && h.r.Intn(2) == 0 {
			add(t, left)
		}
	}
	if exposed && left > 0 && len(targets) > 0 {
		add(targets[h.r.Intn(len(targets))], left)
	}
	h.attacks = attacks
	return attacks
}

// Hide adds to the hider's attacks (all[uid-1], from Attacks) the builds
// and upgrades the frame will hide, having played the round with all the
// players' commands ahead; it returns the hider's commands.
func (h *Hider) Hide(st *colorfight2.State, all [][]colorfight2.Command) []colorfight2.Command {
	f := &h.f
	w := f.Width
	uid := int64(h.uid)
	me := h.self()
	if me == nil {
		return nil
	}
	energy, gold, tech := me.Energy, me.Gold, me.TechLevel
	attacks := all[h.uid-1]
	homeUp := h.homeUp
	var mine []int
	home := -1
	for i := range f.Cells {
		if f.Cells[i].Owner == uid {
			mine = append(mine, i)
			if f.Cells[i].Building == colorfight2.Home {
				home = i
			}
		}
	}
	at := func(i int) (int, int) { return i % w, i / w }

	// Play the round ahead to learn which cells fall, and whether the Home.
	h.sim.CopyFrom(st)
	h.sim.Step(all)
	g := &h.g
	h.sim.Frame(g)
	var lost, kept []int
	for _, i := range mine {
		if g.Cells[i].Owner != uid {
			lost = append(lost, i)
		} else {
			kept = append(kept, i)
		}
	}
	homeFalls := home >= 0 && g.Cells[home].Owner != uid
	// An upgrade spends the energy the Home stores: a level more may let
	// it fall, with the upgrade hidden.
	forceUp := false
	if !homeFalls && homeUp {
		x, y := at(home)
		up := append([]colorfight2.Command{{Kind: colorfight2.CmdUpgrade, X: x, Y: y}}, attacks...)
		saved := all[h.uid-1]
		all[h.uid-1] = up
		h.sim.CopyFrom(st)
		h.sim.Step(all)
		all[h.uid-1] = saved
		h.sim.Frame(g)
		if g.Cells[home].Owner != uid {
			homeFalls, forceUp = true, true
			lost, kept = lost[:0], kept[:0]
			for _, i := range mine {
				if g.Cells[i].Owner != uid {
					lost = append(lost, i)
				} else {
					kept = append(kept, i)
				}
			}
		}
	}
	h.r.Shuffle(len(lost), func(a, b int) { lost[a], lost[b] = lost[b], lost[a] })
	h.r.Shuffle(len(kept), func(a, b int) { kept[a], kept[b] = kept[b], kept[a] })

	var cmds []colorfight2.Command
	level := map[int]int64{} // levels reached this round, by cell
	kind := map[int]colorfight2.Building{}
	for _, i := range mine {
		kind[i], level[i] = f.Cells[i].Building, f.Cells[i].Level
	}
	build := func(i int, b colorfight2.Building) bool {
		if kind[i] != colorfight2.BuildingNone || gold < colorfight2.BuildCost(b) {
			return false
		}
		if b == colorfight2.Home {
			if tech != 0 {
				return false
			}
		} else if tech == 0 {
			return false
		}
		x, y := at(i)
		cmds = append(cmds, colorfight2.Command{Kind: colorfight2.CmdBuild, X: x, Y: y, Building: b})
		gold -= colorfight2.BuildCost(b)
		kind[i], level[i] = b, 1
		return true
	}
	upgrade := func(i int) bool {
		b, l := kind[i], level[i]
		if b == colorfight2.BuildingNone || l >= 3 || (b != colorfight2.Home && l >= tech) {
			return false
		}
		ug, ue := colorfight2.UpgradeCost(b, l)
		if gold < ug || energy < ue {
			return false
		}
		x, y := at(i)
		cmds = append(cmds, colorfight2.Command{Kind: colorfight2.CmdUpgrade, X: x, Y: y})
		gold -= ug
		energy -= ue
		level[i] = l + 1
		return true
	}
	fall := make(map[int]bool, len(lost))
	for _, i := range lost {
		fall[i] = true
	}
	if homeFalls {
		h.Stats.HomeFalls++
	}
	if homeUp && (homeFalls || forceUp || h.r.Intn(4) == 0) && upgrade(home) && homeFalls {
		h.Stats.HomeUpgrades++
	}
	if homeFalls && h.r.Intn(2) == 0 && upgrade(home) {
		h.Stats.HomeUpgrades++ // a second level if it can: the Home falls anyway
	}
	// Homeless: rebuild where the Home will fall at once, or anywhere.
	if tech == 0 && gold >= colorfight2.BuildCost(colorfight2.Home) {
		spots := lost
		if len(spots) == 0 || h.r.Intn(3) == 0 {
			spots = kept
		}
		for _, i := range spots {
			if build(i, colorfight2.Home) {
				if fall[i] {
					h.Stats.HomeRebuilt++
				}
				for h.r.Intn(2) == 0 && upgrade(i) {
				}
				break
			}
		}
	}
	// Builds and upgrades on the cells about to fall — and, when the Home
	// falls, on every cell (the lost-homes step removes them).
	spots := lost
	if homeFalls {
		spots = append(append([]int(nil), lost...), kept...)
	}
	for _, i := range spots {
		if h.r.Intn(4) == 0 {
			continue
		}
		n := 0
		if build(i, types[h.r.Intn(len(types))]) {
			n++
			if fall[i] {
				h.Stats.Builds++
			}
		}
		for h.r.Intn(3) != 0 && upgrade(i) {
			n++
			if fall[i] {
				h.Stats.Upgrades++
			}
		}
		if !fall[i] {
			h.Stats.Removed += n
		}
	}
	// Now and then spend the rest of the gold, down to nearly nothing.
	if h.r.Intn(6) == 0 {
		for _, i := range append(append([]int(nil), lost...), kept...) {
			if gold < 200 {
				break
			}
			if !build(i, types[h.r.Intn(len(types))]) {
				upgrade(i)
			}
		}
	}
	// Energy the upgrades left: attacks keep within it.
	for _, c := range attacks {
		if c.Energy > energy {
			c.Energy = energy
		}
		energy -= c.Energy
		cmds = append(cmds, c)
	}
	for k := range cmds {
		cmds[k].Raw = cmds[k].String()
	}
	return cmds
}

// Name begins the name of every hider in a Game.
const Name = "hider"

func userName(f *colorfight2.Frame, uid int64) string {
	for k := range f.Users {
		if f.Users[k].UID == uid {
			return f.Users[k].Username
		}
	}
	return ""
}

// Seat is one player of Game: a built-in bot by name, or a hider (whose
// attacks are mostly those of Bot, when set).
type Seat struct {
	Hider bool
	Bot   string
}

// Game plays a game of the seats on a map generated from seed (cfg's size
// and max_player, max_turn rounds) and writes it to w as an official .cfr:
// element 0 the map before anyone registered, then one frame per round,
// with the info object the reference server writes. It returns the
// hiders' Stats summed.
func Game(w io.Writer, cfg colorfight2.Config, seed uint64, seats []Seat) (Stats, error) {
	return Play(w, cfg, seed, seats, nil)
}

// Play is Game, calling round (when not nil) with the commands of every
// round played (turn is the turn the round starts from), to explain a
// game the inference gets wrong.
func Play(w io.Writer, cfg colorfight2.Config, seed uint64, seats []Seat, round func(turn int, cmds [][]colorfight2.Command)) (Stats, error) {
	var total Stats
	err := game(w, cfg, seed, seats, &total, round)
	return total, err
}

func game(w io.Writer, cfg colorfight2.Config, seed uint64, seats []Seat, total *Stats, round func(int, [][]colorfight2.Command)) error {
	names := make([]string, len(seats))
	for k, s := range seats {
		names[k] = s.Bot
		if s.Hider {
			names[k] = Name + "+" + s.Bot
		}
	}
	st, err := colorfight2.NewFromSeed(cfg, seed, names)
	if err != nil {
		return err
	}
	m, _, err := colorfight2.GenerateMap(cfg.Width, cfg.Height, cfg.MaxPlayer, seed)
	if err != nil {
		return err
	}
	enc, err := cfr.NewEncoder(w, cfr.Header{Info: replay.OfficialInfo(replay.Config(cfg), fmt.Sprint(seed))})
	if err != nil {
		return err
	}
	var f colorfight2.Frame
	m.Frame(&f)
	if err := enc.WriteFrame(&f); err != nil {
		return err
	}
	hiders := make([]*Hider, len(seats))
	bots := make([]bot.Bot, len(seats))
	for k, s := range seats {
		if s.Hider {
			if hiders[k], err = New(k+1, seed*31+uint64(k), s.Bot); err != nil {
				return err
			}
			continue
		}
		if bots[k], err = bot.Builtin(s.Bot); err != nil {
			return err
		}
		if err := bots[k].Start(k+1, seed*31+uint64(k)); err != nil {
			return err
		}
	}
	st.Step(nil)
	st.Frame(&f)
	if err := enc.WriteFrame(&f); err != nil {
		return err
	}
	cmds := make([][]colorfight2.Command, len(seats))
	for !st.Over() {
		for k, b := range bots {
			cmds[k] = cmds[k][:0]
			if b == nil {
				continue
			}
			lines, err := b.Commands(&f)
			if err != nil {
				return err
			}
			for _, line := range lines {
				cmds[k] = append(cmds[k], colorfight2.ParseCommand(line))
			}
		}
		for k, hd := range hiders {
			if hd != nil {
				cmds[k] = nil
			}
		}
		for k, hd := range hiders {
			if hd != nil {
				cmds[k] = append([]colorfight2.Command(nil), hd.Attacks(st, cmds)...)
			}
		}
		for k, hd := range hiders {
			if hd != nil {
				cmds[k] = hd.Hide(st, cmds)
			}
		}
		if round != nil {
			round(st.Turn(), cmds)
		}
		st.Step(cmds)
		for _, e := range st.Errors() {
			if hd := hiders[e.UID-1]; hd != nil {
				hd.Stats.Failed++
			}
		}
		st.Frame(&f)
		if err := enc.WriteFrame(&f); err != nil {
			return err
		}
	}
	for _, hd := range hiders {
		if hd != nil {
			total.Add(hd.Stats)
		}
	}
	return enc.Close()
}
