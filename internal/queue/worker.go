package queue

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/rewind-game/rewind/internal/match"
)

// Worker pulls jobs and plays them.
type Worker struct {
	Queue *Queue
	// ID names the worker in results and notices (default: random).
	ID string
	// Parallel is how many games it plays at once (default 1).
	Parallel int
	// CanRun reports whether the worker has a bot for an entrant name;
	// a job with an entrant it lacks is left to other workers.
	CanRun func(name string) bool
	// Play plays game job.Index of job.Spec and returns its result and
	// its replay (a replay over Limits.MaxReplayBytes is refused).
	Play func(ctx context.Context, job Job) (match.GameResult, []byte, error)
	// Log, when set, receives one line per event (a game taken, stored,
	// left to others).
	Log func(format string, args ...any)
}

func (w *Worker) logf(format string, args ...any) {
	if w.Log != nil {
		w.Log(format, args...)
	}
}

// pullExpiry is how long one pull request waits on the server; the server
// sends a heartbeat every half of it, and a request without one for this
// long is replaced.
const pullExpiry = 10 * time.Second

// Run pulls and plays jobs until ctx ends. A game interrupted by ctx is
// not acknowledged, so another worker plays it again.
func (w *Worker) Run(ctx context.Context) error {
	if w.ID == "" {
		w.ID = randomID()
	}
	q := w.Queue
	cons, err := q.js.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{
		Durable:       workersName,
		Description:   "rewind workers",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       q.lim.AckWait,
		MaxDeliver:    q.lim.MaxDeliver,
		FilterSubject: jobSubject + ">",
		MaxAckPending: -1,
	})
	if err != nil {
		return fmt.Errorf("queue: consumer: %w", err)
	}
	var wg sync.WaitGroup
	for range max(1, w.Parallel) {
		// Each player pulls one job at a time (no job waits in a busy
		// worker's buffer while another worker is idle); stopping the
		// iterator when ctx ends unblocks it at once. A pull request the
		// server lost shows as missing heartbeats: after pullExpiry the
		// iterator asks again, so an idle worker is never out of the
		// queue for longer.
		it, err := cons.Messages(jetstream.PullMaxMessages(1), jetstream.PullExpiry(pullExpiry))
		if err != nil {
			return fmt.Errorf("queue: pull: %w", err)
		}
		stop := context.AfterFunc(ctx, it.Stop)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer stop()
			for ctx.Err() == nil {
				m, err := it.Next()
				if err != nil {
					if ctx.Err() != nil || errors.Is(err, jetstream.ErrMsgIteratorClosed) {
						return
					}
					// The server may be away for a moment (a cluster node
					// restarting): try again after a pause.
					if errors.Is(err, jetstream.ErrNoHeartbeat) {
						w.logf("pull: no heartbeat from the server in %v; pulling again", pullExpiry)
					} else {
						w.logf("pull: %v", err)
					}
					sleep(ctx, time.Second)
					continue
				}
				if err := w.handle(ctx, m); err != nil && ctx.Err() == nil {
					w.logf("%v", err)
				}
			}
		}()
	}
	wg.Wait()
	return nil
}

