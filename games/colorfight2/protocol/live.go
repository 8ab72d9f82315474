package protocol

import (
	"fmt"
	"io"
	"os"
)

// maxGames bounds the finished games Games lists and Recording serves
// (they are on disk in Options.Dir in any case).
const maxGames = 100

// recFile is a recording's file, as the recorder writes it. Tests
// replace os.Create to make a disk fill up.
type recFile interface {
	io.Writer
	io.Closer
}

func createFile(name string) (recFile, error) { return os.Create(name) }

// finish closes a recording after its footer and renames it into place.
func finish(f recFile, path string) error {
	err := f.Close()
	if err == nil {
		err = os.Rename(path+".partial", path)
	}
	if err != nil {
		return fmt.Errorf("server: recording: %w", err)
	}
	return nil
}
