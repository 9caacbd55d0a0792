// A figure before rendering: its file, experiment, title, caption and
// Vega-Lite spec. Its own file, so every figure builder (figures.ts,
// exp5-figures.ts) imports it without importing another builder.
import type { TopLevelSpec } from "vega-lite";

export interface FigureSpec {
  file: string;
  experiment: string;
  title: string;
  caption: string;
  spec: TopLevelSpec;
}
