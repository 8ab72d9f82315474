package rules

import "github.com/rewind-game/rewind/engine"

// Kinds of the events Accounts finds in a round (AccountEvent); the
// ruleset's engine.Accounting declares them (AccountEventKinds).
const (
	// EventHomeCaptured: UID lost its home to Other, and with it Value
	// gold (Steal).
	EventHomeCaptured = "home_captured"
	// EventDied: UID, listed before the round, has no cells left (or is
	// dead) for the first time; Value is the cells it had before.
	EventDied = "died"
	// EventTechUp: UID, listed before the round, reached tech level
	// Value (above 1) from level Other.
	EventTechUp = "tech_up"
	// EventTaxBracket: UID's cells (Value) entered a tax bracket Other
	// (TaxBracket) higher than any it was in before.
	EventTaxBracket = "tax_bracket"
	// EventBuildingBracket: likewise UID's gold mines and energy wells
	// (Value), bracket Other.
	EventBuildingBracket = "building_bracket"
)

// AccountEventKinds declares the kinds of AccountEvent with their
// sentences (engine.EventKind.Sentence over AccountEvent.Event), in the
// order Accounts reports them within a round. It is the one place their
// wording is written. The slice must not be modified.
var AccountEventKinds = []engine.EventKind{
	{Name: EventHomeCaptured, Text: "{player} loses its home to {other} ({value} gold stolen)"},
	{Name: EventDied, Text: "{player} is eliminated"},
	{Name: EventTechUp, Text: "{player} reaches tech level {value}", OtherNumber: true},
	{Name: EventTaxBracket, Text: "{player} enters cell tax bracket {other_number} ({value} cells)", OtherNumber: true},
	{Name: EventBuildingBracket, Text: "{player} enters building tax bracket {other_number} ({value} mines and wells)", OtherNumber: true},
}

// AccountEventKind returns the declaration of kind among
// AccountEventKinds, nil when it is none of them.
func AccountEventKind(kind string) *engine.EventKind {
	for i := range AccountEventKinds {
		if AccountEventKinds[i].Name == kind {
			return &AccountEventKinds[i]
		}
	}
	return nil
}

// AccountEvent is an event Accounts finds in a round, players numbered
// by uid: its Kind's doc says what UID, Other and Value are (Other is a
// uid for home_captured, 0 for died, a number otherwise).
type AccountEvent struct {
	Kind  string
	UID   int
	Other int
	Value int64
}

// Event returns e as the seam reports it: players numbered from 0
// (Player is UID-1; Other is a player, -1 for none, for home_captured
// and died, the kind's number otherwise), no position (X, Y -1).
func (e *AccountEvent) Event() engine.Event {
	other := e.Other
	if e.Kind == EventHomeCaptured || e.Kind == EventDied {
		other--
	}
	return engine.Event{Kind: e.Kind, Player: e.UID - 1, Other: other, X: -1, Y: -1, Value: e.Value}
}

// eventState is what Accounts keeps of a player to find its events.
type eventState struct {
	// wasCells, wasTech and wasDead are the player's account of the
	// round before (zero before its first).
	wasCells, wasTech int64
	wasDead           bool
	died              bool  // a died event was reported
	maxTax, maxBld    int64 // the highest brackets reported
}

// findEvents lists the round's events in a.events: the homes captured in
// scan order, then by ascending uid each player's died, tech_up,
// tax_bracket and building_bracket. It runs before prevU is cleared.
func (a *Accounts) findEvents() {
	a.events = a.events[:0]
	for _, st := range a.steals {
		a.events = append(a.events, AccountEvent{Kind: EventHomeCaptured, UID: st.From, Other: st.By, Value: st.Gold})
	}
	for uid := range a.acc {
		if !a.has[uid] {
			continue
		}
		r, s := &a.acc[uid], &a.evs[uid]
		listed := a.prevU[uid] != nil
		if listed && !s.died && (r.Dead || r.Cells == 0) && !(s.wasDead || s.wasCells == 0) {
			s.died = true
			a.events = append(a.events, AccountEvent{Kind: EventDied, UID: uid, Value: s.wasCells})
		}
		if listed && r.TechLevel > s.wasTech && r.TechLevel > 1 {
			a.events = append(a.events, AccountEvent{Kind: EventTechUp, UID: uid, Other: int(s.wasTech), Value: r.TechLevel})
		}
		if b := TaxBracket(r.Cells); b > s.maxTax {
			s.maxTax = b
			a.events = append(a.events, AccountEvent{Kind: EventTaxBracket, UID: uid, Other: int(b), Value: r.Cells})
		}
		nb := r.Buildings[GoldMine] + r.Buildings[EnergyWell]
		if b := TaxBracket(nb); b > s.maxBld {
			s.maxBld = b
			a.events = append(a.events, AccountEvent{Kind: EventBuildingBracket, UID: uid, Other: int(b), Value: nb})
		}
	}
}

// Events returns the events of the last round accounted, in the order
// they happened (findEvents). It is valid until the next Round.
func (a *Accounts) Events() []AccountEvent { return a.events }
