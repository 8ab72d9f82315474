package main

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/rewind-game/rewind/engine"
)

type importOptions struct {
	in, out string
	format  string
	force   bool
	stdout  io.Writer
	now     func() time.Time
}

func newImportCmd() *cobra.Command {
	opts := &importOptions{now: time.Now}
	cmd := &cobra.Command{
		Use:   "import FILE -o GAME.rwd",
		Short: "Infer the commands of an official replay and write them as a .rwd",
		Long: `import reads an official replay that records states but not commands, and
infers, round by round, a command list for every player such that playing
them from the first frame reproduces every field of every frame (the
canonical choices are in docs/import.md). The .rwd header says the commands
are inferred and names the source file's SHA-256; check the result with:
rewind verify GAME.rwd --against FILE. The formats import takes:
` + formatsWith(importOp) + `.

A replay that no legal commands can produce is not imported: the error lists
what breaks the rules (see rewind audit). A replay with a round for which the
inference finds no commands, while no rule proves the round impossible, is
not imported either: the error says so, and that the file may still be
legal. A replay cut short is imported up to its last whole frame, with a
warning.`,
		Example: `  rewind import GAME.cfr -o GAME.rwd && rewind verify GAME.rwd --against GAME.cfr`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.in, opts.stdout = args[0], cmd.OutOrStdout()
			return runImport(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "output .rwd file (required)")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the output file if it exists")
	cmd.Flags().StringVar(&opts.format, "format", "", formatFlagUsage(importOp))
	cmd.MarkFlagRequired("output")
	return cmd
}

func runImport(opts *importOptions) error {
	src, err := readReplayFile(opts.in)
	if err != nil {
		return err
	}
	f, err := officialFormat(src, opts.format)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.in, err)
	}
	if f.Import == nil {
		return withoutOp(opts.in, f, importOp, "import")
	}
	digest := sha256.Sum256(src)
	sum := hex.EncodeToString(digest[:])
	var res *engine.ImportResult
	err = writeOutput(opts.out, opts.force, func(w io.Writer) error {
		var err error
		res, err = f.Import(bytes.NewReader(src), w, engine.ImportOptions{
			Source: filepath.Base(opts.in), SHA256: sum, Created: opts.now(), Tool: "rewind " + version})
		return err
	})
	var re *engine.RulesError
	if errors.As(err, &re) && re.Unexplained {
		return fmt.Errorf("%s: not imported: %w", opts.in, re)
	}
	if errors.As(err, &re) {
		for _, v := range re.Violations {
			fmt.Fprintln(opts.stdout, v)
		}
		return fmt.Errorf("%s: not imported: it breaks the rules at turn %d (rewind audit %s lists every violation)", opts.in, re.Turn, opts.in)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", opts.in, err)
	}
	if res.Warning != nil {
		fmt.Fprintf(opts.stdout, "warning: %s is cut short (%v); imported its %d whole rounds\n", opts.in, res.Warning, res.Rounds)
	}
	state := "complete"
	if !res.Complete {
		state = "no footer: the game ends before max_turn"
	}
	fmt.Fprintf(opts.stdout, "wrote %s: %d rounds, %d commands inferred (%s); source sha256 %s\n", opts.out, res.Rounds, res.Commands, state, sum)
	return stopStatusError(res.Warning)
}

// maxReplayFile bounds what a command reads into memory from a replay
// file: far above any real .cfr (about 1 MB for 500 rounds).
const maxReplayFile = 256 << 20

