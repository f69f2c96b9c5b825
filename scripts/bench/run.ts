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
 *
 * Flags: --skip-build --skip-embedded --skip-postgres --skip-sse --skip-lighthouse --skip-js
 *        --skip-capacity --duration=10 --connections=50 --sse-clients=10000 --probe=4
 *        --quick (for iterating: --skip-sse --skip-lighthouse --skip-js, 3 s runs, 2 s probes)
 *        --cpu-prof=DIR (one server process, profiled while the signed-in pages load: a .cpuprofile in DIR)
 *        --pages=PATH,PATH (only these of the signed-in pages)
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import pg from 'pg'
import { runningEmbeddedPostgresUrl } from '../lib/embedded-postgres.ts'
import { childPids } from '../lib/processes.ts'
import { capacityAtP99 } from './open-loop.ts'

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(`--${name}`)
const option = (name: string, fallback: number) => {
	const value = args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1]
	return value ? Number(value) : fallback
}
const QUICK = flag('quick')
const CPU_PROFILE_DIR = args.find((arg) => arg.startsWith('--cpu-prof='))?.split('=')[1]
/** --pages=/dashboard,/dashboard/messages: only these signed-in pages (a profile of one page, say). */
const ONLY_PAGES = args
	.find((arg) => arg.startsWith('--pages='))
	?.split('=')[1]
	?.split(',')
/** A profile is of the signed-in pages only: the rest would blur it. */
const skip = (part: string) =>
	flag(`skip-${part}`) ||
	(QUICK && ['sse', 'lighthouse', 'js'].includes(part)) ||
	(CPU_PROFILE_DIR !== undefined && ['sse', 'lighthouse', 'js', 'capacity', 'public'].includes(part))
const DURATION = option('duration', QUICK ? 3 : 10)
const CONNECTIONS = option('connections', 50)
const SSE_CLIENTS = option('sse-clients', 10_000)
/** The pages whose Lighthouse scores issue 30 sets a target for. */
const LIGHTHOUSE_PAGES = ['/', '/courses', '/login', '/register']
const PROBE_SECONDS = option('probe', QUICK ? 2 : 4)
const WARM_UP = QUICK ? 1 : 2
/** The latency goal of the capacity figures. */
const P99_GOAL_MS = 100
const BUILD_DIR = path.resolve('build-bench')
const FLOOR_APP_DIR = path.resolve('bench/floor-app')
const FLOOR_BUILD_DIR = path.resolve('build-bench-floor')
const FLOOR_PAGE = 'minimal React Router app (floor)'
const HEAP_PROBE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-heap-'))
const bin = (name: string) => path.resolve('node_modules/.bin', name)
const CHROME_FLAGS =
	'--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run'

type Prepared = {
	seedSeconds: number
	studentCookie: string
	adminCookie: string
	courseId: number
	enrollment: { id: number; status: string }
}
type Target = { kind: 'embedded' | 'postgres'; env: NodeJS.ProcessEnv; dataDir: string; drop?: () => Promise<void> }
type LoadResult = {
	page: string
	rps: number
	p50: number
	p99: number
	non2xx: number
	errors: number
	cpuMsPerRequest: number
	/** Requests/s at which p99 stays ≤ P99_GOAL_MS under open-loop load (signed-in pages and the floor app). */
	capacity?: number
}

