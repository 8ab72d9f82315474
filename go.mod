module github.com/rewind-game/rewind

go 1.26
