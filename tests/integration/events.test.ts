import { afterAll, beforeAll, describe, expect, onTestFinished, test, vi } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { loader as eventsLoader } from '#app/routes/resources/events.ts'
import type { AppEvent } from '#app/services/events/events.ts'
import { createEventHub, getEventHub, parseEvent, RECENT_EVENTS_MS, stopEventHub } from '#app/services/events/hub.server.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { acceptStreams, closeAllStreams, eventForViewer, HEARTBEAT_MS } from '#app/services/events/streams.server.ts'
import { type DatabaseHandle, openDatabase } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertCourseStaff, insertEnrollment } from '#tests/support/fixtures.ts'
import { getRequest, sessionCookieFor } from '#tests/support/requests.ts'

const t = useTestDatabase()
/** A second app process on the same database: its own pool and its own LISTEN connection. */
let other: DatabaseHandle
let sequence = 0

beforeAll(async () => {
	other = await openDatabase({ databaseUrl: t.url })
})

afterAll(async () => {
	await stopEventHub()
	await other.close()
})

async function signedIn() {
	sequence += 1
	const user = await createUser(t.db, {
		email: `events-${sequence}@example.com`,
		name: 'Event Tester',
		password: 'password-123',
		confirmed: true,
	})
	return { id: user.id, cookie: await sessionCookieFor(user.id) }
}

async function openStream(cookie: string, address?: string, path = '/events') {
	const controller = new AbortController()
	const request = new Request(getRequest(path, { cookie }), { signal: controller.signal })
	if (address) request.headers.set('x-client-ip', address)
	const response = (await eventsLoader({ request, params: {}, context: {} } as Parameters<typeof eventsLoader>[0])) as Response
	return { response, controller, reader: response.body!.getReader() }
}

/** Reads the stream until `expected` appears (or fails after the timeout). */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, expected: string, timeoutMs = 3000) {
	const decoder = new TextDecoder()
	let text = ''
	const deadline = Date.now() + timeoutMs
	while (!text.includes(expected)) {
		const remaining = deadline - Date.now()
		if (remaining <= 0) throw new Error(`timed out waiting for ${expected}; got ${JSON.stringify(text)}`)
		const chunk = await Promise.race([reader.read(), new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), remaining))])
		if (chunk === 'timeout') continue
		if (chunk.done) throw new Error(`stream ended before ${expected}; got ${JSON.stringify(text)}`)
		text += decoder.decode(chunk.value, { stream: true })
	}
	return text
}

describe('event payloads', () => {
	test('known events are parsed; malformed or unknown payloads are ignored', () => {
		expect(parseEvent('{"type":"course.changed","courseId":3}')).toEqual({ type: 'course.changed', courseId: 3 })
		expect(parseEvent('not json')).toBeNull()
		expect(parseEvent('{"type":"course.changed"}')).toBeNull()
		expect(parseEvent('{"type":"something.else","courseId":3}')).toBeNull()
		expect(parseEvent('null')).toBeNull()
	})

	test('message events reach only their two parties, announcements everyone signed in, seat changes everyone without the student', () => {
		const message: AppEvent = { type: 'message.created', messageId: 1, senderId: 'a', receiverId: 'b' }
		expect(eventForViewer({ id: 'a' }, message)).toEqual(message)
		expect(eventForViewer({ id: 'b' }, message)).toEqual(message)
		expect(eventForViewer({ id: 'c' }, message)).toBeNull()
		expect(eventForViewer(null, message)).toBeNull()
		expect(eventForViewer({ id: 'c' }, { type: 'announcement.created', messageId: 1 })).toEqual({
			type: 'announcement.created',
			messageId: 1,
		})
		expect(eventForViewer(null, { type: 'announcement.created', messageId: 1 })).toBeNull()
		const enrolment: AppEvent = { type: 'enrollment.changed', courseId: 1, userId: 'a' }
		expect(eventForViewer({ id: 'a' }, enrolment)).toEqual(enrolment)
		expect(eventForViewer({ id: 'c' }, enrolment)).toEqual({ type: 'enrollment.changed', courseId: 1 })
		expect(eventForViewer(null, enrolment)).toEqual({ type: 'enrollment.changed', courseId: 1 })
		expect(eventForViewer(null, { type: 'course.changed', courseId: 1 })).toEqual({ type: 'course.changed', courseId: 1 })
		expect(eventForViewer(null, { type: 'site.changed' })).toBeNull()
		const post: AppEvent = { type: 'community.posted', courseId: 5, threadId: 9 }
		expect(eventForViewer({ id: 'a' }, post, new Set([5]))).toEqual(post)
		expect(eventForViewer({ id: 'a' }, post, new Set([6]))).toBeNull()
		expect(eventForViewer(null, post)).toBeNull()
	})
})

