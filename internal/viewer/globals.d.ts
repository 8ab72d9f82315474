// What the replay page's scripts (static/*.js, games/ID/board.js) find
// in the browser beyond the DOM, for tsc --checkJs (tsconfig.json).
interface Window {
  rewind: Rewind;
  // ECharts (internal/assets/echarts), once its script has loaded: the
  // replay page loads it after the first frame (charts.js), the library
  // page for a bot's rating chart (library-index.js).
  echarts?: EChartsLibrary;
  // The library page's (library.js) refresh of its rows, which
  // library-index.js replaces on an indexed library.
  rewindLibraryRefresh?: () => void;
}

// The part of ECharts' API the page scripts use (its documented
// instance methods and events, https://echarts.apache.org/en/api.html,
// and the grid's plot area, which getModel reaches).
interface EChartsLibrary {
  init(dom: HTMLElement, theme?: string | null): ECharts;
}

// A legend's event (legendselectchanged, legendselected,
// legendunselected): the series named, and every series' state.
interface EChartsLegendEvent {
  name: string;
  selected?: { [series: string]: boolean };
}

// What getOption gives back of an option: each component as a list.
interface EChartsOptionRead {
  legend?: { selected?: { [series: string]: boolean } }[];
  yAxis?: { type?: string }[];
  title?: { text?: string }[];
  series?: { name?: string }[];
}

interface EChartsRect { x: number; y: number; width: number; height: number }

// A component of a chart's model (the grid, with its plot area; the legend).
interface EChartsComponent {
  coordinateSystem?: { getRect(): EChartsRect };
}

interface ECharts {
  setOption(option: object, notMerge?: boolean | { replaceMerge?: string[] }): void;
  getOption(): EChartsOptionRead;
  on(event: 'datazoom', handler: () => void): void;
  on(event: 'legendselectchanged' | 'legendselected' | 'legendunselected', handler: (ev: EChartsLegendEvent) => void): void;
  getZr(): { on(event: 'click', handler: (ev: { offsetX: number; offsetY: number }) => void): void };
  containPixel(finder: string, point: number[]): boolean;
  convertFromPixel(finder: { xAxisIndex: number }, value: number): number | number[];
  convertToPixel(finder: { xAxisIndex: number }, value: number): number;
  getModel(): { getComponent(type: string): EChartsComponent | null | undefined };
  // The view of a component (its laid-out group: the legend's rows).
  getViewOfComponentModel(model: EChartsComponent): { group: { getBoundingRect(): EChartsRect } } | null | undefined;
  dispatchAction(action: { type: string; seriesName?: string; name?: string }): void;
  resize(): void;
  getDataURL(opts: { type: string; pixelRatio?: number; backgroundColor?: string }): string;
}
