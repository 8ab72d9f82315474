package protocol

// maxGames bounds the finished games Games lists and Recording serves
// (they are on disk in Options.Dir in any case).
const maxGames = 100