// handle plays one job and acknowledges it once its result is stored.
func (w *Worker) handle(ctx context.Context, m jetstream.Msg) error {
	q := w.Queue
	var j Job
	if err := json.Unmarshal(m.Data(), &j); err != nil || j.Tournament != j.Spec.ID() || j.Index < 0 {
		m.TermWithReason("not a rewind job")
		return fmt.Errorf("queue: a job that is not one (%d bytes) was dropped", len(m.Data()))
	}
	// Already played (a redelivery after the result was stored): done.
	// A first delivery needs no look-up: the coordinator publishes only
	// games without a result, with a message id that keeps a job it
	// publishes again within ten minutes once.
	if md, err := m.Metadata(); err != nil || md.NumDelivered > 1 {
		if ok, err := q.has(ctx, j.Tournament, j.Index); err != nil {
			m.NakWithDelay(time.Second)
			return err
		} else if ok {
			return m.Ack()
		}
	}
	if w.CanRun != nil {
		for _, b := range j.Spec.Bots {
			if !w.CanRun(b) {
				m.NakWithDelay(2 * time.Second)
				text := fmt.Sprintf("worker %s cannot play game %d: it has no bot %q", w.ID, j.Index, b)
				q.js.Conn().Publish(noticeSubject+j.Tournament, []byte(text))
				return errors.New(text)
			}
		}
	}
	w.logf("game %s: playing", j.Key())
	// Heartbeats while the game is played, so that a long game is not
	// given to another worker; a worker that dies sends none, and its job
	// goes to another after AckWait.
	beat, stopBeat := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(max(q.lim.AckWait/3, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-beat.Done():
				return
			case <-t.C:
				m.InProgress()
			}
		}
	}()
	gr, data, err := w.Play(ctx, j)
	stopBeat()
	if err != nil {
		m.NakWithDelay(time.Second)
		if ctx.Err() != nil {
			return err
		}
		text := fmt.Sprintf("worker %s failed game %d: %v", w.ID, j.Index, err)
		q.js.Conn().Publish(noticeSubject+j.Tournament, []byte(text))
		return errors.New(text)
	}
	err = w.store(ctx, j, gr, data)
	if errors.Is(err, ErrReplayTooBig) {
		// The same game gives the same replay: no other delivery.
		if ferr := w.fail(ctx, j, err); ferr != nil {
			m.NakWithDelay(time.Second)
			return ferr
		}
		m.Ack()
		text := fmt.Sprintf("worker %s failed game %d: %v", w.ID, j.Index, err)
		q.js.Conn().Publish(noticeSubject+j.Tournament, []byte(text))
		return errors.New(text)
	}
	if err != nil {
		m.NakWithDelay(time.Second)
		return err
	}
	// The result is stored: acknowledge. A lost acknowledgement only
	// means a redelivery, which finds the result and acknowledges again.
	if err := m.Ack(); err != nil {
		return fmt.Errorf("queue: game %s: ack: %w", j.Key(), err)
	}
	w.logf("game %s: stored", j.Key())
	return nil
}

// store puts the replay under a name of this attempt, then creates the
// result if absent; when another attempt's result is there already, this
// attempt's replay is deleted.
func (w *Worker) store(ctx context.Context, j Job, gr match.GameResult, data []byte) error {
	q := w.Queue
	if int64(len(data)) > q.lim.MaxReplayBytes {
		return fmt.Errorf("queue: game %s: %w of %d bytes (%d bytes)", j.Key(), ErrReplayTooBig, q.lim.MaxReplayBytes, len(data))
	}
	sum := sha256.Sum256(data)
	gr.Path, gr.Skipped = "", false
	r := Result{Game: gr, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Worker: w.ID, Token: j.Token}
	if len(data) <= InlineReplayBytes {
		r.Inline = data
	} else {
		r.Replay = replayPrefix(j.Tournament, j.Index) + randomID() + ".rwd"
		if _, err := q.replays.PutBytes(ctx, r.Replay, data); err != nil {
			return fmt.Errorf("queue: game %s: store the replay: %w", j.Key(), err)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := q.results.Create(ctx, j.Key(), b); err != nil {
		if r.Replay != "" {
			q.replays.Delete(ctx, r.Replay)
		}
		if errors.Is(err, jetstream.ErrKeyExists) {
			w.logf("game %s: played again; the first result counts", j.Key())
			return nil
		}
		return fmt.Errorf("queue: game %s: store the result: %w", j.Key(), err)
	}
	return nil
}

// fail records why game j has no replay as its result (Result.Failed),
// unless it has one already.
func (w *Worker) fail(ctx context.Context, j Job, why error) error {
	b, err := json.Marshal(Result{Worker: w.ID, Token: j.Token, Failed: why.Error()})
	if err != nil {
		return err
	}
	if _, err := w.Queue.results.Create(ctx, j.Key(), b); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("queue: game %s: store the failure: %w", j.Key(), err)
	}
	return nil
}

func randomID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
