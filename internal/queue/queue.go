// Package queue runs a tournament's games as jobs on NATS JetStream, so that
// any number of workers on any number of machines play them (docs/
// distributed.md).
//
// The layout on JetStream:
//
//   - stream REWIND_JOBS (work-queue retention), subjects rewind.jobs.TID:
//     one message per game, published with the message id TID.INDEX so that
//     a job published twice within the stream's duplicate window is kept
//     once;
//   - key-value bucket REWIND_RESULTS: key TID.INDEX holds a game's Result,
//     written only if absent (Create), so that a redelivered job never gives
//     a second result;
//   - object store REWIND_REPLAYS: each result's replay, under a name of its
//     own attempt; the result names the one that counts.
//
// A worker acknowledges a job only after the replay and the result are
// stored. TID is derived from the tournament's settings (Spec.ID), so that
// running the same tournament again resumes it.
package queue

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/rewind-game/rewind/internal/match"
)

// Names of the JetStream stream and buckets.
const (
	JobsStream    = "REWIND_JOBS"
	ResultsBucket = "REWIND_RESULTS"
	ReplaysBucket = "REWIND_REPLAYS"
	jobSubject    = "rewind.jobs."
	noticeSubject = "rewind.notices."
	workersName   = "rewind-workers"
)

// Limits bound what the queue keeps on the server (docs/limits.md).
type Limits struct {
	// MaxJobs is the most jobs the stream holds at once; publishing more
	// fails (the coordinator keeps at most this many outstanding).
	MaxJobs int64
	// MaxJobBytes bounds one job message.
	MaxJobBytes int32
	// MaxAge is how long a job, a result or a replay is kept.
	MaxAge time.Duration
	// MaxResultsBytes bounds the results bucket (-1: up to the server's
	// JetStream store limit).
	MaxResultsBytes int64
	// MaxReplayBytes bounds one replay; a larger one is refused.
	MaxReplayBytes int64
	// MaxReplaysBytes bounds the object store as a whole (-1: up to the
	// server's JetStream store limit, by default three quarters of the
	// free disk; rewind nats --max-store sets it).
	MaxReplaysBytes int64
	// AckWait is how long a job may go without a heartbeat before it is
	// given to another worker; workers send one every AckWait/3 while a
	// game is played.
	AckWait time.Duration
	// MaxDeliver is how many times a job is handed out before the queue
	// gives up on it (a job no worker can run, or that fails every time).
	MaxDeliver int
	// Memory keeps the stream and buckets in memory, not in files: for a
	// server that lives only as long as its tournament (rewind
	// tournament's own), whose results are kept in the tournament's
	// folder. The coordinator then drops each replay from the results
	// once it has stored it, so that the memory held is a few hundred
	// bytes per game, not a replay.
	Memory bool
}

// DefaultLimits are the limits the commands use.
var DefaultLimits = Limits{
	MaxJobs:         100_000,
	MaxJobBytes:     64 << 10,
	MaxAge:          30 * 24 * time.Hour,
	MaxResultsBytes: -1,
	MaxReplayBytes:  64 << 20,
	MaxReplaysBytes: -1,
	AckWait:         30 * time.Second,
	MaxDeliver:      100,
}

// Spec is a tournament's settings, all a worker needs to play any of its
// games: bots by name only, never a command line.
type Spec struct {
	Game    string   `json:"game"`
	Bots    []string `json:"bots"`
	Players int      `json:"players"`
	Seed    uint64   `json:"seed"`
	MaxTurn int      `json:"max_turn"`
	// Setup is what a game played through the seam starts from besides
	// its seed (a map file, engine.Registration.SetupFromMap), the same for every game;
	// omitted when empty, so the ids of tournaments without one are
	// unchanged.
	Setup []byte `json:"setup,omitempty"`
}

