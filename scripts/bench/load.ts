/**
 * Closed-loop load (autocannon) on one URL: throughput, latency and the server's CPU per request,
 * and for the signed-in pages and the floor app the capacity at the p99 goal under open-loop load
 * (scripts/bench/open-loop.ts).
 */

import { log } from './log.ts'
import { capacityAtP99 } from './open-loop.ts'
import { CONNECTIONS, DURATION, FLOOR_PAGE, P99_GOAL_MS, PROBE_SECONDS, skip, WARM_UP } from './options.ts'
import { cpuMs } from './proc-stats.ts'
import { bareServer, bin, run, startFloorServer, stopServer } from './processes.ts'

export type LoadResult = {
	page: string
	rps: number
	p50: number
	p99: number
	non2xx: number
	errors: number
	cpuMsPerRequest: number
	/** The body and headers of an average response, as received (compressed when the server compresses). */
	kbPerResponse: number
	/** Requests/s at which p99 stays ≤ P99_GOAL_MS under open-loop load (signed-in pages and the floor app). */
	capacity?: number
}

async function autocannon(url: string, headers: Record<string, string>, seconds: number, connections: number) {
	const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`])
	const output = await run(bin('autocannon'), ['-c', String(connections), '-d', String(seconds), '-j', ...headerArgs, url])
	return JSON.parse(output) as {
		requests: { average: number; total: number }
		throughput: { total: number }
		latency: { p50: number; p99: number }
		non2xx: number
		errors: number
		timeouts: number
	}
}

export async function measure(
	page: string,
	pid: number,
	url: string,
	headers: Record<string, string> = {},
	/** connections: fewer than CONNECTIONS for a page the server limits, or one that takes seconds. */
	{ capacity: withCapacity = false, connections = CONNECTIONS }: { capacity?: boolean; connections?: number } = {},
): Promise<LoadResult> {
	await autocannon(url, headers, WARM_UP, connections)
	const cpuBefore = cpuMs(pid)
	const result = await autocannon(url, headers, DURATION, connections)
	const requests = result.requests.average * DURATION
	const cpuMsPerRequest = requests > 0 ? Math.round(((cpuMs(pid) - cpuBefore) / requests) * 1000) / 1000 : NaN
	log(`${page}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${cpuMsPerRequest} ms CPU/request`)
	let capacity: number | undefined
	if (withCapacity && !skip('capacity')) {
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
		kbPerResponse: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total / 102.4) / 10 : NaN,
		page,
		rps: Math.round(result.requests.average),
		p50: result.latency.p50,
		p99: result.latency.p99,
		non2xx: result.non2xx,
		errors: result.errors + result.timeouts,
	}
}

/**
 * `/` against a bare node:http server sending its exact bytes. Taken in turns, twice each, keeping
 * each one's better run: a ratio of two runs in a row otherwise carries whatever the shared machine
 * did during one of them.
 */
export async function measureAgainstBare(pid: number, url: string, body: Buffer, contentType: string) {
	const bare = await bareServer(body, contentType)
	try {
		const runs = { ssr: [] as LoadResult[], bare: [] as LoadResult[] }
		for (let turn = 0; turn < 2; turn++) {
			runs.ssr.push(await measure('/', pid, url))
			runs.bare.push(await measure('/ (bare node:http, same bytes)', bare.child.pid!, bare.url))
		}
		const better = (results: LoadResult[]) => results.reduce((best, result) => (result.rps > best.rps ? result : best))
		return [better(runs.ssr), better(runs.bare)]
	} finally {
		await stopServer(bare.child)
		bare.cleanup()
	}
}

/** The framework's own floor (bench/floor-app) on the same database with as many processes: the yardstick of the signed-in pages. */
export async function measureFloor(databaseUrl: string, workers: number): Promise<LoadResult & { htmlBytes: number }> {
	const floorServer = await startFloorServer(databaseUrl, workers)
	try {
		const htmlBytes = (await (await fetch(`${floorServer.origin}/`)).arrayBuffer()).byteLength
		const floor = await measure(FLOOR_PAGE, floorServer.child.pid!, `${floorServer.origin}/`, {}, { capacity: true })
		return { ...floor, htmlBytes }
	} finally {
		await stopServer(floorServer.child)
	}
}
