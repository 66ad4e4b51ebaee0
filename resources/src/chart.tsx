// Small hand-drawn charts (no chart library: the first load stays small and the chart is in the lazy
// chunks of the pages that draw it). LineChart: axes with values, one line per series told apart by
// colour, marker shape and dash, a legend, and a tooltip on hover, touch (it stays after the finger
// lifts) or keyboard focus (arrow keys move it). BarList: labelled horizontal bars with their values written out.
import type { RefObject } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import './chart.css'

export interface ChartSeries { key: string, label: string }
/** One x position: its axis label, a longer title for the tooltip, and a value per series key. */
export interface ChartPoint { label: string, title?: string, values: Record<string, number> }

const H = 220
const M = { left: 52, right: 14, top: 14, bottom: 30 }
const DASH = ['', '7 4', '2 4', '10 4 2 4', '4 2']
const compact = (v: number): string => new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(v)
const full = (v: number): string => v.toLocaleString(undefined, { maximumFractionDigits: 2 })

/** Round tick values from 0 to at least `max` (about four steps of 1, 2 or 5 times a power of ten). */
function ticks (max: number): number[] {
  if (!(max > 0)) return [0, 1]
  const raw = max / 4
  const p = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map(m => m * p).find(s => s >= raw) ?? raw
  const out: number[] = []
  for (let v = 0; v < max + step / 2; v += step) out.push(Number(v.toPrecision(12)))
  if ((out.at(-1) ?? 0) < max) out.push(Number((out.length * step).toPrecision(12)))
  return out
}

/** The marker of series j at (x, y): circle, square, triangle, diamond, cross. */
function Marker ({ j, x, y, r = 3.5 }: { j: number, x: number, y: number, r?: number }) {
  const cls = `cx-m cx-s${j % 5}`
  switch (j % 5) {
    case 1: return <rect class={cls} x={x - r} y={y - r} width={r * 2} height={r * 2} />
    case 2: return <path class={cls} d={`M${x},${y - r - 1} L${x + r + 1},${y + r} L${x - r - 1},${y + r} Z`} />
    case 3: return <path class={cls} d={`M${x},${y - r - 1} L${x + r + 1},${y} L${x},${y + r + 1} L${x - r - 1},${y} Z`} />
    case 4: return <path class={`${cls} cx-cross`} d={`M${x - r},${y - r} L${x + r},${y + r} M${x + r},${y - r} L${x - r},${y + r}`} />
    default: return <circle class={cls} cx={x} cy={y} r={r} />
  }
}

function Swatch ({ j }: { j: number }) {
  return <svg class="cx-swatch" width="28" height="12" aria-hidden="true">
    <line class={`cx-line cx-s${j % 5}`} x1="1" y1="6" x2="27" y2="6" stroke-dasharray={DASH[j % 5]} />
    <Marker j={j} x={14} y={6} r={3} />
  </svg>
}

/** The width the chart has on the page (redrawn when it changes: text is never stretched). */
function useWidth (): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null)
  const [w, setW] = useState(600)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const set = (): void => setW(Math.max(240, Math.floor(el.clientWidth)))
    set()
    const ro = new ResizeObserver(set)
    ro.observe(el)
    return () => ro.disconnect()
  }, [])
  return [ref, w]
}

