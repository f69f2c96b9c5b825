/**
 * The 10,000-stream test: live-event streams (`/events`) opened on a server of one process, one
 * enrollment change made through the admin form, its delivery time on every stream and the
 * server's memory per stream.
 */
import http from 'node:http'
import { SSE_CLIENTS } from './options.ts'
import { liveKb, settledRssKb } from './proc-stats.ts'
import { startServer, stopServer } from './processes.ts'
import type { Prepared, Target } from './targets.ts'

/** The streams on a server of one process (the target is per process), started for them alone while the heap is at rest. */
export async function sseOnOneProcess(target: Target, prepared: Prepared) {
	const { child, origin } = await startServer({ ...target, env: { ...target.env, WEB_CONCURRENCY: '1' } })
	try {
		return await sseAtScale(origin, child.pid!, prepared)
	} finally {
		await stopServer(child)
	}
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

export type SseResult = Awaited<ReturnType<typeof sseAtScale>>
