package templates

// LibraryFilter is the library's filter form, as the request filled it
// in (an indexed library: the server filters and sorts).
type LibraryFilter struct {
	// Games are the display names the game filter offers (every
	// registered game's, in the registry's order).
	Games    []string
	Sort     string
	Asc      bool
	Game     string
	Bot      string
	Lost     bool
	Player   string
	Winner   string
	From, To string
	Complete string
	Search   string
}

// Empty reports whether no filter is set.
func (f LibraryFilter) Empty() bool {
	return f.Game == "" && f.Bot == "" && f.Player == "" && f.Winner == "" && f.From == "" && f.To == "" && f.Complete == "" && f.Search == ""
}

// StandingRow is one bot's line of the standings page.
type StandingRow struct {
	Rank      int
	Bot       string
	URL       string // the bot's page
	Games     int
	Wins      int
	MeanRank  string
	MeanScore string
	// Conservative, Mu and Sigma are the Weng–Lin rating's μ − 3σ (the
	// rows' order), μ and σ; Elo the multiplayer Elo (docs/ratings.md).
	Conservative, Mu, Sigma string
	Elo                     string
}

// StandingsTable is the standings of one game.
type StandingsTable struct {
	Game string
	Unit string // "gold", "resources"
	Rows []StandingRow
}

// StandingsPage is the leaderboard of the library or of a filter of it.
type StandingsPage struct {
	Title  string
	Filter string // what the standings are of ("every complete game", …)
	Tables []StandingsTable
	Assets Assets
}

// BotPage is one bot's page: its standing, its games (losses first) and
// its rating over time.
type BotPage struct {
	Title    string
	Bot      string
	Standing []StandingsTable
	Rows     []LibraryRow
	// Next is the next page of its games ("" on the last).
	Next string
	// Rating is the ECharts option of its rating over time (JSON), ""
	// when there is none.
	Rating string
	Assets Assets
}