// ID is the tournament's id: the first 16 hex digits of the SHA-256 of the
// spec's JSON. The same settings give the same id, on any machine.
func (s Spec) ID() string {
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Tournament is the match.Tournament of the spec, without bots or
// archive: the caller sets those.
func (s Spec) Tournament() *match.Tournament {
	return &match.Tournament{Game: s.Game, Bots: s.Bots, Players: s.Players, Seed: s.Seed, MaxTurn: s.MaxTurn, Setup: s.Setup}
}

// Job is one game of a tournament.
type Job struct {
	Tournament string `json:"tournament"`
	Spec       Spec   `json:"spec"`
	Index      int    `json:"index"`
	// Token is the coordinator's secret for this game (Coordinator.Token),
	// which the worker that takes the job copies into its result: a
	// result without it is refused.
	Token string `json:"token,omitempty"`
}

// Key is the job's key in the results bucket and its message id.
func (j Job) Key() string { return GameKey(j.Tournament, j.Index) }

// GameKey is game i's key in tournament tid.
func GameKey(tid string, i int) string { return tid + "." + strconv.Itoa(i) }

// Result is what the results bucket holds for a finished game.
type Result struct {
	Game match.GameResult `json:"game"`
	// Inline is the replay itself when it is at most InlineReplayBytes
	// (one write to the server instead of an object and a result);
	// otherwise Replay names its object in ReplaysBucket.
	Inline []byte `json:"inline,omitempty"`
	Replay string `json:"replay,omitempty"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Worker string `json:"worker"`
	// Token is the token of the job the result is of (Job.Token).
	Token string `json:"token,omitempty"`
	// Failed, when set, says why the game has no replay and never will
	// (ErrReplayTooBig): the game fails at once, without another
	// delivery.
	Failed string `json:"failed,omitempty"`
}

// ErrReplayTooBig is wrapped by the error of a game whose replay is over
// Limits.MaxReplayBytes: playing it again gives the same replay, so the
// worker records the failure instead of leaving the job to be delivered
// again.
var ErrReplayTooBig = errors.New("the replay is over the limit")

// InlineReplayBytes is the largest replay a result holds itself (a
// 500-round 8-player ColorfightII game is about 12 KB).
const InlineReplayBytes = 256 << 10

// Queue is the stream and buckets of a NATS JetStream account.
type Queue struct {
	js      jetstream.JetStream
	jobs    jetstream.Stream
	results jetstream.KeyValue
	replays jetstream.ObjectStore
	lim     Limits
}

// Open creates the stream and buckets when missing (with replicas copies
// each, 1 on a single server, 3 on a cluster), or opens them, and sets
// their limits.
func Open(ctx context.Context, js jetstream.JetStream, replicas int, lim Limits) (*Queue, error) {
	if replicas < 1 {
		replicas = 1
	}
	q := &Queue{js: js, lim: lim}
	storage := jetstream.FileStorage
	if lim.Memory {
		storage = jetstream.MemoryStorage
	}
	var err error
	q.jobs, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        JobsStream,
		Description: "rewind tournament games to play",
		Subjects:    []string{jobSubject + ">"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     storage,
		Replicas:    replicas,
		MaxMsgs:     lim.MaxJobs,
		MaxMsgSize:  lim.MaxJobBytes,
		MaxAge:      lim.MaxAge,
		Discard:     jetstream.DiscardNew,
		Duplicates:  10 * time.Minute,
	})
	if err != nil {
		return nil, fmt.Errorf("queue: stream %s: %w", JobsStream, err)
	}
	q.results, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      ResultsBucket,
		Description: "rewind tournament results, one per game",
		History:     1,
		MaxBytes:    lim.MaxResultsBytes,
		TTL:         lim.MaxAge,
		Storage:     storage,
		Replicas:    replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("queue: bucket %s: %w", ResultsBucket, err)
	}
	q.replays, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:      ReplaysBucket,
		Description: "rewind tournament replays",
		MaxBytes:    lim.MaxReplaysBytes,
		TTL:         lim.MaxAge,
		Storage:     storage,
		Replicas:    replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("queue: bucket %s: %w", ReplaysBucket, err)
	}
	return q, nil
}

// publish puts job j on the queue, under the message id j.Key(), so that
// publishing the same game again within the duplicate window is a no-op;
// again publishes it under an id of its own (a game queued again after a
// refused result).
func (q *Queue) publish(ctx context.Context, j Job, again bool) error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	id := j.Key()
	if again {
		id += "." + randomID()
	}
	if _, err := q.js.Publish(ctx, jobSubject+j.Tournament, b, jetstream.WithMsgID(id)); err != nil {
		return fmt.Errorf("queue: publish game %d: %w", j.Index, err)
	}
	return nil
}

// has reports whether the bucket holds a result of game i, readable or
// not.
func (q *Queue) has(ctx context.Context, tid string, i int) (bool, error) {
	_, err := q.results.Get(ctx, GameKey(tid, i))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("queue: result of game %d: %w", i, err)
	}
	return true, nil
}

// remove deletes game i's result if it is still at revision rev, and
// the replay object it names if that is one of game i's own (a refused
// result may name another game's).
func (q *Queue) remove(ctx context.Context, tid string, i int, rev uint64, replay string) error {
	err := q.results.Delete(ctx, GameKey(tid, i), jetstream.LastRevision(rev))
	var apiErr *jetstream.APIError
	switch {
	case err == nil, errors.Is(err, jetstream.ErrKeyNotFound), errors.Is(err, jetstream.ErrKeyExists):
	case errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant):
		// Written again since: the watch hands the new one over.
	default:
		return fmt.Errorf("queue: remove the result of game %d: %w", i, err)
	}
	if replay != "" && strings.HasPrefix(replay, replayPrefix(tid, i)) {
		q.replays.Delete(ctx, replay)
	}
	return nil
}

// replayPrefix starts the object names of game i's replays.
func replayPrefix(tid string, i int) string { return fmt.Sprintf("%s/game-%04d.", tid, i) }

// Result returns game i's result when the bucket holds it.
func (q *Queue) Result(ctx context.Context, tid string, i int) (Result, bool, error) {
	e, err := q.results.Get(ctx, GameKey(tid, i))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Result{}, false, nil
	}
	if err != nil {
		return Result{}, false, fmt.Errorf("queue: result of game %d: %w", i, err)
	}
	var r Result
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return Result{}, false, fmt.Errorf("queue: result of game %d: %w", i, err)
	}
	return r, true, nil
}

// Replay returns the bytes of a result's replay, checked against its size
// and SHA-256; it reads at most MaxReplayBytes.
func (q *Queue) Replay(ctx context.Context, r Result) ([]byte, error) {
	if r.Size > q.lim.MaxReplayBytes {
		return nil, fmt.Errorf("queue: replay %s is %d bytes, over the limit of %d", r.Replay, r.Size, q.lim.MaxReplayBytes)
	}
	b := r.Inline
	if r.Replay != "" {
		o, err := q.replays.Get(ctx, r.Replay)
		if err != nil {
			return nil, fmt.Errorf("queue: replay %s: %w", r.Replay, err)
		}
		b, err = io.ReadAll(io.LimitReader(o, q.lim.MaxReplayBytes+1))
		o.Close()
		if err != nil {
			return nil, fmt.Errorf("queue: replay %s: %w", r.Replay, err)
		}
	}
	sum := sha256.Sum256(b)
	if int64(len(b)) != r.Size || hex.EncodeToString(sum[:]) != r.SHA256 {
		return nil, fmt.Errorf("queue: replay %s: %d bytes that do not match the result's size %d and SHA-256", r.Replay, len(b), r.Size)
	}
	return b, nil
}

// slim replaces game i's result by the same without its inline replay,
// once the coordinator has stored the replay (Limits.Memory).
func (q *Queue) slim(ctx context.Context, tid string, i int, r Result) error {
	if !q.lim.Memory || r.Inline == nil {
		return nil
	}
	r.Inline = nil
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := q.results.Put(ctx, GameKey(tid, i), b); err != nil {
		return fmt.Errorf("queue: result of game %d: %w", i, err)
	}
	return nil
}

// Watch calls fn for every result of tournament tid, those already stored
// first, then each as it is written, with its revision, until ctx ends or
// fn returns false; bad is why a result could not be read.
func (q *Queue) Watch(ctx context.Context, tid string, fn func(i int, r Result, rev uint64, bad error) bool) error {
	w, err := q.results.Watch(ctx, tid+".*")
	if err != nil {
		return fmt.Errorf("queue: watch results: %w", err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("queue: the results watch ended")
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				continue // nil marks the end of what was stored before
			}
			i, err := strconv.Atoi(strings.TrimPrefix(e.Key(), tid+"."))
			if err != nil || i < 0 {
				continue
			}
			var r Result
			bad := json.Unmarshal(e.Value(), &r)
			if !fn(i, r, e.Revision(), bad) {
				return nil
			}
		}
	}
}

// Notices calls fn for each notice a worker sends about tournament tid
// (a job it cannot run), until ctx ends.
func (q *Queue) Notices(ctx context.Context, tid string, fn func(text string)) (stop func(), err error) {
	nc := q.js.Conn()
	sub, err := nc.Subscribe(noticeSubject+tid, func(m *nats.Msg) { fn(string(m.Data)) })
	if err != nil {
		return nil, fmt.Errorf("queue: notices: %w", err)
	}
	return func() { sub.Unsubscribe() }, nil
}

// GaveUp calls fn for every job the workers were handed MaxDeliver times
// without storing its result (a job no worker can play), and removes it
// from the stream, until stop is called.
func (q *Queue) GaveUp(ctx context.Context, fn func(j Job, deliveries uint64)) (stop func(), err error) {
	subject := "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + JobsStream + "." + workersName
	sub, err := q.js.Conn().Subscribe(subject, func(m *nats.Msg) {
		var adv struct {
			StreamSeq  uint64 `json:"stream_seq"`
			Deliveries uint64 `json:"deliveries"`
		}
		if json.Unmarshal(m.Data, &adv) != nil {
			return
		}
		raw, err := q.jobs.GetMsg(ctx, adv.StreamSeq)
		if err != nil {
			return
		}
		var j Job
		if json.Unmarshal(raw.Data, &j) != nil {
			return
		}
		q.jobs.DeleteMsg(ctx, adv.StreamSeq)
		fn(j, adv.Deliveries)
	})
	if err != nil {
		return nil, fmt.Errorf("queue: advisories: %w", err)
	}
	return func() { sub.Unsubscribe() }, nil
}

// Progress counts the results stored for tournament tid.
func (q *Queue) Progress(ctx context.Context, tid string) (int, error) {
	l, err := q.results.ListKeysFiltered(ctx, tid+".*")
	if err != nil {
		if errors.Is(err, jetstream.ErrNoKeysFound) {
			return 0, nil
		}
		return 0, fmt.Errorf("queue: progress: %w", err)
	}
	n := 0
	for range l.Keys() {
		n++
	}
	return n, nil
}

// Pending is the number of jobs waiting in the stream, of every
// tournament.
func (q *Queue) Pending(ctx context.Context) (uint64, error) {
	info, err := q.jobs.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("queue: stream info: %w", err)
	}
	return info.State.Msgs, nil
}
