/**
 * Open-loop load for scripts/bench/run.ts: requests leave at a fixed arrival rate whatever the
 * server answers (autocannon's connections wait for each answer, so a slow server is sent less
 * and its latency looks better than a visitor would see it). Each latency runs from the moment
 * the request was due, not the moment it could be sent, so a queue in the client counts too.
 */
import http from 'node:http'

export type OpenLoopResult = { rate: number; sent: number; completed: number; failed: number; p99: number }

/** A latency limit the answers never reached before the run gave up on them. */
const GIVE_UP_MS = 2_000

export async function openLoop(url: string, headers: Record<string, string>, rate: number, seconds: number): Promise<OpenLoopResult> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
	const latencies: number[] = []
	let failed = 0
	let sent = 0
	let outstanding = 0
	const total = Math.round(rate * seconds)
	const intervalMs = 1000 / rate
	const start = performance.now()
	await new Promise<void>((resolve) => {
		const send = (dueAt: number) => {
			sent += 1
			outstanding += 1
			const settle = (ok: boolean) => {
				outstanding -= 1
				if (ok) latencies.push(performance.now() - dueAt)
				else failed += 1
			}
			const request = http.get(url, { agent, headers }, (response) => {
				response.on('data', () => {})
				response.on('end', () => settle(response.statusCode === 200))
				response.on('error', () => settle(false))
			})
			request.on('error', () => settle(false))
		}
		const tick = () => {
			const now = performance.now()
			while (sent < total && start + sent * intervalMs <= now) send(start + sent * intervalMs)
			if (sent < total) setTimeout(tick, Math.max(0, Math.min(1, start + sent * intervalMs - now)))
			else resolve()
		}
		tick()
	})
	const deadline = performance.now() + GIVE_UP_MS
	while (outstanding > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
	failed += outstanding
	agent.destroy()
	const sorted = latencies.toSorted((a, b) => a - b)
	const p99 = failed > 0 ? Infinity : (sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? Infinity)
	return { rate, sent, completed: latencies.length, failed, p99: Math.round(p99 * 10) / 10 }
}

/**
 * The highest arrival rate (requests/s) at which p99 stays within the goal with no failed
 * request: rates grow by a quarter from `startRate` until one misses, then a bisection between
 * the last rate that held and the first that missed narrows it to about 5 %.
 */
export async function capacityAtP99(
	url: string,
	headers: Record<string, string>,
	options: { startRate: number; goalMs: number; probeSeconds: number; log: (line: string) => void },
) {
	const holds = async (rate: number) => {
		// At least 100 requests (up to 10 s), so that a p99 is not just the slowest of a handful.
		const seconds = Math.max(options.probeSeconds, Math.min(10, 100 / rate))
		const result = await openLoop(url, headers, rate, seconds)
		options.log(`  ${Math.round(rate)} req/s → p99 ${result.p99} ms, failed ${result.failed}`)
		// A pause lets the server's queue drain before the next probe.
		await new Promise((resolve) => setTimeout(resolve, 500))
		return result.failed === 0 && result.p99 <= options.goalMs
	}
	let low = 0
	let high = 0
	let rate = Math.max(2, options.startRate)
	if (await holds(rate)) {
		low = rate
		for (;;) {
			rate *= 1.25
			if (!(await holds(rate))) {
				high = rate
				break
			}
			low = rate
		}
	} else {
		high = rate
		for (;;) {
			rate *= 0.6
			if (rate < 1) return 0
			if (await holds(rate)) {
				low = rate
				break
			}
			high = rate
		}
	}
	while (high / low > 1.05) {
		const middle = Math.sqrt(low * high)
		if (await holds(middle)) low = middle
		else high = middle
	}
	return Math.round(low)
}