const log = (line: string) => console.error(`[bench] ${line}`)

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) {
	return new Promise<string>((resolve, reject) => {
		const child = spawn(command, commandArgs, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
		let output = ''
		child.stdout.on('data', (chunk: Buffer) => (output += chunk))
		child.on('error', reject)
		child.on('exit', (code) =>
			code === 0 ? resolve(output) : reject(new Error(`${command} ${commandArgs.join(' ')} exited with ${code}`)),
		)
	})
}

async function createTargets(): Promise<Target[]> {
	const targets: Target[] = []
	// TRUST_PROXY: the stream clients are 10,000 visitors behind a proxy (X-Forwarded-For), each with its own address.
	const base = { NODE_ENV: 'production', ALLOW_EMBEDDED_DEFAULTS: 'true', LOG_LEVEL: 'silent', HOST: '127.0.0.1', TRUST_PROXY: '1' }
	if (!skip('embedded')) {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-embedded-'))
		// As root the embedded server runs as the user postgres, which must reach the folder.
		fs.chmodSync(dataDir, 0o755)
		targets.push({ kind: 'embedded', dataDir, env: { ...base, DATA_DIR: dataDir, DATABASE_URL: '' } })
	}
	const url = process.env.DATABASE_URL
	if (url && !skip('postgres')) {
		const name = `bench_${randomBytes(4).toString('hex')}`
		const admin = new pg.Client({ connectionString: url })
		await admin.connect()
		await admin.query(`CREATE DATABASE ${name}`)
		await admin.end()
		const databaseUrl = new URL(url)
		databaseUrl.pathname = `/${name}`
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-postgres-'))
		targets.push({
			kind: 'postgres',
			dataDir,
			env: { ...base, DATA_DIR: dataDir, DATABASE_URL: databaseUrl.toString() },
			drop: async () => {
				const client = new pg.Client({ connectionString: url })
				await client.connect()
				await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
				await client.end()
			},
		})
	}
	return targets
}

async function freePort() {
	const server = http.createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const address = server.address()
	await new Promise((resolve) => server.close(resolve))
	return typeof address === 'object' && address ? address.port : 0
}

async function startServer(target: Target) {
	const port = await freePort()
	const profile = CPU_PROFILE_DIR ? ` --cpu-prof --cpu-prof-dir=${path.resolve(CPU_PROFILE_DIR, target.kind)}` : ''
	const child = spawn(process.execPath, ['scripts/server.ts'], {
		env: {
			...process.env,
			...target.env,
			...(CPU_PROFILE_DIR ? { WEB_CONCURRENCY: '1' } : {}),
			PORT: String(port),
			BUILD_DIR,
			NODE_OPTIONS: `--expose-gc --import=${path.resolve('scripts/bench/heap-probe.ts')}${profile}`,
			HEAP_PROBE_DIR,
		},
		stdio: ['ignore', 'pipe', 'inherit'],
	})
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('Server listening')) resolve()
		})
		child.on('exit', (code) => reject(new Error(`server exited with ${code}`)))
	})
	return { child, origin: `http://127.0.0.1:${port}` }
}

/** The floor app (bench/floor-app) on the target's database, with as many processes as the app. */
async function startFloorServer(databaseUrl: string, workers: number) {
	const port = await freePort()
	const child = spawn(process.execPath, [path.join(FLOOR_APP_DIR, 'server.ts')], {
		env: {
			...process.env,
			NODE_ENV: 'production',
			PORT: String(port),
			BUILD_DIR: FLOOR_BUILD_DIR,
			DATABASE_URL: databaseUrl,
			WEB_CONCURRENCY: String(workers),
		},
		stdio: ['ignore', 'pipe', 'inherit'],
	})
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('Server listening')) resolve()
		})
		child.on('exit', (code) => reject(new Error(`floor server exited with ${code}`)))
	})
	return { child, origin: `http://127.0.0.1:${port}` }
}

async function stopServer(child: ChildProcess) {
	if (child.exitCode !== null) return
	const exited = new Promise((resolve) => child.once('exit', resolve))
	child.kill('SIGTERM')
	await exited
}

