/**
 * `npm run bench`: builds, seeds the scale data set, starts the production server and
 * measures it on loopback: throughput and latency of the main pages (autocannon), `/`
 * against a bare node:http server sending the same bytes, the signed-in pages against a
 * minimal React Router app (bench/floor-app, built and served the same way, in the same run)
 * as ratios of CPU per request and of capacity at p99 ≤ 100 ms under open-loop load
 * (scripts/bench/open-loop.ts), first-visit JavaScript, 10,000 live-event streams on a server of one process, and Lighthouse. The server runs as configured by default
 * (WEB_CONCURRENCY: a worker per CPU); CPU time and memory are those of all its Node
 * processes (the database's own are not counted, on either kind). The embedded PostgreSQL
 * always, as `npm start` runs it; an external PostgreSQL too when DATABASE_URL is set (in a
 * throwaway database, dropped at the end). Prints one table and writes
 * bench/results.json. Figures are for people to read: nothing here fails on a number.
 * The flags are listed in scripts/bench/options.ts.
 */
import fs from 'node:fs'
import { runningEmbeddedPostgresUrl } from '../lib/embedded-postgres.ts'
import { firstVisitJs } from './first-visit-js.ts'
import { LIGHTHOUSE_PAGES, lighthouse } from './lighthouse.ts'
import { type LoadResult, measure, measureAgainstBare, measureFloor } from './load.ts'
import { log } from './log.ts'
import {
	BUILD_DIR,
	CONNECTIONS,
	CPU_PROFILE_DIR,
	DASHBOARD_PAGE,
	DURATION,
	FLOOR_APP_DIR,
	FLOOR_BUILD_DIR,
	ONLY_PAGES,
	P99_GOAL_MS,
	PROBE_SECONDS,
	SKIP_BUILD,
	skip,
	WARM_UP,
} from './options.ts'
import { processTree } from './proc-stats.ts'
import { bin, HEAP_PROBE_DIR, run, startServer, stopServer } from './processes.ts'
import { describeMachine, printReport, type Summary, type TargetResult, writeResults } from './report.ts'
import { sseOnOneProcess } from './sse-load.ts'
import { createTargets, type Prepared, prepareTarget, removeTarget, type Target } from './targets.ts'

const benchStarted = performance.now()
const targets = await createTargets()
try {
	if (targets.length === 0) throw new Error('Nothing to measure: --skip-embedded without DATABASE_URL.')
	// The build and the seeding of every database run side by side: seeding is mostly database work.
	const skipBuild = SKIP_BUILD && fs.existsSync(BUILD_DIR) && fs.existsSync(FLOOR_BUILD_DIR)
	// One after the other: side by side they would compete for the same two cores as the seeding.
	const building = skipBuild
		? Promise.resolve('')
		: run(bin('react-router'), ['build'], { BUILD_DIR }).then(() =>
				run(bin('react-router'), ['build'], { BUILD_DIR: FLOOR_BUILD_DIR }, FLOOR_APP_DIR),
			)
	const preparing = targets.map(prepareTarget)
	await building
	const prepared = await Promise.all(preparing)
	const results: TargetResult[] = []
	for (const [index, target] of targets.entries()) {
		log(`measuring ${target.kind}`)
		results.push(await benchTarget(target, prepared[index]!, index === 0 && !skip('lighthouse')))
	}
	const summary: Summary = {
		date: new Date().toISOString(),
		machine: describeMachine(),
		settings: {
			connections: CONNECTIONS,
			durationSeconds: DURATION,
			warmUpSeconds: WARM_UP,
			capacityProbeSeconds: PROBE_SECONDS,
			p99GoalMs: P99_GOAL_MS,
			cpuProfile: Boolean(CPU_PROFILE_DIR),
		},
		totalSeconds: Math.round((performance.now() - benchStarted) / 1000),
		results,
	}
	writeResults(summary)
	printReport(summary)
} finally {
	fs.rmSync(HEAP_PROBE_DIR, { recursive: true, force: true })
	for (const target of targets) await removeTarget(target)
}

type SignedInPage = { page: string; path: string; cookie: Record<string, string>; connections?: number }

/**
 * The school's figures at scale (issue 43): the overview of the default range (six months by month)
 * and of five years, the longest the form takes, by month; the accountant's payments export of a year.
 */