// readReplayFile reads a whole replay file, refusing directories and
// files over maxReplayFile with a clear message.
func readReplayFile(path string) ([]byte, error) {
	st, err := statInput(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxReplayFile {
		return nil, fmt.Errorf("%s is %d bytes, over the %d MiB a replay may have", path, st.Size(), maxReplayFile>>20)
	}
	b, err := os.ReadFile(path)
	return b, plainError(err)
}

// statInput checks that path is a file to read, with plain messages: "PATH:
// no such file", "PATH is a directory; give a replay file".
func statInput(path string) (os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, plainError(err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory; give a replay file", path)
	}
	return st, nil
}

// plainError rewrites the first *fs.PathError in err's chain without its
// system call ("stat", "open", "statat"...) and with a plain reason:
// "open X: no such file or directory" becomes "X: no such file". The rest
// of the message is kept.
func plainError(err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	var le *os.LinkError
	var whole, path string
	var cause error
	switch {
	case errors.As(err, &pe):
		whole, path, cause = pe.Error(), pe.Path, pe.Err
	case errors.As(err, &le):
		whole, path, cause = le.Error(), le.New, le.Err
	default:
		return err
	}
	reason := cause.Error()
	switch {
	case errors.Is(cause, fs.ErrNotExist):
		reason = "no such file"
	case errors.Is(cause, fs.ErrPermission):
		reason = "permission denied"
	case errors.Is(cause, syscall.EISDIR):
		reason = "is a directory; give a file"
	}
	plain := path + ": " + reason
	return &plainPathError{msg: strings.Replace(err.Error(), whole, plain, 1), err: err}
}

// plainPathError is an error whose message plainError rewrote; it still
// unwraps to the original.
type plainPathError struct {
	msg string
	err error
}

func (e *plainPathError) Error() string { return e.msg }
func (e *plainPathError) Unwrap() error { return e.err }

// writeOutput writes a file through a temporary file beside it, renamed
// into place only when write succeeds, so a failure never leaves a partial
// file or destroys an existing one. An existing file is replaced only with
// force.
func writeOutput(path string, force bool, write func(io.Writer) error) error {
	if err := checkOutput(path, force); err != nil {
		return err
	}
	tmp, err := createPartial(path)
	if err != nil {
		return plainError(err)
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return plainError(os.Rename(tmp.Name(), path))
}

// writeRecording writes path as a recording that grows while it is
// made, with write, so that a recorder killed at any point leaves a
// readable file cut after its last whole round (verify: INCOMPLETE) and
// nothing hidden: a new file is written under its own name from its first
// byte; a file replaced (force) is kept until the new one is whole, which
// is written beside it as the visible PATH.partial and renamed over it. A
// PATH.partial already there (left by a run killed while replacing path)
// is reported and kept, not overwritten. When write fails its file is
// removed (an existing path is untouched).
func writeRecording(path string, force bool, write func(io.Writer) error) error {
	if err := checkOutput(path, force); err != nil {
		return err
	}
	name := path
	if _, err := os.Lstat(path); err == nil {
		name = path + ".partial"
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	switch {
	case errors.Is(err, fs.ErrExist) && name == path:
		return fmt.Errorf("%s exists; use --force to replace it", path)
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s is left from a run killed while it replaced %s (rewind verify %s tells its whole rounds): rename or remove it first", name, filepath.Base(path), name)
	case err != nil:
		return plainError(err)
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(name)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return plainError(err)
	}
	if name != path {
		return plainError(os.Rename(name, path))
	}
	return nil
}

// createPartial creates a new hidden file beside path to write it in
// (".NAME.RANDOM.partial"), with mode 0666 less the umask, as the file
// the user asked for would get (os.CreateTemp's 0600 would hide it from
// the other users a umask lets read it).
func createPartial(path string) (*os.File, error) {
	var err error
	for range 100 {
		var b [6]byte
		rand.Read(b[:])
		name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"."+hex.EncodeToString(b[:])+".partial")
		var f *os.File
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil || !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, err
}

// checkOutput reports whether writeOutput may write path: not a directory,
// and not an existing file unless force. Commands that start work before
// writing (bots, long matches) call it first.
func checkOutput(path string, force bool) error {
	if st, err := os.Stat(filepath.Dir(path)); err != nil {
		return fmt.Errorf("%s: the directory %s does not exist", path, filepath.Dir(path))
	} else if !st.IsDir() {
		return fmt.Errorf("%s: %s is not a directory", path, filepath.Dir(path))
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		if !force {
			return fmt.Errorf("%s exists; use --force to replace it", path)
		}
	}
	return nil
}