export function LineChart ({ title, series, points, testid, format = full }: {
  title: string, series: ChartSeries[], points: ChartPoint[], testid?: string, format?: (v: number) => string
}) {
  const [ref, w] = useWidth()
  const [active, setActive] = useState<number | null>(null)
  const n = points.length
  const max = Math.max(0, ...points.flatMap(p => series.map(s => p.values[s.key] ?? 0)))
  const ys = ticks(max)
  const top = ys.at(-1) || 1
  const plotW = w - M.left - M.right
  const plotH = H - M.top - M.bottom
  const x = (i: number): number => M.left + (n < 2 ? plotW / 2 : (i / (n - 1)) * plotW)
  const y = (v: number): number => M.top + plotH - (v / top) * plotH
  const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor(plotW / 64))))
  const markers = n <= 48
  const pick = (clientX: number, el: Element): void => {
    if (n === 0) return
    const box = el.getBoundingClientRect()
    const px = (clientX - box.left) * (w / box.width)
    const i = n < 2 ? 0 : Math.round(((px - M.left) / plotW) * (n - 1))
    setActive(Math.min(n - 1, Math.max(0, i)))
  }
  const onKey = (e: KeyboardEvent): void => {
    if (n === 0) return
    const cur = active ?? n - 1
    const next = e.key === 'ArrowLeft' ? cur - 1 : e.key === 'ArrowRight' ? cur + 1 : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : e.key === 'Escape' ? null : undefined
    if (next === undefined) return
    e.preventDefault()
    setActive(next === null ? null : Math.min(n - 1, Math.max(0, next)))
  }
  const p = active === null ? undefined : points[active]
  const left = active === null ? 0 : x(active)
  return <figure class="cx-chart" data-testid={testid}>
    <figcaption class="cx-title">{title}</figcaption>
    <div ref={ref} class="cx-plot" tabIndex={0} role="group" aria-label={title} aria-roledescription="chart"
      onKeyDown={onKey} onFocus={() => setActive(a => a ?? (n ? n - 1 : null))} onBlur={() => setActive(null)}>
      <svg width={w} height={H} viewBox={`0 0 ${w} ${H}`} aria-hidden="true"
        onPointerMove={e => pick(e.clientX, e.currentTarget)} onPointerDown={e => pick(e.clientX, e.currentTarget)} onPointerLeave={e => { if (e.pointerType === 'mouse') setActive(null) }}>
        {ys.map(v => <g key={v} class="cx-ytick" data-value={v}>
          <line class="cx-grid" x1={M.left} x2={w - M.right} y1={y(v)} y2={y(v)} />
          <text x={M.left - 6} y={y(v)} dy="0.32em" text-anchor="end">{compact(v)}</text>
        </g>)}
        <line class="cx-axis" x1={M.left} x2={M.left} y1={M.top} y2={M.top + plotH} />
        <line class="cx-axis" x1={M.left} x2={w - M.right} y1={M.top + plotH} y2={M.top + plotH} />
        {points.map((pt, i) => (i % every === 0 && (n - 1 - i >= every || i === n - 1)) || i === n - 1
          ? <text key={i} class="cx-xtick" x={x(i)} y={H - 10} text-anchor={n > 1 && i === n - 1 ? 'end' : n > 1 && i === 0 ? 'start' : 'middle'}>{pt.label}</text>
          : null)}
        {active !== null && <line class="cx-guide" x1={left} x2={left} y1={M.top} y2={M.top + plotH} />}
        {/* where lines run together (equal values) each later one is drawn thinner on top, with smaller
            markers: every line stays visible as a stripe inside the one before */}
        {series.map((s, j) => {
          const k = series.length - 1 - j
          return <g key={s.key}>
            <polyline class={`cx-line cx-s${j % 5}`} stroke-width={1.5 + k * 1.5} stroke-dasharray={DASH[j % 5]} points={points.map((pt, i) => `${x(i)},${y(pt.values[s.key] ?? 0)}`).join(' ')} />
            {points.map((pt, i) => markers || i === active ? <Marker key={i} j={j} x={x(i)} y={y(pt.values[s.key] ?? 0)} r={(i === active ? 4 : 2.5) + k * 1.2} /> : null)}
          </g>
        })}
      </svg>
      {p && <div class="cx-tip" role="status" data-testid={testid ? `${testid}-tooltip` : 'chart-tooltip'}
        style={{ left: `${Math.min(Math.max(left, 80), w - 80)}px` }}>
        <b>{p.title ?? p.label}</b>
        {series.map((s, j) => <div key={s.key} class="cx-tip-row"><Swatch j={j} /><span>{s.label}</span><b>{format(p.values[s.key] ?? 0)}</b></div>)}
      </div>}
    </div>
    <ul class="cx-legend">{series.map((s, j) => <li key={s.key}><Swatch j={j} />{s.label}</li>)}</ul>
  </figure>
}

/** Horizontal bars, largest first as given, each with its label and value written out. */
export function BarList ({ title, rows, testid, format = full }: {
  title: string, rows: Array<{ label: string, value: number, note?: string }>, testid?: string, format?: (v: number) => string
}) {
  const max = Math.max(0, ...rows.map(r => r.value)) || 1
  return <figure class="cx-bars" data-testid={testid}>
    <figcaption class="cx-title">{title}</figcaption>
    <ul>{rows.map(r => <li key={r.label}>
      <span class="cx-bar-label" title={r.label}>{r.label}</span>
      <span class="cx-bar-track" aria-hidden="true"><span class="cx-bar" style={{ width: `${(r.value / max) * 100}%` }} /></span>
      <span class="cx-bar-value">{format(r.value)}{r.note ? ` · ${r.note}` : ''}</span>
    </li>)}</ul>
  </figure>
}
