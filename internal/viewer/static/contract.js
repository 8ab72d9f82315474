// rewind replay page, contract.js: the types of the page (docs/viewer.md
// "Painters"), checked by tsc --checkJs over every page script and every
// game's painter (games/ID/board.js). Only types: the page loads no
// code from here.
//
// A game's painter is a script that sets rewind.boards[ID] (ID the
// game's ruleset id) to a Painter. Each hook may be left out, and each
// may return null/false to keep the board's own drawing.

/**
 * The packed replay (viewer.Packed as JSON): the frames of every turn.
 * @typedef {Object} Packed
 * @property {number} version
 * @property {string} game the ruleset id
 * @property {string} name the game's display name
 * @property {string} [format]
 * @property {string} [label]
 * @property {PackedPlayer[]} players
 * @property {string[]} palette the players' colours (#rrggbb)
 * @property {PackedMetric[]} metrics
 * @property {number} score the index of the score's metric
 * @property {{Name: string}[]} event_kinds
 * @property {boolean} sequential one player acts a turn
 * @property {number} [max_turns]
 * @property {string[][]} [settings]
 * @property {string} [provenance]
 * @property {{head: string, columns: string[], first: number, keys: string[]}} series_csv
 * @property {PackedColumn[]} [table] the headline columns of the player table
 * @property {PackedBoard} board
 * @property {Frame[]} frames frame t is turn t
 * @property {boolean} has_commands
 * @property {boolean} [has_reply_times] some frame has replies: a reply-time chart
 * @property {boolean} [has_marks] some frame has marks its bots drew: a checkbox per seat
 * @property {boolean} [commands_inferred]
 * @property {string} [commands_note]
 * @property {string} [unexplained_note]
 * @property {string} [notice]
 * @property {string} [warning]
 * @property {PackedListEvent[]} [events] the analysis's events
 * @property {string} [outcome]
 */

/**
 * @typedef {Object} PackedPlayer
 * @property {string} name
 * @property {string} label
 * @property {string} [bot]
 * @property {string} [no_log] why there is no bot log
 */

/**
 * @typedef {Object} PackedMetric
 * @property {string} name
 * @property {string} unit
 * @property {string} kind
 * @property {boolean} [unknown] not known from this replay
 */

/**
 * @typedef {Object} PackedColumn
 * @property {string} heading
 * @property {string} of final, peak, peak_turn, event_turn or flag
 * @property {number} metric
 * @property {string} [event]
 */

/**
 * @typedef {Object} PackedListEvent
 * @property {number} turn
 * @property {string} kind
 * @property {number} p
 * @property {number} o
 * @property {number} v
 * @property {string} t
 * @property {boolean} [turning]
 * @property {string} [explain]
 * @property {boolean} [later]
 */

/**
 * @typedef {Object} PackedBoard
 * @property {'square'|'hex'|'hex-axial'} topology
 * @property {number} width
 * @property {number} height
 * @property {string} [terrain] what a cell's terrain is
 * @property {string} [value] what a cell's value is
 * @property {string[]} [badges] the names of the badge bits
 * @property {string[]} [layers] the names of the board's layers
 */

/**
 * One turn. cells: frame 0's four numbers a cell (terrain, owner,
 * value, badges), a later frame's [gap, fields, values…] changes;
 * layers likewise.
 * @typedef {Object} Frame
 * @property {number} turn
 * @property {number} active the player who acted (sequential), -1 none
 * @property {number[]} cells
 * @property {number[][]} [layers]
 * @property {number[][]} values values[p][metric]
 * @property {Entity[]} [entities]
 * @property {Effect[]} [effects]
 * @property {PackedEvent[]} [events]
 * @property {string[][]} [commands] commands[p]: as sent
 * @property {number[]} [sent]
 * @property {PackedError[]} [errors]
 * @property {number[]} [rejected]
 * @property {string[]} [faults]
 * @property {string[]} [logs]
 * @property {number[]} [replies] replies[p]: the seat's reply time in µs, -1 not timed
 * @property {PackedMark[]} [marks] what the bots drew answering turn turn-1 (drawn over that turn's board)
 * @property {number[]} [ranking]
 * @property {boolean} [no_commands]
 */

