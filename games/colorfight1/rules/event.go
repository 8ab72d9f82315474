package rules

// EventKind is what an Event reports.
type EventKind uint8

// Event kinds.
const (
	// EventCapture: an attack (or a blast, Blast set) on Cell resolved;
	// UID is the attacker (0 for a blast), Other the owner before.
	EventCapture EventKind = iota + 1
	// EventBaseMoved: UID's finished base on Cell was captured and moved
	// to its cell To.
	EventBaseMoved
	// EventBaseLost: UID's finished base on Cell was captured with no
	// own empty neighbour to move to.
	EventBaseLost
	// EventBaseBuilt: UID's base on Cell was finished.
	EventBaseBuilt
	// EventDeath: UID died (Other: its cell count then).
	EventDeath
	// EventJoin: UID joined on Cell.
	EventJoin
	// EventBuild: UID started a base on Cell.
	EventBuild
	// EventBlast: UID blasted around Cell, hitting Other cells.
	EventBlast
	// EventMultiattack: UID multiattacked around Cell, attacking Other
	// of its neighbours.
	EventMultiattack
)

// Event is something that happened in the last Advance or Do.
type Event struct {
	Kind       EventKind
	UID, Other int32
	Cell, To   int
	Blast      bool
}

// Events returns the events of the last Advance and the requests done
// since, in order; valid until the next Advance.
func (s *State) Events() []Event { return s.events }
