package colorfight1_test

import (
	"os"
	"testing"

	"github.com/rewind-game/rewind/internal/clitest"
)

func TestMain(m *testing.M) { os.Exit(clitest.Main(m)) }