async function autocannon(url: string, headers: Record<string, string>, seconds: number) {
	const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`])
	const output = await run(bin('autocannon'), ['-c', String(CONNECTIONS), '-d', String(seconds), '-j', ...headerArgs, url])
	return JSON.parse(output) as {
		requests: { average: number }
		latency: { p50: number; p99: number }
		non2xx: number
		errors: number
		timeouts: number
	}
}

const CLOCK_TICKS = 100

/** The process and its children (a cluster's workers). */
function processTree(pid: number) {
	return [pid, ...childPids(pid)]
}

/** CPU time (user + system) the server's processes have used, in ms: unlike latency, it does not depend on what else the machine runs. */
function cpuMs(pid: number) {
	let total = 0
	for (const member of processTree(pid)) {
		const fields = fs.readFileSync(`/proc/${member}/stat`, 'utf8').split(') ')[1]!.split(' ')
		total += (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS)
	}
	return total
}

async function measure(
	page: string,
	pid: number,
	url: string,
	headers: Record<string, string> = {},
	options: { capacity?: boolean } = {},
): Promise<LoadResult> {
	await autocannon(url, headers, WARM_UP)
	const cpuBefore = cpuMs(pid)
	const result = await autocannon(url, headers, DURATION)
	const requests = result.requests.average * DURATION
	const cpuMsPerRequest = requests > 0 ? Math.round(((cpuMs(pid) - cpuBefore) / requests) * 1000) / 1000 : NaN
	log(`${page}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${cpuMsPerRequest} ms CPU/request`)
	let capacity: number | undefined
	if (options.capacity && !skip('capacity')) {
		// Closed-loop throughput is the server saturated; the goal holds somewhat below it.
		capacity = await capacityAtP99(url, headers, {
			startRate: result.requests.average * 0.5,
			goalMs: P99_GOAL_MS,
			probeSeconds: PROBE_SECONDS,
			log,
		})
		log(`${page}: ${capacity} req/s at p99 ≤ ${P99_GOAL_MS} ms (open loop)`)
	}
	return {
		capacity,
		cpuMsPerRequest,
		page,
		rps: Math.round(result.requests.average),
		p50: result.latency.p50,
		p99: result.latency.p99,
		non2xx: result.non2xx,
		errors: result.errors + result.timeouts,
	}
}

/** Serves the exact bytes and content type of a response from a bare node:http server, in a child process. */
async function bareServer(body: Buffer, contentType: string) {
	const file = path.join(os.tmpdir(), `bench-bare-${process.pid}.html`)
	fs.writeFileSync(file, body)
	const source = `
		const http = require('node:http')
		const body = require('node:fs').readFileSync(${JSON.stringify(file)})
		const server = http.createServer((req, res) => { res.writeHead(200, { 'Content-Type': ${JSON.stringify(contentType)}, 'Content-Length': body.length }); res.end(body) })
		server.keepAliveTimeout = 65000
		server.listen(0, '127.0.0.1', () => console.log(server.address().port))`
	const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] })
	const port = await new Promise<number>((resolve) =>
		child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
	)
	return { child, url: `http://127.0.0.1:${port}/`, cleanup: () => fs.rmSync(file, { force: true }) }
}

/**
 * The gzip size of every script a first visit to the page makes the browser load, read off
 * a real Chromium (module preloads, the entry, and whatever loads lazily before the network
 * is idle); the HTML also names scripts the browser never fetches, such as the full route
 * manifest.
 */
async function firstVisitJs(origin: string, pagePath: string, cookie?: string) {
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: CHROME_FLAGS.split(' ').filter((flag) => !flag.startsWith('--headless')),
	})
	try {
		const page = await browser.newPage({ extraHTTPHeaders: cookie ? { Cookie: cookie } : {} })
		const urls = new Set<string>()
		page.on('response', (response) => {
			const { pathname } = new URL(response.url())
			if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) urls.add(pathname)
		})
		const response = await page.goto(`${origin}${pagePath}`, { waitUntil: 'networkidle' })
		let gzipBytes = 0
		for (const url of urls) gzipBytes += gzipSync(fs.readFileSync(path.join(BUILD_DIR, 'client', url))).length
		const pdfjs = [...urls].some((url) => /pdf/i.test(url))
		// Inline scripts come with the HTML: a scriptless page's live-parts script, a hydrated page's route data.
		const inline = await page.$$eval('script:not([src])', (scripts) => scripts.map((script) => script.textContent ?? ''))
		const inlineBytes = inline.reduce((sum, text) => sum + (text ? gzipSync(text).length : 0), 0)
		const kb = (bytes: number) => Math.round(bytes / 102.4) / 10
		return {
			page: pagePath,
			status: response?.status() ?? 0,
			files: urls.size,
			gzipKb: kb(gzipBytes),
			inlineGzipKb: kb(inlineBytes),
			pdfjs,
		}
	} finally {
		await browser.close()
	}
}

function rssKb(pid: number) {
	let total = 0
	for (const member of processTree(pid)) {
		const status = fs.readFileSync(`/proc/${member}/status`, 'utf8')
		total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
	}
	return total
}

function readProcLink(file: string) {
	try {
		return fs.readlinkSync(file)
	} catch {
		return null
	}
}

