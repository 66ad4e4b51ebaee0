// axe-core in a dashboard page for the e2e tests that open states the page-by-page check
// (accessibility.test.ts) does not reach (an editor open, a form with errors). The page's context must be
// made with `bypassCSP: true`: axe is injected inline.
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

interface AxeNode { target: string[], html: string }
interface AxeViolation { id: string, impact: string | null, help: string, nodes: AxeNode[] }

/** The serious and critical violations axe finds in the page now, as readable lines. */
export async function seriousAxeViolations (page: Page): Promise<string[]> {
  if (!await page.evaluate(() => 'axe' in window)) await page.addScriptTag({ path: AXE })
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }).axe
    return (await axe.run(document, { resultTypes: ['violations'] })).violations
  }) as AxeViolation[]
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) =>
    v.nodes.slice(0, 6).map((n) => `${v.impact} ${v.id} (${v.help}): ${n.target.join(' ')} ${n.html.slice(0, 140)}`))
}
