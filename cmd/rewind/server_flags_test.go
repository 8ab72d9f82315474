package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestServerRefusesAnotherGamesFlags: each flag a game's protocol
// declares (led by the game's name in the help) is refused with another
// --game, naming the flag and both games, before anything is written.
func TestServerRefusesAnotherGamesFlags(t *testing.T) {
	var own []*pflag.Flag
	newServerCmd().Flags().VisitAll(func(f *pflag.Flag) {
		if strings.HasPrefix(f.Usage, "ColorfightII: ") {
			own = append(own, f)
		}
	})
	if len(own) < 10 {
		t.Fatalf("ColorfightII declares %d flags of its own, want its 10 (--room, --preset, --wait-for, …)", len(own))
	}
	for _, game := range []struct{ id, name string }{{"skyport", "Skyport"}, {fifthID, "Ticks"}} {
		for _, f := range own {
			dir := filepath.Join(t.TempDir(), "replays")
			err := runCLI(t, "server", "--game", game.id, "--addr", "127.0.0.1:0", "--dir", dir, "--"+f.Name+"="+f.DefValue)
			wantErr(t, err, "--"+f.Name, "ColorfightII", game.name)
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("--game %s --%s: the refused server made its folder", game.id, f.Name)
			}
		}
	}
}