/**
 * A mark a bot drew (docs/bot-protocol.md "Marks"): k "dot", "line",
 * "cell" or "text", at cell (x, y) (a line to (x2, y2)), in colour c
 * ("#rrggbb"; the seat's when absent), t a text mark's text.
 * @typedef {Object} PackedMark
 * @property {string} k
 * @property {number} p seat, from 0
 * @property {number} x
 * @property {number} y
 * @property {number} [x2]
 * @property {number} [y2]
 * @property {string} [c]
 * @property {string} [t]
 */

/**
 * @typedef {Object} Entity
 * @property {string} k kind
 * @property {number} p player
 * @property {number} x
 * @property {number} y
 * @property {number} h health
 * @property {number} [v]
 * @property {string} [l] label
 */

/**
 * An effect of the turn: k is 'line' (to x2, y2), 'area' (radius r),
 * 'path' (through pts, x and y pairs) or 'mark'; n its name. An omitted
 * number is 0.
 * @typedef {Object} Effect
 * @property {string} k
 * @property {string} [n]
 * @property {number} p
 * @property {number} x
 * @property {number} y
 * @property {number} [x2]
 * @property {number} [y2]
 * @property {number} [r]
 * @property {number[]} [pts]
 * @property {number} [v]
 */

/**
 * @typedef {Object} PackedEvent
 * @property {number} k
 * @property {string} n
 * @property {number} p
 * @property {number} o
 * @property {number} x
 * @property {number} y
 * @property {number} v
 * @property {string} t
 */

/**
 * @typedef {Object} PackedError
 * @property {number} p
 * @property {number} i the command's index, -1 none
 * @property {number} c
 * @property {string} t
 */

/**
 * A cell at a turn.
 * @typedef {Object} Cell
 * @property {number} x
 * @property {number} y
 * @property {number} terrain
 * @property {number} owner -1: nobody
 * @property {number} value
 * @property {number} badges one bit per P.board.badges
 */

/**
 * A command of a frame as a painter's parse reads it (Geometry.commandsOf):
 * cmd is what parse returned.
 * @template T
 * @typedef {Object} ParsedCommand
 * @property {number} p the player
 * @property {number} i its index among the player's commands
 * @property {T} cmd
 * @property {boolean} failed the frame's errors name it
 */

/**
 * The board's geometry and colours as a painter draws with them, and the
 * frame drawn (Board.geometry: the view's turn, its frame and the one
 * before, the player selected, the cell radius).
 * @typedef {Object} Geometry
 * @property {function(number, number): number[]} center the pixel centre of cell (x, y)
 * @property {function(number): string} color a player's colour (#rrggbb)
 * @property {boolean} dark the page is dark
 * @property {function(): number} step the distance between neighbours' centres
 * @property {function(number, number, number, number): number} distance steps between two cells
 * @property {function(number, number, number, boolean=): void} cellPath a cell's outline at (cx, cy) of radius r as the current path (with more: added to it)
 * @property {function(number, number): boolean} inBoard
 * @property {function(number): string} name a player's name
 * @property {function(string): string} textColor the ink readable on a fill of colour hex
 * @property {function(number, number, number): Cell} cellAt cell (x, y) at turn t (it may replay up to 32 frames of changes: for a few cells, not every cell of a draw)
 * @property {function(string, number, number, number): (number|null)} layer layer name's value at (x, y) at turn t; null for a layer the board has not
 * @property {<T>(f: Frame, parse: (text: string) => (T|null)) => ParsedCommand<T>[]} commandsOf the frame's commands as parse reads them (null: one it does not draw), parsed once a frame (a painter has one parse)
 * @property {Object<string, string|boolean>} controls each painter control's value (a select's) or state (a checkbox's)
 * @property {number} r the cell radius
 * @property {number} turn the turn drawn
 * @property {Frame} frame the frame drawn
 * @property {Frame|null} prev the frame before (null at turn 0)
 * @property {Packed} packed
 * @property {number} selected the player picked in the legend or table, -1 none
 */

