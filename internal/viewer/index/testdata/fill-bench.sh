#!/bin/sh
# fill-bench.sh N: builds the benchmark's index of N generated replays
# (default 10,000,000) with the sqlite3 shell, a few times faster than the
# benchmark's own fill (whose SQL this repeats: TestFillIsPut checks it
# against Put). The search index is left to the benchmark (the shell's
# FTS5 may be older than the names table's options): run then
#   REWIND_BENCH_ROWS=N go test -run '^$' -bench . -benchtime 200x ./internal/viewer/index/
set -e
N=${1:-10000000}
DIR=${TMPDIR:-/tmp}/rewind-index-bench-$N
DB=$DIR/.rewind/index.db
cd "$(dirname "$0")/.."
REWIND_BENCH_SCHEMA=$DIR go test -run TestBenchSchema -count=1 .
T0=1767225600000000000
sqlite3 "$DB" "DROP TRIGGER seats_in; DROP INDEX replays_date; DROP INDEX replays_rounds; DROP INDEX replays_size; DROP INDEX replays_winner; DROP INDEX replays_path_date; DROP INDEX seats_key; DROP INDEX seats_name;"
i=0
while [ $i -lt "$N" ]; do
  TO=$((i + 1000000)); [ $TO -gt "$N" ] && TO=$N
  sqlite3 "$DB" <<SQL
PRAGMA cache_size=-400000; PRAGMA synchronous=OFF;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT $i UNION ALL SELECT i+1 FROM n WHERE i+1 < $TO)
INSERT INTO replays(id, path, size, mtime, game, format, rounds, max_turn, complete, date, status)
SELECT i+1, printf('g/%07d.rwd', i), 1000 + i%977, $T0 + i*1000000000, 'ColorfightII', 'rwd', 100 + i%400, 500, i%10 != 0,
 $T0 + i*1000000000, CASE WHEN i%10 = 0 THEN 'incomplete' ELSE '' END FROM n;
WITH RECURSIVE n(i) AS (SELECT $i UNION ALL SELECT i+1 FROM n WHERE i+1 < $TO),
k(k) AS (VALUES(0),(1),(2),(3)),
s AS (SELECT i, k, (i*7 + k*13) % 100 AS gold, 'b' || ((i+k) % 50) AS bot FROM n, k)
INSERT INTO seats(replay, uid, name, bot, key, rank, score)
SELECT i+1, k+1, (k+1) || '_' || bot, bot, bot,
 CASE WHEN i%10 = 0 THEN 0 ELSE 1 + (SELECT count(*) FROM k o WHERE (i*7 + o.k*13) % 100 > gold OR ((i*7 + o.k*13) % 100 = gold AND o.k < s.k)) END,
 gold FROM s ORDER BY i, k;
UPDATE replays SET (winner, winner_bot, winner_score) = (SELECT name, key, score FROM seats WHERE replay = replays.id AND rank = 1)
WHERE id > $i AND id <= $TO AND complete = 1;
UPDATE replays SET players = (SELECT group_concat(name, ', ') FROM (SELECT name FROM seats WHERE replay = replays.id ORDER BY uid))
WHERE id > $i AND id <= $TO;
UPDATE replays SET words = ' ' || replace(path, '/', ' ') || ' ' || (SELECT group_concat(t, ' ') FROM (SELECT name || ' ' || bot AS t FROM seats WHERE replay = replays.id ORDER BY uid))
WHERE id > $i AND id <= $TO;
COMMIT;
SQL
  i=$TO; echo "$i rows"
done
sqlite3 "$DB" <<'SQL'
PRAGMA cache_size=-400000;
CREATE INDEX replays_date ON replays(date, path);
CREATE INDEX replays_rounds ON replays(rounds, path);
CREATE INDEX replays_size ON replays(size, path);
CREATE INDEX replays_winner ON replays(winner, path);
CREATE INDEX replays_path_date ON replays(game, date, path);
CREATE INDEX seats_key ON seats(key, replay);
CREATE INDEX seats_name ON seats(name, replay);
UPDATE standings SET stale = 1, low_created = -9223372036854775808, low_path = '';
INSERT INTO bots(key, games, wins, sum_rank, sum_score) SELECT key, count(*), sum(rank = 1), sum(rank), sum(score) FROM seats GROUP BY key;
CREATE TRIGGER seats_in AFTER INSERT ON seats BEGIN
	INSERT INTO bots(key, games, wins, sum_rank, sum_score) VALUES(new.key, 1, new.rank = 1, new.rank, new.score)
	ON CONFLICT(key) DO UPDATE SET games = games + 1, wins = wins + (new.rank = 1),
		sum_rank = sum_rank + new.rank, sum_score = sum_score + new.score;
END;
SQL
echo "$DB: $N rows"
