/** The results of a run: bench/results.json, and the tables printed on stdout (the README's Performance section quotes them). */
import fs from 'node:fs'
import os from 'node:os'
import type { FirstVisitJs } from './first-visit-js.ts'
import type { LighthouseScores } from './lighthouse.ts'
import type { LoadResult } from './load.ts'
import { DASHBOARD_PAGE, FLOOR_PAGE, P99_GOAL_MS } from './options.ts'
import type { SseResult } from './sse-load.ts'
import type { Target } from './targets.ts'

export type TargetResult = {
	database: Target['kind']
	workers: number
	floor: LoadResult & { htmlBytes: number }
	signedInPages: LoadResult[]
	seedSeconds: number
	pageCache: { first: string | null; second: string | null; etag: string | null; cacheControl: string | null }
	pages: LoadResult[]
	javascript: FirstVisitJs[]
	sse: SseResult | null
	lighthouse: LighthouseScores[]
}

export type Summary = {
	date: string
	machine: ReturnType<typeof describeMachine>
	settings: {
		connections: number
		durationSeconds: number
		warmUpSeconds: number
		capacityProbeSeconds: number
		p99GoalMs: number
		cpuProfile: boolean
	}
	totalSeconds: number
	results: TargetResult[]
}

export function describeMachine() {
	return {
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? 'unknown',
		memoryGb: Math.round(os.totalmem() / 2 ** 30),
		node: process.version,
		platform: `${os.type()} ${os.release()}`,
	}
}

export function writeResults(summary: Summary) {
	fs.mkdirSync('bench', { recursive: true })
	fs.writeFileSync('bench/results.json', `${JSON.stringify(summary, null, '\t')}\n`)
}

export function printReport({ machine, settings, results, totalSeconds }: Summary) {
	console.log(
		`\nMachine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}; ${settings.connections} connections, ${settings.durationSeconds} s after ${settings.warmUpSeconds} s warm-up`,
	)
	printTable(results)
	printFloorTables(results)
	console.log(`\nTotal ${totalSeconds} s; written to bench/results.json`)
}

function printTable(results: TargetResult[]) {
	const rows: string[][] = [['database', 'measure', 'value']]
	for (const result of results) {
		const db = result.database
		rows.push([db, 'scale seed', `${result.seedSeconds} s`])
		rows.push([db, 'server processes (WEB_CONCURRENCY)', String(result.workers)])
		rows.push([db, 'X-Page-Cache on / (1st → 2nd)', `${result.pageCache.first} → ${result.pageCache.second}`])
		for (const page of result.pages) {
			rows.push([
				db,
				page.page,
				`${page.rps} req/s · p50 ${page.p50} ms · p99 ${page.p99} ms · non-2xx ${page.non2xx} · errors ${page.errors} · ${page.cpuMsPerRequest} ms CPU/req`,
			])
		}
		const ssr = result.pages.find((page) => page.page === '/')
		const bare = result.pages.find((page) => page.page.startsWith('/ (bare'))
		if (ssr && bare) rows.push([db, '/ SSR ÷ bare (throughput)', `${Math.round((ssr.rps / bare.rps) * 100)} %`])
		for (const js of result.javascript) {
			rows.push([
				db,
				`first-visit JS ${js.page}`,
				`${js.gzipKb} KB gzip in ${js.files} files${js.pdfjs ? ' (includes pdf.js)' : ''}; inline ${js.inlineGzipKb} KB`,
			])
		}
		if (result.sse) {
			const sse = result.sse
			rows.push([
				db,
				`SSE ${sse.clients} clients`,
				`delivered ${sse.delivered} · p50 ${sse.p50Ms} ms · p99 ${sse.p99Ms} ms · per connection ${sse.livePerConnectionKb} KB live, ${sse.rssPerConnectionKb} KB RSS`,
			])
		}
		for (const scores of result.lighthouse) {
			rows.push([
				db,
				`Lighthouse mobile ${scores.page}`,
				`perf ${scores.performance} · a11y ${scores.accessibility} · best ${scores.bestPractices} · SEO ${scores.seo}`,
			])
		}
	}
	console.log(markdownTable(rows))
}

function markdownTable(rows: string[][]) {
	const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
	const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
	return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n')
}

const ratio = (value: number | undefined, base: number | undefined) =>
	value !== undefined && base !== undefined && base > 0 && Number.isFinite(value) ? (value / base).toFixed(2) : '–'

/**
 * The signed-in pages against the floor app, per database: CPU per request and capacity at the p99
 * goal; and each page's CPU per request beside the student's /dashboard (issue 43: the overview's).
 */
function printFloorTables(results: TargetResult[]) {
	const rows: string[][] = [
		['database', 'page', 'KB/response', 'CPU/req', '÷ floor', `÷ ${DASHBOARD_PAGE}`, `req/s at p99 ≤ ${P99_GOAL_MS} ms`, 'floor ÷ page'],
	]
	for (const result of results) {
		const { floor } = result
		const dashboard = result.signedInPages.find((page) => page.page === DASHBOARD_PAGE)
		const cell = (value: number | undefined, unit: string) => (value === undefined ? '–' : `${value} ${unit}`)
		rows.push([
			result.database,
			`${floor.page}, ${Math.round(floor.htmlBytes / 102.4) / 10} KB HTML`,
			cell(floor.kbPerResponse, 'KB'),
			cell(floor.cpuMsPerRequest, 'ms'),
			'1.00',
			ratio(floor.cpuMsPerRequest, dashboard?.cpuMsPerRequest),
			cell(floor.capacity, ''),
			floor.capacity === undefined ? '–' : '1.00',
		])
		for (const page of result.signedInPages) {
			rows.push([
				result.database,
				page.page,
				cell(page.kbPerResponse, 'KB'),
				cell(page.cpuMsPerRequest, 'ms'),
				ratio(page.cpuMsPerRequest, floor.cpuMsPerRequest),
				ratio(page.cpuMsPerRequest, dashboard?.cpuMsPerRequest),
				cell(page.capacity, ''),
				ratio(floor.capacity, page.capacity),
			])
		}
	}
	console.log(`\nSigned-in pages against the floor app and against ${DASHBOARD_PAGE} (lower is better in every ratio column):`)
	console.log(markdownTable(rows))
	const embedded = results.find((result) => result.database === 'embedded')
	const external = results.find((result) => result.database === 'postgres')
	if (!embedded || !external) return
	const compared: string[][] = [['page', 'CPU/req embedded ÷ external', 'p99 embedded ÷ external', 'capacity external ÷ embedded']]
	for (const page of embedded.pages) {
		const other = external.pages.find((candidate) => candidate.page === page.page)
		if (!other) continue
		compared.push([
			page.page,
			ratio(page.cpuMsPerRequest, other.cpuMsPerRequest),
			ratio(page.p99, other.p99),
			ratio(other.capacity, page.capacity),
		])
	}
	const otherFloor = external.floor
	compared.push([
		FLOOR_PAGE,
		ratio(embedded.floor.cpuMsPerRequest, otherFloor.cpuMsPerRequest),
		ratio(embedded.floor.p99, otherFloor.p99),
		ratio(otherFloor.capacity, embedded.floor.capacity),
	])
	console.log(`\nEmbedded PostgreSQL against external PostgreSQL (the server's CPU only; 1.00 = the same):`)
	console.log(markdownTable(compared))
}