/**
 * A painter's own toggle: a select when it has choices ([value, text]
 * each), else a checkbox (on: ticked at first, unless false). Its key,
 * one the page does not take, steps the choices or flips the box; a
 * change redraws the board and the legend.
 * @typedef {Object} PainterControl
 * @property {string} id
 * @property {string} [label]
 * @property {string} [key]
 * @property {string} [help]
 * @property {Array<Array<string>>} [choices]
 * @property {boolean} [on]
 */

/**
 * A legend's item: text, or a swatch of color with its text.
 * @typedef {string|{color: string, text: string}} LegendItem
 */

/**
 * A game's look on the replay page (rewind.boards[ID]). at is the cell's
 * or entity's pixel centre, R the cell radius, g the geometry.
 * @typedef {Object} Painter
 * @property {function(number, Cell, boolean): (string|null)} [terrainColor] a terrain's fill
 * @property {function(number): (string|null)} [terrainName] a terrain's name (the inspector)
 * @property {function(Cell): (string|null)} [cellLabel] the text on a cell in place of its value
 * @property {function(number, string): ({text: string, color: string}|false|null)} [badge] how a badge bit is drawn; false: not drawn
 * @property {function(string, number, Frame, Geometry): (string|null)} [command] player p's command (as sent) in words, for the commands panel; null keeps the text
 * @property {function(CanvasRenderingContext2D, Cell, number[], number, Geometry): boolean} [cell] draws over the cell's terrain fill (before its label and badges); true skips the owner's fill
 * @property {boolean} [fills] cell paints the whole cell: the board fills no terrain first
 * @property {function(CanvasRenderingContext2D, Entity, number[], number, Geometry): boolean} [entity] draws an entity; true: drawn
 * @property {function(CanvasRenderingContext2D, Effect, Geometry): boolean} [effect] draws an effect; true: drawn
 * @property {function(CanvasRenderingContext2D, Frame, Geometry): (string[]|null)} [overlay] draws last, over entities and effects, while the effects are shown; the names of what it drew (rewind.drawn.overlay)
 * @property {function(Cell, Geometry): (Array<[string, (string|Node)]>|null)} [inspect] the inspector's rows ([name, text]) in place of its badges row
 * @property {function(number, Frame, Geometry): ({text: string, id?: string}[]|null)} [player] lines on the selected player, as text
 * @property {string|LegendItem[]|function(Packed, Geometry): (string|LegendItem[])} [legend] what the colours mean
 * @property {PainterControl[]} [controls]
 * @property {function(number, Geometry): (string|null)} [turnLabel] a caption of turn t, shown after the page's "turn t / last" (the scrubber's value text too): what a turn is in the game's own time ("tick 119 · 23.8 s"); null: none
 * @property {function(Geometry): (TurnAxis|null)} [turnAxis] the charts' horizontal axis in the game's own time; null: in turns
 * @property {function(number): number[]} [hiveMark] (Monad) the offset of a hive's mark from its cell's centre
 */

/**
 * The charts' horizontal axis in a game's own time: its name (a unit, "s")
 * and the text of turn t's position on it (label(t)).
 * @typedef {Object} TurnAxis
 * @property {string} name
 * @property {function(number): string} label
 */

/**
 * What the last draw put on the board.
 * @typedef {Object} Drawn
 * @property {number} cells
 * @property {number} entities
 * @property {string[]} effects
 * @property {string[]} overlay
 * @property {number} [marks] how many bot marks it drew
 */

