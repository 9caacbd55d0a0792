// Summary statistics over repeated runs (seeds): the tables and the figures
// give a mean with its 95% interval, Student's t.

/** Two-sided 95% Student t quantiles for 1..30 degrees of freedom. */
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** Mean and 95% half-width of the values (half-width 0 for one value). */
export function meanCi(xs: number[]): { mean: number; half: number } {
  const n = xs.length, mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, half: 0 };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const t = n - 1 <= 30 ? T95[n - 2] : 1.96;
  return { mean, half: (t * sd) / Math.sqrt(n) };
}

/** A table cell: the finite values (times `scale`) as "mean ± half" ("mean" for one value, "-" for none), to `digits` places. */
export function meanCiText(xs: number[], digits: number, scale = 1): string {
  const v = xs.filter((x) => Number.isFinite(x));
  if (v.length === 0) return "-";
  const { mean, half } = meanCi(v.map((x) => x * scale));
  return half > 0 ? `${mean.toFixed(digits)} ± ${half.toFixed(digits)}` : mean.toFixed(digits);
}
