package engine

// This file lets a game ask the analysis for what its users expect of it
// beyond the analysis: spending surges of its amounts
// (Metric.Surge), and the layout of a document of its own that readers
// of its older analysis depend on (Registration.Document). Both are
// declarations: the analysis computes everything from the game's frames.

// Surge asks the analysis to report spending surges of an Amount metric:
// rounds where a player spent far above its own habit (the analysis's
// rule, docs/analysis-json.md "Turning points"), at least Floor in its
// window. The surge is an event of kind Event, worded "PLAYER surges:
// VALUE UNIT on On in turns FROM–TO"; Title names such events in a list
// of kinds ("attack surges"). The zero Surge asks for none.
type Surge struct {
	Event, On, Title string
	Floor            int64
}

// Document is the layout of a game's own analysis document
// (Registration.Document): the layout an older, game-specific analysis
// of it wrote and its readers still parse (ColorfightII's,
// docs/analysis-json.md). The analysis builds it from its generic
// results alone (analysis.Document); the game only names what goes
// where. Players
// are numbered from FirstPlayer (player p is p+FirstPlayer, -1 is 0:
// none) and events' Other too, unless their kind is OtherNumber.
type Document struct {
	FirstPlayer int
	// Config names the settings (Game.Setting keys, integer
	// values) the document lists as its "config" object, by key.
	Config []string
	// Series names the metrics of the per-round series in the order the
	// document lists them; every other metric of the stream follows, in
	// its order.
	Series []string
	// Standing are the fields of a player's line of the ranking, after
	// its rank, number, name and bot.
	Standing []StandingField
	// Table are the columns of the text table after rank, number and
	// name: a heading and a Standing key each.
	Table [][2]string
	// Corpus are the Standing keys a folder's CSV gives per player after
	// its name and bot, and Mean the one its per-bot standings average
	// beside the score.
	Corpus []string
	Mean   string
	// Charts are the metrics a report charts, with their titles.
	Charts [][2]string
}

// StandingOf says what a StandingField reads.
type StandingOf uint8

const (
	// Final is the metric's game value (analysis.MetricSummary.Final).
	Final StandingOf = iota
	// Flag is Final as a boolean (not zero).
	Flag
	// Peak is the metric's highest value after a round (0 when it never
	// rose above 0), PeakTurn the first round it was reached (0 then).
	Peak
	PeakTurn
	// EventTurn is the round of the player's last event of kind Name, 0
	// when it had none.
	EventTurn
)

// StandingField is one field of a player's line of a Document's
// ranking: its Key and what it reads (Of) of the metric or event kind
// Name.
type StandingField struct {
	Key  string
	Of   StandingOf
	Name string
}