/**
 * What the parts of the page share: the replay (r: null until loaded;
 * replay() is it, and throws before), the game's painter, the view and
 * the painter's controls.
 * @typedef {Object} PageState
 * @property {Replay|null} r
 * @property {function(): Replay} replay
 * @property {Painter} painter
 * @property {{turn: number, selected: number, hover: number, pinned: number, showEffects: boolean, hiddenMarks?: Object<number, boolean>}} view the turn shown, the player selected, the cell hovered and pinned, the effects shown, the seats whose marks are hidden
 * @property {Object<string, string|boolean>} controls
 */

/**
 * A packed replay opened (decode.js).
 * @typedef {Object} Replay
 * @property {Packed} P
 * @property {number} F frames
 * @property {number} W
 * @property {number} H
 * @property {number} N cells
 * @property {number} NP players
 * @property {Float64Array[]} layers the layers' values at the turn last asked for
 * @property {Object<string, number>} maxHealth the most health each entity kind has
 * @property {function(number): void} cellsAt makes the cells turn t's
 * @property {function(number): Cell} cellOf cell i of the turn last asked for
 * @property {function(number, number, number): Cell} cellAt
 * @property {function(string, number, number, number): (number|null)} layerAt
 * @property {function(number, number): boolean} inBoard
 * @property {function(): void} warm
 */

/**
 * @typedef {Object} Playback
 * @property {function(number|string): void} seek
 * @property {function(number): void} step
 * @property {function(): void} play
 * @property {function(): void} pause
 * @property {function(): void} wire
 * @property {function(unknown): void} fail
 * @property {function(number): void} setSpeed
 * @property {function(number): void} changeSpeed
 * @property {Object<string, function(): void>} actions
 * @property {HTMLInputElement} scrubber
 * @property {function(): number} turn
 * @property {function(): boolean} playing
 * @property {function(): number} speed
 * @property {function(): void} loaded
 */

/**
 * @typedef {Object} Keys
 * @property {function(): void} wire
 * @property {function(boolean=): void} toggleHelp
 */

/**
 * @typedef {Object} Board
 * @property {function(): void} layout
 * @property {function(): void} draw
 * @property {function(MouseEvent): number} cellAt
 * @property {function(number, number): number[]} center
 * @property {function(number): string} color
 * @property {function(number): string} name
 * @property {function(number): ({text: string, color: string}|null)} badgeOf
 * @property {function(): Geometry} geometry the geometry at the view's turn, brought up to date
 * @property {function(): number} radius
 * @property {function(): number} pixelRatio
 * @property {function(): void} wireZoom puts the zoom's buttons beside the canvas, listens to the wheel and pointers
 * @property {function(number, number=, number=): void} zoomBy multiplies the zoom around a CSS pixel of the canvas
 * @property {function(): void} resetZoom shows the whole board again
 * @property {function(number[]): number[]} toCanvas a board point's CSS pixel on the canvas, through the zoom
 * @property {function(): {z: number, x: number, y: number}} zoom the zoom and the shift (CSS pixels)
 * @property {function(): boolean} dragged whether the pointer moved the board since it went down
 */

/**
 * @typedef {Object} LogHit
 * @property {number} turn
 * @property {number} player the first player whose log at turn holds the text
 */

/**
 * @typedef {Object} LogSearch
 * @property {function(): void} build
 * @property {function(number, string=): void} next
 */

/**
 * @typedef {Object} Panels
 * @property {function(): void} renderActive
 * @property {function(): void} renderPlayers
 * @property {function(): void} renderInspector
 * @property {function(): void} renderCommands
 * @property {function(): void} buildLegend
 * @property {function(): void} markLegend
 * @property {function(): void} showOutcome
 * @property {function(HTMLElement): void} notices
 * @property {function(): void} buildControls
 * @property {function(string): boolean} controlKey
 * @property {function(boolean): void} setAllMetrics
 */

/**
 * @typedef {Object} Events
 * @property {function(): void} build
 * @property {function(number): void} jump
 * @property {function(number): void} jumpFailed
 * @property {function(number): void} mark
 */