/** Live memory (heap and external, after a full collection) of the server's processes, read by scripts/bench/heap-probe.ts. */
async function liveKb(pid: number) {
	// Only the Node.js processes carry the probe; a helper the server runs (a document converter) would die of the signal.
	const executable = (member: number) => readProcLink(`/proc/${member}/exe`)
	const members = processTree(pid).filter((member) => executable(member) === executable(pid))
	for (const member of members) fs.rmSync(path.join(HEAP_PROBE_DIR, `${member}.json`), { force: true })
	for (const member of members) process.kill(member, 'SIGUSR2')
	let total = 0
	for (const member of members) {
		const file = path.join(HEAP_PROBE_DIR, `${member}.json`)
		for (let attempt = 0; attempt < 100 && !fs.existsSync(file); attempt++) await new Promise((resolve) => setTimeout(resolve, 100))
		total += (JSON.parse(fs.readFileSync(file, 'utf8')) as { liveKb: number }).liveKb
	}
	return total
}

/** RSS once it stops moving (start-up memory is released, collections finish): the baseline for a per-connection figure. */
async function settledRssKb(pid: number) {
	let previous = rssKb(pid)
	for (let attempt = 0; attempt < 30; attempt++) {
		await new Promise((resolve) => setTimeout(resolve, 500))
		const current = rssKb(pid)
		if (Math.abs(current - previous) < 256) return current
		previous = current
	}
	return previous
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN

/**
 * Opens the streams as signed-out visitors (they receive enrollment changes), then an admin
 * changes an enrollment through the real form action and every stream times its delivery.
 */
async function sseAtScale(origin: string, serverPid: number, prepared: Prepared) {
	const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity })
	const requests: http.ClientRequest[] = []
	const delivered: number[] = []
	let sentAt = 0
	let expected = () => {}
	const allDelivered = new Promise<void>((resolve) => (expected = resolve))
	const rssBefore = await settledRssKb(serverPid)
	const liveBefore = await liveKb(serverPid)
	let clients = 0
	const open = () =>
		new Promise<void>((resolve, reject) => {
			clients += 1
			const headers = { Accept: 'text/event-stream', 'X-Forwarded-For': `10.${clients >> 16}.${(clients >> 8) & 255}.${clients & 255}` }
			const request = http.get(`${origin}/events`, { agent, headers }, (response) => {
				if (response.statusCode !== 200) reject(new Error(`/events answered ${response.statusCode}`))
				let ready = false
				let done = false
				response.setEncoding('utf8')
				response.on('data', (chunk: string) => {
					if (!ready && chunk.includes('event: ready')) {
						ready = true
						resolve()
					}
					if (!done && sentAt && chunk.includes('enrollment.changed')) {
						done = true
						delivered.push(performance.now() - sentAt)
						if (delivered.length === SSE_CLIENTS) expected()
					}
				})
			})
			request.on('error', reject)
			requests.push(request)
		})
	const started = performance.now()
	for (let index = 0; index < SSE_CLIENTS; index += 100) {
		await Promise.all(Array.from({ length: Math.min(100, SSE_CLIENTS - index) }, open))
	}
	const openSeconds = (performance.now() - started) / 1000
	const rssAfter = await settledRssKb(serverPid)
	const liveAfter = await liveKb(serverPid)

	const status = prepared.enrollment.status === 'completed' ? 'active' : 'completed'
	const body = new URLSearchParams({ intent: 'status', enrollmentId: String(prepared.enrollment.id), status })
	sentAt = performance.now()
	const action = await fetch(`${origin}/dashboard/admin/enrollments`, {
		method: 'POST',
		body,
		redirect: 'manual',
		headers: { Cookie: prepared.adminCookie, Origin: origin },
	})
	await Promise.race([allDelivered, new Promise((resolve) => setTimeout(resolve, 10_000))])
	for (const request of requests) request.destroy()
	agent.destroy()
	const sorted = delivered.toSorted((a, b) => a - b)
	return {
		clients: SSE_CLIENTS,
		openSeconds: Math.round(openSeconds * 10) / 10,
		actionStatus: action.status,
		delivered: delivered.length,
		p50Ms: Math.round(percentile(sorted, 50)),
		p99Ms: Math.round(percentile(sorted, 99)),
		rssPerConnectionKb: Math.round(((rssAfter - rssBefore) / SSE_CLIENTS) * 10) / 10,
		livePerConnectionKb: Math.round(((liveAfter - liveBefore) / SSE_CLIENTS) * 10) / 10,
	}
}