describe('the events route', () => {
	test('a visitor gets the public seat changes and nothing private', async () => {
		const [alice, bob] = await Promise.all([signedIn(), signedIn()])
		await getEventHub()
		const stream = await openStream('')
		await readUntil(stream.reader, 'event: ready')
		await other.db.transaction().execute(async (trx) => {
			await publishEvent(trx, { type: 'message.created', messageId: 51, senderId: alice.id, receiverId: bob.id })
			await publishEvent(trx, { type: 'announcement.created', messageId: 52 })
			await publishEvent(trx, { type: 'enrollment.changed', courseId: 53 })
		})
		const text = await readUntil(stream.reader, '"courseId":53')
		expect(text).not.toContain('"messageId":51')
		expect(text).not.toContain('"messageId":52')
		stream.controller.abort()
	})

	test('each stream carries exactly the payloads its viewer may read: a visitor and a classmate never learn whose enrolment changed', async () => {
		const [student, classmate, admin] = await Promise.all([signedIn(), signedIn(), signedIn()])
		await t.db.updateTable('profiles').set({ role: 'admin' }).where('id', '=', admin.id).execute()
		await getEventHub()
		const viewers = { visitor: '', student: student.cookie, classmate: classmate.cookie, admin: admin.cookie }
		const streams = Object.fromEntries(
			await Promise.all(Object.entries(viewers).map(async ([name, cookie]) => [name, await openStream(cookie)] as const)),
		)
		for (const stream of Object.values(streams)) await readUntil(stream.reader, 'event: ready')
		const published: AppEvent[] = [
			{ type: 'enrollment.changed', courseId: 61, userId: student.id },
			{ type: 'message.created', messageId: 62, senderId: admin.id, receiverId: student.id },
			{ type: 'announcement.created', messageId: 63 },
			{ type: 'site.changed' },
			{ type: 'course.changed', courseId: 64 },
		]
		await other.db.transaction().execute(async (trx) => {
			for (const event of published) await publishEvent(trx, event)
		})
		const received: Record<string, unknown[]> = {}
		for (const [name, stream] of Object.entries(streams)) {
			// course.changed comes last and goes to everyone: once it is read, everything before it has been too.
			const text = await readUntil(stream.reader, '"courseId":64')
			received[name] = [...text.matchAll(/^data: (\{.*\})$/gm)].map((match) => JSON.parse(match[1]!))
			stream.controller.abort()
		}
		const seats = { type: 'enrollment.changed', courseId: 61 }
		const course = { type: 'course.changed', courseId: 64 }
		expect(received).toEqual({
			visitor: [seats, course],
			student: [published[0], published[1], published[2], course],
			classmate: [seats, published[2], course],
			admin: [seats, published[1], published[2], course],
		})
	})

	test("a community post reaches the members of its course (students, staff, admins), nobody else's stream", async () => {
		const [member, staff, outsider, admin] = await Promise.all([signedIn(), signedIn(), signedIn(), signedIn()])
		await t.db.updateTable('profiles').set({ role: 'instructor' }).where('id', '=', staff.id).execute()
		await t.db.updateTable('profiles').set({ role: 'admin' }).where('id', '=', admin.id).execute()
		const course = await insertCourse(t.db, { title: 'Live community' })
		await insertEnrollment(t.db, { userId: member.id, courseId: course.id })
		await insertCourseStaff(t.db, { courseId: course.id, userId: staff.id })
		await getEventHub()
		const viewers = { visitor: '', member: member.cookie, staff: staff.cookie, outsider: outsider.cookie, admin: admin.cookie }
		const streams = Object.fromEntries(
			await Promise.all(Object.entries(viewers).map(async ([name, cookie]) => [name, await openStream(cookie)] as const)),
		)
		for (const stream of Object.values(streams)) await readUntil(stream.reader, 'event: ready')
		await other.db.transaction().execute(async (trx) => {
			await publishEvent(trx, { type: 'community.posted', courseId: course.id, threadId: 71 })
			await publishEvent(trx, { type: 'course.changed', courseId: 72 })
		})
		const received: Record<string, boolean> = {}
		for (const [name, stream] of Object.entries(streams)) {
			// course.changed comes last and goes to everyone: once it is read, the post has been too, or never will.
			received[name] = (await readUntil(stream.reader, '"courseId":72')).includes('"threadId":71')
			stream.controller.abort()
		}
		expect(received).toEqual({ visitor: false, member: true, staff: true, outsider: false, admin: true })
	})

	test("a stream opened after its page's data replays what the viewer missed in between, and says so when the hub cannot tell", async () => {
		const [alice, bob, carol] = await Promise.all([signedIn(), signedIn(), signedIn()])
		const hub = await getEventHub()
		// A minute on: the hub has been listening for longer than the few seconds' slack the replay allows.
		vi.useFakeTimers({ toFake: ['Date'] })
		vi.setSystemTime(Date.now() + 60_000)
		onTestFinished(() => void vi.useRealTimers())
		// The page loaded its data (and took its time) before these events; its stream opens after them.
		const renderedAt = Date.now()
		await other.db.transaction().execute(async (trx) => {
			await publishEvent(trx, { type: 'message.created', messageId: 81, senderId: alice.id, receiverId: bob.id })
			await publishEvent(trx, { type: 'message.created', messageId: 82, senderId: alice.id, receiverId: carol.id })
		})
		await expect.poll(() => hub.eventsSince(renderedAt)?.length).toBe(2)
		const late = await openStream(carol.cookie, undefined, `/events?since=${renderedAt}`)
		const replayed = await readUntil(late.reader, '"messageId":82')
		expect(replayed).not.toContain('"messageId":81')
		expect(replayed.indexOf('event: ready')).toBeLessThan(replayed.indexOf('"messageId":82'))
		late.controller.abort()

		// Without a time, a stream carries only what comes after it opens (the page's time is a signed-in user's).
		const plain = await openStream(carol.cookie)
		await publishEvent(other.db, { type: 'course.changed', courseId: 83 })
		expect(await readUntil(plain.reader, '"courseId":83')).not.toContain('"messageId":82')
		plain.controller.abort()

		// A page older than the hub: it cannot tell what was missed, so the page is told to load again.
		const stale = await openStream(carol.cookie, undefined, '/events?since=1000')
		expect(await readUntil(stale.reader, 'event: missed')).not.toContain('"messageId"')
		stale.controller.abort()
	})

	test('an event published by another process reaches the SSE client of this one, filtered per user', async () => {
		const [alice, bob, carol] = await Promise.all([signedIn(), signedIn(), signedIn()])
		await getEventHub()
		const stream = await openStream(carol.cookie)
		expect(stream.response.headers.get('Content-Type')).toBe('text/event-stream')
		await readUntil(stream.reader, 'event: ready')

		await other.db.transaction().execute(async (trx) => {
			await publishEvent(trx, { type: 'message.created', messageId: 41, senderId: alice.id, receiverId: bob.id })
			await publishEvent(trx, { type: 'message.created', messageId: 42, senderId: alice.id, receiverId: carol.id })
			await publishEvent(trx, { type: 'announcement.created', messageId: 43 })
		})
		const text = await readUntil(stream.reader, '"messageId":43')
		expect(text).toContain('"messageId":42')
		expect(text).not.toContain('"messageId":41')
		stream.controller.abort()
	})

	test('an event of a rolled-back transaction is never delivered', async () => {
		const user = await signedIn()
		await getEventHub()
		const stream = await openStream(user.cookie)
		await readUntil(stream.reader, 'event: ready')
		await other.db
			.transaction()
			.execute(async (trx) => {
				await publishEvent(trx, { type: 'course.changed', courseId: 999 })
				throw new Error('roll back')
			})
			.catch(() => {})
		await publishEvent(other.db, { type: 'course.changed', courseId: 1000 })
		const text = await readUntil(stream.reader, '"courseId":1000')
		expect(text).not.toContain('"courseId":999')
		stream.controller.abort()
	})

	test('a client that went away is cleaned up at the next event instead of crashing the process', async () => {
		const user = await signedIn()
		await getEventHub()
		const failures = vi.spyOn(console, 'error')
		const stream = await openStream(user.cookie)
		await readUntil(stream.reader, 'event: ready')
		// The consumer cancels without the request aborting: the next send throws inside the stream.
		await stream.reader.cancel()
		const probe = await signedIn()
		const second = await openStream(probe.cookie)
		await readUntil(second.reader, 'event: ready')
		await publishEvent(other.db, { type: 'course.changed', courseId: 7 })
		await readUntil(second.reader, '"courseId":7')
		second.controller.abort()
		// The stream caught its own failure: the hub saw no subscriber fail.
		expect(failures).not.toHaveBeenCalled()
	})

	test('a heartbeat is sent every 25 seconds', async () => {
		const user = await signedIn()
		await getEventHub()
		vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
		try {
			const stream = await openStream(user.cookie)
			await readUntil(stream.reader, 'event: ready')
			vi.advanceTimersByTime(HEARTBEAT_MS)
			await readUntil(stream.reader, 'event: ping')
			stream.controller.abort()
		} finally {
			vi.useRealTimers()
		}
	})

	test('a client holds at most EVENT_STREAMS_PER_CLIENT streams: a signed-in user wherever they are, a visitor per address', async () => {
		const limit = getEnv().EVENT_STREAMS_PER_CLIENT
		const [alice, bob] = await Promise.all([signedIn(), signedIn()])
		await getEventHub()
		const openAll = (cookie: string, address: string) =>
			Promise.all(Array.from({ length: limit }, (_, index) => openStream(cookie, `${address}${index}`)))
		// Alice's streams count together from any address.
		const alices = await openAll(alice.cookie, '198.51.100.')
		expect(alices.map((stream) => stream.response.status)).toEqual(Array(limit).fill(200))
		const refused = await openStream(alice.cookie, '198.51.100.250')
		expect(refused.response.status).toBe(429)
		expect(await readUntil(refused.reader, 'reload.')).toBe('Too many live connections are open for you. Close a tab and reload.')
		const bobs = await openStream(bob.cookie, '198.51.100.1')
		await readUntil(bobs.reader, 'event: ready')
		// A closed stream frees its place.
		alices[0]!.controller.abort()
		const again = await openStream(alice.cookie, '198.51.100.251')
		await readUntil(again.reader, 'event: ready')

		const visitors = await Promise.all(Array.from({ length: limit }, () => openStream('', '203.0.113.7')))
		expect(visitors.every((stream) => stream.response.status === 200)).toBe(true)
		expect((await openStream('', '203.0.113.7')).response.status).toBe(429)
		const neighbour = await openStream('', '203.0.113.8')
		await readUntil(neighbour.reader, 'event: ready')

		for (const stream of [...alices, bobs, again, ...visitors, neighbour]) stream.controller.abort()
		// Every place is free again.
		const after = await Promise.all(Array.from({ length: limit }, () => openStream(alice.cookie)))
		expect(after.every((stream) => stream.response.status === 200)).toBe(true)
		for (const stream of after) stream.controller.abort()
	})

	test('shutdown ends open streams and refuses new ones until streams are accepted again', async () => {
		const user = await signedIn()
		await getEventHub()
		const stream = await openStream(user.cookie)
		await readUntil(stream.reader, 'event: ready')
		closeAllStreams()
		let ended = false
		while (!ended) ended = (await stream.reader.read()).done
		expect(ended).toBe(true)
		const refused = await openStream(user.cookie).catch(() => null)
		expect(refused?.response.status).toBe(503)
		acceptStreams()
		const again = await openStream(user.cookie)
		await readUntil(again.reader, 'event: ready')
		again.controller.abort()
	})
})