/**
 * What a chart shows and how (charts.js): its metric, its scale, its
 * place and its metric picker (null: the game has few enough metrics to
 * chart each).
 * @typedef {Object} MetricView
 * @property {number} metric
 * @property {boolean} log
 * @property {HTMLElement} div
 * @property {HTMLSelectElement|null} sel
 * @property {number} [gridTop] where the plot starts, below the legend's rows (charts.js: fitLegend)
 */

/**
 * An ECharts chart of the turns: move(t) puts its cursor at turn t;
 * rect, its plot area, is null until measured again.
 * @typedef {Object} ChartView
 * @property {ECharts} chart
 * @property {HTMLElement} cursor
 * @property {{x: number, y: number, width: number, height: number}|null} rect
 * @property {HTMLElement} div
 * @property {function(number): void} move
 * @property {MetricView} view
 */

/**
 * What a chart shows (rewind.chartState, for the tests): its metric, its
 * legend's state, its y axis's type, its title and its series.
 * @typedef {Object} ChartState
 * @property {string} metric
 * @property {Object<string, boolean>} selected
 * @property {string|undefined} yType
 * @property {string|undefined} title
 * @property {(string|undefined)[]} names
 */

/**
 * @typedef {Object} Charts
 * @property {function(): void} build
 * @property {function(): void} refresh
 * @property {function(number): void} move
 * @property {function(): void} highlight
 * @property {function(): void} resize
 * @property {function(number, string): boolean} pickMetric
 * @property {function(number, boolean): void} logScale
 * @property {function(number, string, boolean): void} legendSelect
 * @property {function(number): string} chartCSV
 * @property {function(): ChartState[]} chartState
 */

/**
 * What a clip is made of (clip.js): the boards drawn (each canvas, with a
 * label naming its replay on the compare page), the line saying the turn
 * shown, the page's seek and turn, its frames and the name its files take.
 * @typedef {Object} ClipSource
 * @property {function(): {canvas: HTMLCanvasElement, label: string}[]} boards
 * @property {function(): string} label
 * @property {function(number): void} seek
 * @property {function(): number} turn
 * @property {function(): number} frames
 * @property {function(): string} name
 */

/**
 * @typedef {Object} Clip
 * @property {function(): void} wire
 * @property {function(): Promise<Blob>} png
 * @property {function({from: number, to: number, fps: number, charts: boolean}): Promise<Blob>} webm
 */

/**
 * The last clip exported (rewind.clipResult): its type, size in bytes,
 * object URL, file name and turns, or why it failed (error).
 * @typedef {Object} ClipResult
 * @property {string} type
 * @property {number} size
 * @property {string} url
 * @property {string} file
 * @property {number} from
 * @property {number} to
 * @property {string} error
 */

/**
 * The compare page's API (compare.js, rewind.compare): each board's
 * turn, what it drew, the first divergence's turn (-1: none; null: not
 * known yet), whether the boards are locked, and the seats whose commands
 * are marked differing at the turns shown.
 * @typedef {Object} CompareAPI
 * @property {function(): {a: number, b: number}} turns
 * @property {function(): {a: Drawn, b: Drawn}} drawn
 * @property {function(): (number|null)} divergence
 * @property {function(boolean): void} lock
 * @property {function(number): void} seekB
 * @property {function(): number[]} differing
 */

/**
 * @typedef {Object} Fork
 * @property {function(): void} wire
 * @property {function(number): void} update
 */

/**
 * A live game as the server announces it (its events' JSON).
 * @typedef {Object} LiveGame
 * @property {number} turn
 * @property {number} max_turn
 * @property {boolean} [done]
 * @property {string} [replay] the finished replay's address
 */

/**
 * A live game's page's state (rewind.live): the game as last announced,
 * whether it is over, how many times the page took in new turns.
 * @typedef {Object} LiveState
 * @property {LiveGame|null} game
 * @property {boolean} over
 * @property {number} updates
 */

