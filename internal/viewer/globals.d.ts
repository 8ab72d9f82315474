// What the replay page's scripts (static/*.js, games/ID/board.js) find
// in the browser beyond the DOM, for tsc --checkJs (tsconfig.json).
interface Window {
  rewind: Rewind;
  echarts: any;
  // The library page's (library.js) refresh of its rows, which
  // library-index.js replaces on an indexed library.
  rewindLibraryRefresh: () => void;
}