describe('the hub', () => {
	test('two hubs on two handles of one PostgreSQL database both receive an event', async () => {
		const first = await createEventHub(t.handle)
		const second = await createEventHub(other)
		const received: string[] = []
		first.subscribe((event) => received.push(`first:${event.type}`))
		second.subscribe((event) => received.push(`second:${event.type}`))
		await publishEvent(t.db, { type: 'course.changed', courseId: 5 })
		await expect.poll(() => received.sort()).toEqual(['first:course.changed', 'second:course.changed'])
		await Promise.all([first.close(), second.close()])
	})

	test('the hub keeps the last five minutes of events, and no more than it can tell are complete', async () => {
		let clock = 1_000_000
		const hub = await createEventHub(t.handle, () => clock)
		expect(hub.eventsSince(clock - 1)).toBeNull()
		expect(hub.eventsSince(clock)).toEqual([])
		const received: AppEvent[] = []
		hub.subscribe((event) => received.push(event))
		await publishEvent(t.db, { type: 'course.changed', courseId: 91 })
		await expect.poll(() => received.length).toBe(1)
		clock += RECENT_EVENTS_MS
		await publishEvent(t.db, { type: 'course.changed', courseId: 92 })
		await expect.poll(() => received.length).toBe(2)
		expect(hub.eventsSince(1_000_000)).toEqual([
			{ type: 'course.changed', courseId: 91 },
			{ type: 'course.changed', courseId: 92 },
		])
		clock += 1
		await publishEvent(t.db, { type: 'course.changed', courseId: 93 })
		await expect.poll(() => received.length).toBe(3)
		// The first event is let go: from its time on the hub can no longer tell.
		expect(hub.eventsSince(1_000_000)).toBeNull()
		expect(hub.eventsSince(clock)).toEqual([{ type: 'course.changed', courseId: 93 }])
		await hub.close()
	})

	test('a failing subscriber does not starve the others', async () => {
		{
			const hub = await createEventHub(t.handle)
			const received: AppEvent[] = []
			hub.subscribe(() => {
				throw new Error('broken subscriber')
			})
			hub.subscribe((event) => received.push(event))
			const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
			await publishEvent(t.db, { type: 'enrollment.changed', courseId: 2 })
			await expect.poll(() => received).toEqual([{ type: 'enrollment.changed', courseId: 2 }])
			expect(logged).toHaveBeenCalledWith('[events] subscriber failed', expect.any(Error))
			await hub.close()
		}
	})
})