/**
 * @typedef {Object} Live
 * @property {function(): void} follow
 * @property {function(): LiveState} state
 */

/**
 * The page's one namespace, window.rewind: its parts (each script's),
 * the painters, the helpers they share, and the page's API.
 * @typedef {Object} Rewind
 * @property {{el: <K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Object<string, string>|null, ...kids: (Node|string|null)[]) => HTMLElementTagNameMap[K], byId: <T extends HTMLElement = HTMLElement>(id: string, type?: new () => T) => T, clear: function(Node): void, fmt: function(number): string, replyText: function(number): string, swatch: function(string): HTMLElement, errorText: function(unknown): string, dark: boolean}} dom
 * @property {{words: function(unknown): string, at: function(number, number): string, font: function(number, boolean=, number=): string, textColor: function(string): string, shade: function(number[], number[], number): string, arrowHead: function(CanvasRenderingContext2D, number, number, number, number, number, string): void, star: function(CanvasRenderingContext2D, number, number, number, number, number): void, burst: function(CanvasRenderingContext2D, number, number, number, string): void, haloText: function(CanvasRenderingContext2D, string, number, number, string, string, number): void, polyline: function(CanvasRenderingContext2D, number[][]): void}} paint
 * @property {Object<string, Painter>} boards the painters by game id
 * @property {{fetch: function(string): Promise<ArrayBuffer>, load: function(HTMLElement): Promise<ArrayBuffer>, open: function(ArrayBuffer): Replay}} decode
 * @property {{(o: {frames: function(): number, onTurn: function(number): void, caption?: function(number): (string|null), actions?: Object<string, function(): void>}): Playback, hashTurn: function(string=): (number|null)}} playback
 * @property {function(Playback, {keys?: function(KeyboardEvent): boolean, onEscape?: function(): void}): Keys} keys
 * @property {{(st: PageState, canvas: HTMLCanvasElement): Board, controlValue: function(PainterControl): (string|boolean)}} board
 * @property {function(PageState, Board, {changed: function(): void}): Panels} panels
 * @property {function(PageState, Playback, Board): Events} events
 * @property {function(PageState, Playback, {select: function(number): void}): LogSearch} logSearch
 * @property {function(PageState, Playback, HTMLElement, Board, {st: PageState, bd: Board}=): Charts} charts
 * @property {function(ClipSource): Clip} clip
 * @property {function(PageState, Playback, Board): Fork} fork
 * @property {function(HTMLElement, {frames: function(): number, extend: function(ArrayBuffer): void}): Live} follow
 * @property {string} game
 * @property {boolean} ready
 * @property {string|null} error
 * @property {boolean} chartsReady
 * @property {Drawn} drawn
 * @property {function(number): void} seek
 * @property {function(string, number): void} searchLogs
 * @property {function(): number} turn
 * @property {function(): number} frames
 * @property {function(): (Packed|null)} packed
 * @property {function(number, number): number[]} center
 * @property {function(number, number, number): Cell} cell
 * @property {function(string, number, number, number): (number|null)} layer
 * @property {function(number): string} color
 * @property {function(): number} radius
 * @property {function(): {z: number, x: number, y: number}} zoom the board's zoom and shift (CSS pixels)
 * @property {function(number, number=, number=): void} zoomBy zooms the board by a factor around a CSS pixel of the canvas
 * @property {function(number): void} select
 * @property {function(): (LiveState|null)} live
 * @property {function(boolean): void} allMetrics
 * @property {function(): Object<string, string|boolean>} controls
 * @property {function(number, string): boolean} pickMetric
 * @property {function(number, boolean): void} logScale
 * @property {function(number, string, boolean): void} legendSelect
 * @property {function(number): string} chartCSV
 * @property {function(): ChartState[]} chartState
 * @property {ClipResult} [clipResult]
 * @property {CompareAPI} [compare]
 */