/** Lighthouse now and then fails to record its trace on a busy machine (NO_NAVSTART): try again. */
async function lighthouse(url: string) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await lighthouseOnce(url)
		} catch (error) {
			if (attempt === 3) throw error
			log(`Lighthouse ${url} failed (${error instanceof Error ? error.message.split('\n')[0] : error}); retrying`)
		}
	}
}

async function lighthouseOnce(url: string) {
	const output = path.join(os.tmpdir(), `bench-lighthouse-${process.pid}.json`)
	await run(
		bin('lighthouse'),
		[
			url,
			'--quiet',
			'--output=json',
			`--output-path=${output}`,
			`--chrome-flags=${CHROME_FLAGS}`,
			'--only-categories=performance,accessibility,best-practices,seo',
		],
		{ CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
	)
	const report = JSON.parse(fs.readFileSync(output, 'utf8')) as {
		categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>
		audits: Record<string, { score: number | null; details?: { items?: Array<{ issueType?: string }> } }>
	}
	fs.rmSync(output, { force: true })
	const score = (key: string) => Math.round((report.categories[key]?.score ?? 0) * 100)
	// What cost points, so a score below 100 can be acted on from results.json.
	const failing = Object.values(report.categories)
		.flatMap((category) => category.auditRefs)
		.filter((ref) => ref.weight > 0 && (report.audits[ref.id]?.score ?? 1) < 1)
		.map((ref) => {
			const issues = report.audits[ref.id]?.details?.items?.flatMap((item) => (item.issueType ? [item.issueType] : [])) ?? []
			return issues.length > 0 ? `${ref.id} (${issues.join(', ')})` : ref.id
		})
	return {
		page: new URL(url).pathname,
		performance: score('performance'),
		accessibility: score('accessibility'),
		bestPractices: score('best-practices'),
		seo: score('seo'),
		failing,
	}
}

/** The streams on a server of one process (the target is per process), started for them alone while the heap is at rest. */
async function sseOnOneProcess(target: Target, prepared: Prepared) {
	const { child, origin } = await startServer({ ...target, env: { ...target.env, WEB_CONCURRENCY: '1' } })
	try {
		return await sseAtScale(origin, child.pid!, prepared)
	} finally {
		await stopServer(child)
	}
}

async function benchTarget(target: Target, prepared: Prepared, withLighthouse: boolean) {
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
			// Taken in turns, twice each, keeping each one's better run: a ratio of two runs in a row
			// otherwise carries whatever the shared machine did during one of them.
			const bare = await bareServer(homeBody, home.headers.get('content-type') ?? 'text/html')
			try {
				const runs = { ssr: [] as LoadResult[], bare: [] as LoadResult[] }
				for (let turn = 0; turn < 2; turn++) {
					runs.ssr.push(await measure('/', child.pid!, `${origin}/`))
					runs.bare.push(await measure('/ (bare node:http, same bytes)', bare.child.pid!, bare.url))
				}
				const better = (results: LoadResult[]) => results.reduce((best, result) => (result.rps > best.rps ? result : best))
				pages.push(better(runs.ssr), better(runs.bare))
			} finally {
				await stopServer(bare.child)
				bare.cleanup()
			}
			pages.push(await measure('/courses', child.pid!, `${origin}/courses`))
			pages.push(await measure('/courses/:id', child.pid!, `${origin}/courses/${prepared.courseId}`))
		}

		// The framework's own floor, on the same database with as many processes: the yardstick of the signed-in pages.
		const databaseUrl = target.env.DATABASE_URL || runningEmbeddedPostgresUrl(target.dataDir)
		if (!databaseUrl) throw new Error(`no running database for the floor app on ${target.kind}`)
		const floorServer = await startFloorServer(databaseUrl, workers)
		let floor: LoadResult
		let floorBytes: number
		try {
			floorBytes = (await (await fetch(`${floorServer.origin}/`)).arrayBuffer()).byteLength
			floor = await measure(FLOOR_PAGE, floorServer.child.pid!, `${floorServer.origin}/`, {}, { capacity: true })
		} finally {
			await stopServer(floorServer.child)
		}
		const signedIn = [
			// The lightest signed-in page (a placeholder): what any signed-in request costs before its own content.
			{ page: '/dashboard/community (student, placeholder)', path: '/dashboard/community', cookie: student },
			{ page: '/dashboard (student)', path: '/dashboard', cookie: student },
			{ page: '/dashboard/messages (student)', path: '/dashboard/messages', cookie: student },
			{ page: '/dashboard/admin/courses (admin)', path: '/dashboard/admin/courses', cookie: admin },
		]
		const signedInPages: LoadResult[] = []
		for (const { page, path: pagePath, cookie } of signedIn.filter(({ path }) => ONLY_PAGES?.includes(path) ?? true)) {
			signedInPages.push(await measure(page, child.pid!, `${origin}${pagePath}`, cookie, { capacity: true }))
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
			floor: { ...floor, htmlBytes: floorBytes },
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

type TargetResult = Awaited<ReturnType<typeof benchTarget>>

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

/** The signed-in pages against the floor app, per database: CPU per request and capacity at the p99 goal. */
function printFloorTables(results: TargetResult[]) {
	const rows: string[][] = [['database', 'page', 'CPU/req', '÷ floor', `req/s at p99 ≤ ${P99_GOAL_MS} ms`, 'floor ÷ page']]
	for (const result of results) {
		const { floor } = result
		const cell = (value: number | undefined, unit: string) => (value === undefined ? '–' : `${value} ${unit}`)
		rows.push([
			result.database,
			`${floor.page}, ${Math.round(floor.htmlBytes / 102.4) / 10} KB HTML`,
			cell(floor.cpuMsPerRequest, 'ms'),
			'1.00',
			cell(floor.capacity, ''),
			floor.capacity === undefined ? '–' : '1.00',
		])
		for (const page of result.signedInPages) {
			rows.push([
				result.database,
				page.page,
				cell(page.cpuMsPerRequest, 'ms'),
				ratio(page.cpuMsPerRequest, floor.cpuMsPerRequest),
				cell(page.capacity, ''),
				ratio(floor.capacity, page.capacity),
			])
		}
	}
	console.log(`\nSigned-in pages against the floor app (lower is better in both ratio columns):`)
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

const benchStarted = performance.now()
const targets = await createTargets()
try {
	if (targets.length === 0) throw new Error('Nothing to measure: --skip-embedded without DATABASE_URL.')
	// The build and the seeding of every database run side by side: seeding is mostly database work.
	const skipBuild = flag('skip-build') && fs.existsSync(BUILD_DIR) && fs.existsSync(FLOOR_BUILD_DIR)
	// One after the other: side by side they would compete for the same two cores as the seeding.
	const building = skipBuild
		? Promise.resolve('')
		: run(bin('react-router'), ['build'], { BUILD_DIR }).then(() =>
				run(bin('react-router'), ['build'], { BUILD_DIR: FLOOR_BUILD_DIR }, FLOOR_APP_DIR),
			)
	const preparing = targets.map(async (target) => {
		log(`seeding ${target.kind} (scale data set)`)
		const output = await run(process.execPath, ['scripts/bench/prepare.ts'], target.env)
		return JSON.parse(output.trim().split('\n').at(-1)!) as Prepared
	})
	await building
	const prepared = await Promise.all(preparing)
	const results: TargetResult[] = []
	for (const [index, target] of targets.entries()) {
		log(`measuring ${target.kind}`)
		results.push(await benchTarget(target, prepared[index]!, index === 0 && !skip('lighthouse')))
	}
	const machine = {
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? 'unknown',
		memoryGb: Math.round(os.totalmem() / 2 ** 30),
		node: process.version,
		platform: `${os.type()} ${os.release()}`,
	}
	const summary = {
		date: new Date().toISOString(),
		machine,
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
	fs.mkdirSync('bench', { recursive: true })
	fs.writeFileSync('bench/results.json', `${JSON.stringify(summary, null, '\t')}\n`)
	console.log(
		`\nMachine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}; ${CONNECTIONS} connections, ${DURATION} s after ${WARM_UP} s warm-up`,
	)
	printTable(results)
	printFloorTables(results)
	console.log(`\nTotal ${summary.totalSeconds} s; written to bench/results.json`)
} finally {
	fs.rmSync(HEAP_PROBE_DIR, { recursive: true, force: true })
	for (const target of targets) {
		await target.drop?.().catch((error: unknown) => log(`could not drop the ${target.kind} database: ${String(error)}`))
		fs.rmSync(target.dataDir, { recursive: true, force: true })
	}
}