function reportPages(admin: Record<string, string>, workers: number): SignedInPage[] {
	const today = new Date()
	const yearsAgo = (years: number) => {
		const day = new Date(today)
		day.setUTCFullYear(day.getUTCFullYear() - years)
		day.setUTCDate(day.getUTCDate() + 1)
		return day.toISOString().slice(0, 10)
	}
	const to = today.toISOString().slice(0, 10)
	return [
		{ page: '/dashboard/admin/overview (admin, last six months)', path: '/dashboard/admin/overview', cookie: admin },
		// A second or more each: a connection per process, so that none waits past autocannon's timeout.
		{
			page: `/dashboard/admin/overview (admin, five years by month; ${workers} connections)`,
			path: `/dashboard/admin/overview?from=${yearsAgo(5)}&to=${to}&group=month`,
			cookie: admin,
			connections: workers,
		},
		// One accountant: a process streams two exports at once and answers 429 beyond, and it counts an
		// export until its cursor is closed, a moment after the client has the last byte and asks again.
		{
			page: '/dashboard/admin/exports/payments.csv (admin, a year; 1 connection)',
			path: `/dashboard/admin/exports/payments.csv?from=${yearsAgo(1)}&to=${to}`,
			cookie: admin,
			connections: 1,
		},
	]
}

async function benchTarget(target: Target, prepared: Prepared, withLighthouse: boolean): Promise<TargetResult> {
	const sse = skip('sse') ? null : await sseOnOneProcess(target, prepared)
	if (sse)
		log(`${target.kind}: SSE p99 ${sse.p99Ms} ms, ${sse.rssPerConnectionKb} KB RSS and ${sse.livePerConnectionKb} KB live per connection`)
	const { child, origin } = await startServer(target)
	try {
		// A cluster's primary only supervises: its children are the workers.
		const workers = Math.max(1, processTree(child.pid!).length - 1)
		const home = await fetch(`${origin}/`)
		const homeBody = Buffer.from(await home.arrayBuffer())
		const again = await fetch(`${origin}/`)
		await again.arrayBuffer()
		const pageCache = {
			first: home.headers.get('x-page-cache'),
			second: again.headers.get('x-page-cache'),
			etag: again.headers.get('etag'),
			cacheControl: again.headers.get('cache-control'),
		}
		log(`${target.kind}: X-Page-Cache ${pageCache.first} → ${pageCache.second}`)

		const student = { Cookie: prepared.studentCookie }
		const admin = { Cookie: prepared.adminCookie }
		const pages: LoadResult[] = []
		if (!skip('public')) {
			pages.push(...(await measureAgainstBare(child.pid!, `${origin}/`, homeBody, home.headers.get('content-type') ?? 'text/html')))
			pages.push(await measure('/courses', child.pid!, `${origin}/courses`))
			pages.push(await measure('/courses/:id', child.pid!, `${origin}/courses/${prepared.courseId}`))
		}

		const databaseUrl = target.env.DATABASE_URL || runningEmbeddedPostgresUrl(target.dataDir)
		if (!databaseUrl) throw new Error(`no running database for the floor app on ${target.kind}`)
		const floor = await measureFloor(databaseUrl, workers)
		const signedIn: SignedInPage[] = [
			// The lightest signed-in page (one query, an empty list): what any signed-in request costs before its own content.
			{ page: '/dashboard/certificates (student, none yet)', path: '/dashboard/certificates', cookie: student },
			{ page: DASHBOARD_PAGE, path: '/dashboard', cookie: student },
			{ page: '/dashboard/messages (student)', path: '/dashboard/messages', cookie: student },
			{ page: '/dashboard/admin/courses (admin)', path: '/dashboard/admin/courses', cookie: admin },
			...reportPages(admin, workers),
		]
		const signedInPages: LoadResult[] = []
		const chosen = signedIn.filter(({ path }) => ONLY_PAGES?.includes(path.split('?')[0]!) ?? true)
		for (const { page, path: pagePath, cookie, connections } of chosen) {
			signedInPages.push(await measure(page, child.pid!, `${origin}${pagePath}`, cookie, { capacity: true, connections }))
		}
		pages.push(...signedInPages)

		const javascript = skip('js')
			? []
			: [
					await firstVisitJs(origin, '/'),
					await firstVisitJs(origin, '/courses'),
					await firstVisitJs(origin, '/dashboard', prepared.studentCookie),
				]
		const lighthouseScores = []
		if (withLighthouse) for (const page of LIGHTHOUSE_PAGES) lighthouseScores.push(await lighthouse(`${origin}${page}`))
		return {
			database: target.kind,
			workers,
			floor,
			signedInPages,
			seedSeconds: Math.round(prepared.seedSeconds),
			pageCache,
			pages,
			javascript,
			sse,
			lighthouse: lighthouseScores,
		}
	} finally {
		await stopServer(child)
	}
}
