// The row every benchmark reports (bench/<area>.bench.ts exports `run(): Promise<BenchRow[]>`).
export interface BenchRow { name: string; figure: number; unit: string; target: string; pass: boolean }

/** Percentile of a list of numbers (p in 0..100). */
export function percentile (values: number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number
}
