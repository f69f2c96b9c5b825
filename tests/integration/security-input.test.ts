/**
 * Bad input: every action of the route table gets a generated set of
 * malformed bodies, as a signed-out visitor, an enrolled student and an
 * admin. None may answer 5xx (or throw), and every refusal (4xx, or the
 * designed redirect with an error toast, see REDIRECTING_REFUSALS) writes nothing.
 */

import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { MAX_FORM_BYTES } from '#app/utils/form-data.server.ts'
import { hashToken } from '#app/utils/session.server.ts'
import type { Role } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertLiveSession, insertPaidPayment, insertUser, insertWeek } from '#tests/support/fixtures.ts'
import { callRoute, sessionCookieFor } from '#tests/support/requests.ts'
import { concretePath, loadRouteTable, paramNames, type RouteInfo } from '#tests/support/route-table.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
useTestStorage()

/** Longer than any field takes (the longest, a message, is 20,000 characters), yet the whole form stays under MAX_FORM_BYTES. */
const LONG_TEXT = 'x'.repeat(120 * 1024)
const OVER_FORM_LIMIT = 'x'.repeat(MAX_FORM_BYTES)
/** Each set into every field at once. */
const NASTY_VALUES = [
	'',
	'\u0000\u0001\u0007\u001b[31m\u007f',
	'𝕏 Ünïcödé \u202e\u200b 🙂',
	'-1',
	'99999999999999999999999',
	'1e309',
	'[object Object]',
	'<script>alert(1)</script>',
	"../../etc/passwd'; DROP TABLE users; --",
]
/** Free-text fields that get LONG_TEXT each. */
const TEXT_FIELDS = ['name', 'message', 'content', 'title', 'description', 'feedback', 'topic']
/** Field names the app's forms use; a body sets all of them at once. */
const FIELDS = [
	'name',
	'email',
	'password',
	'confirmPassword',
	'currentPassword',
	'newPassword',
	'message',
	'content',
	'phone',
	'title',
	'description',
	'capacity',
	'registrationFee',
	'price',
	'startDate',
	'endDate',
	'courseId',
	'userId',
	'receiverId',
	'partnerId',
	'messageId',
	'enrollmentId',
	'weekId',
	'weekNumber',
	'itemId',
	'assignmentId',
	'submissionId',
	'status',
	'grade',
	'feedback',
	'topic',
	'zoomLink',
	'url',
	'token',
	'redirectTo',
	'group',
	'step',
	'agree',
	'hasAgreedToTerms',
	'key',
	'category',
	'type',
]

/**
 * Actions whose designed answer to a refused form is a redirect with an
 * error toast (a no-JavaScript confirmation button has no page to re-render).
 */
const REDIRECTING_REFUSALS = new Set([
	'routes/admin/users',
	'routes/admin/orphaned-materials',
	'routes/admin/course-delete',
	'routes/auth/logout',
])

/** Refusals that may write by design: the delete confirmation and logout act without fields. */
const WRITING_REFUSALS = new Set(['routes/admin/course-delete', 'routes/auth/logout'])

/** The intents a route's module (or a helper beside it that holds part of its action) knows, read from their source. */
function intentsOf(route: RouteInfo) {
	const file = `app/${route.file}`
	const source = fs.readFileSync(file, 'utf8')
	const helpers = [...source.matchAll(/from '(\.{1,2}\/[^']+\.server\.ts)'/g)].map((match) => path.join(path.dirname(file), match[1]!))
	const sources = [source, ...helpers.map((helper) => fs.readFileSync(helper, 'utf8'))]
	const intents = new Set<string>()
	for (const source of sources) {
		for (const match of source.matchAll(/(?:literal\(|intent === |value=\{?)'([a-z][a-z-]+)'/g)) intents.add(match[1]!)
	}
	return [...intents]
}

function* malformedBodies(intents: string[], visitor: string) {
	type Body = { label: string; fields: [string, string][] }
	yield { label: 'empty', fields: [] } satisfies Body
	yield { label: 'a body over the form limit', fields: [['intent', OVER_FORM_LIMIT]] } satisfies Body
	// A signed-out visitor is turned away before the body matters: a sample is enough.
	const values = visitor === 'anonymous' ? NASTY_VALUES.slice(0, 2) : NASTY_VALUES
	for (const intent of [...intents, 'no-such-intent']) {
		yield { label: `intent ${intent} only`, fields: [['intent', intent]] } satisfies Body
		for (const value of values) {
			yield {
				label: `intent ${intent}, all fields ${JSON.stringify(value.slice(0, 12))}`,
				fields: [['intent', intent], ...FIELDS.map((name): [string, string] => [name, value])],
			} satisfies Body
		}
		// Control characters (NUL above all, which PostgreSQL text refuses) behind an otherwise plausible form.
		if (visitor !== 'anonymous') {
			yield {
				label: `intent ${intent}, plausible form with NUL texts`,
				fields: [
					['intent', intent],
					['email', 'fuzz@example.com'],
					['receiverId', randomUUID()],
					...TEXT_FIELDS.map((name): [string, string] => [name, 'Hello\u0000world']),
				],
			} satisfies Body
		}
		yield {
			label: `intent ${intent}, over-long texts`,
			fields: [['intent', intent], ...TEXT_FIELDS.map((name): [string, string] => [name, LONG_TEXT])],
		} satisfies Body
		// Every field twice, with conflicting values.
		yield {
			label: `intent ${intent}, duplicated fields`,
			fields: [
				['intent', intent],
				['intent', 'delete'],
				...FIELDS.flatMap((name): [string, string][] => [
					[name, '1'],
					[name, 'two'],
				]),
			],
		} satisfies Body
	}
}

let table: RouteInfo[]
let tables: string[]
const users = {} as Record<'student' | 'admin', string>
let params: Record<string, string>

function createUser(role: Role) {
	return insertUser(t.db, { role })
}

/** Row counts of every table but the ones a refused request may touch by design. */
async function counts() {
	const selects = tables.map((name) => `(SELECT count(*) FROM "${name}") AS "${name}"`).join(', ')
	const row = await sql.raw<Record<string, string>>(`SELECT ${selects}`).execute(t.db)
	return row.rows[0]!
}

/** Every route with an action, with the path to post to; the delete confirmation acts without any field, so it gets a course of its own. */
async function* actionTargets() {
	for (const route of table.filter((entry) => entry.hasAction)) {
		const routeParams = { ...params }
		if (route.id === 'routes/admin/course-delete') {
			routeParams.courseId = String(
				(await t.db.insertInto('courses').values({ title: 'Spare' }).returning('id').executeTakeFirstOrThrow()).id,
			)
		}
		const values = Object.fromEntries(paramNames(route.path).map((name) => [name, routeParams[name]!]))
		yield { route, values, path: concretePath(route.path, values) }
	}
}

beforeAll(async () => {
	table = await loadRouteTable()
	const rows = await sql<{
		name: string
	}>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(t.db)
	// Refused requests still count against rate limits, and each request here brings a session of its own.
	tables = rows.rows
		.map((row) => row.name)
		.filter((name) => !['rate_limits', 'sessions', 'kysely_migration', 'kysely_migration_lock'].includes(name))
	users.student = await createUser('student')
	users.admin = await createUser('admin')
	const course = await insertCourse(t.db, { title: 'Fuzz course', capacity: 5 })
	await insertEnrollment(t.db, { userId: users.student, courseId: course.id })
	const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: 'Week' })
	const assignment = await t.db
		.insertInto('assignments')
		.values({ course_id: course.id, week_id: weekId, title: 'Homework' })
		.returning('id')
		.executeTakeFirstOrThrow()
	const placeToken = 'fuzz-waitlist-place-token'
	await t.db
		.insertInto('waitlist_entries')
		.values({
			course_id: course.id,
			name: 'Fuzz Waiting',
			email: 'fuzz-waiting@example.com',
			position: 1,
			token_hash: hashToken(placeToken),
		})
		.execute()
	const liveSessionId = await insertLiveSession(t.db, { courseId: course.id })
	const paymentId = await insertPaidPayment(t.db, {
		checkoutSessionId: 'cs_test_fuzz_paid',
		userId: users.student,
		courseId: course.id,
		courseTitle: 'Fuzz course',
		customerEmail: 'fuzz@example.com',
	})
	params = {
		id: String(course.id),
		courseId: String(course.id),
		weekId: String(weekId),
		assignmentId: String(assignment.id),
		sessionId: 'cs_test_nothing',
		token: placeToken,
		liveSessionId: String(liveSessionId),
		paymentId: String(paymentId),
	}
})

describe('malformed bodies to every action', () => {
	test('never a 5xx, and a refusal writes nothing', async () => {
		const problems: string[] = []
		const refusals = new Map<string, Set<number>>()
		let requests = 0
		const started = Date.now()
		for await (const { route, values, path } of actionTargets()) {
			for (const visitor of ['anonymous', 'student', 'admin'] as const) {
				let cookie = visitor === 'anonymous' ? '' : await sessionCookieFor(users[visitor])
				let before = await counts()
				for (const body of malformedBodies(intentsOf(route), visitor)) {
					const form = new URLSearchParams()
					for (const [name, value] of body.fields) form.append(name, value)
					const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', 'x-client-ip': `192.0.2.${requests % 250}` })
					if (visitor !== 'anonymous') {
						// Logging out ends the session: the next body needs a new one.
						if (route.id === 'routes/auth/logout') cookie = await sessionCookieFor(users[visitor])
						headers.set('Cookie', cookie)
					}
					let status: number
					try {
						const response = await callRoute(
							route.module.action!,
							new Request(`http://localhost${path}`, { method: 'POST', body: form, headers }),
							values,
						)
						status = response.status
						await response.body?.cancel()
					} catch (error) {
						problems.push(
							`${route.id} ${visitor} ${body.label}: threw ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`,
						)
						continue
					} finally {
						requests++
					}
					if (status >= 500) problems.push(`${route.id} ${visitor} ${body.label}: ${status}`)
					const refused = status >= 400 || (status >= 300 && status < 400 && REDIRECTING_REFUSALS.has(route.id))
					const after = await counts()
					if (refused && !WRITING_REFUSALS.has(route.id)) {
						const changed = Object.keys(before).filter((name) => before[name] !== after[name])
						if (changed.length > 0) problems.push(`${route.id} ${visitor} ${body.label}: ${status} but wrote ${changed.join(', ')}`)
					}
					before = after
					if (status >= 400) {
						const seen = refusals.get(route.id) ?? new Set()
						seen.add(status)
						refusals.set(route.id, seen)
					}
				}
			}
		}
		if (process.env.PRINT_FUZZ)
			console.log(requests, Date.now() - started, Object.fromEntries([...refusals].map(([id, set]) => [id, [...set]])))
		expect(problems).toEqual([])
		expect(requests).toBeGreaterThan(1000)
	}, 300_000)
})

/** Bodies a browser form never sends: each must get a 4xx (or the designed refusal), never a throw. */
const NON_FORM_BODIES: { label: string; method: string; contentType: string | null; body: string | null }[] = [
	{ label: 'no body', method: 'POST', contentType: null, body: null },
	{ label: 'PUT without a body', method: 'PUT', contentType: null, body: null },
	{ label: 'plain text', method: 'POST', contentType: 'text/plain', body: 'intent=send&content=hi' },
	{ label: 'JSON', method: 'POST', contentType: 'application/json', body: '{"intent":"send","content":"hi"}' },
	{ label: 'multipart without a boundary', method: 'POST', contentType: 'multipart/form-data', body: 'intent=send' },
	{
		label: 'multipart with a boundary that never comes',
		method: 'POST',
		contentType: 'multipart/form-data; boundary=xyz',
		body: 'intent=send',
	},
	{
		label: 'multipart cut off mid-part',
		method: 'POST',
		contentType: 'multipart/form-data; boundary=xyz',
		body: '--xyz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsen',
	},
]

describe('bodies that are not forms, to every action', () => {
	test('never a 5xx, and nothing written', async () => {
		const problems: string[] = []
		let requests = 0
		for await (const { route, values, path } of actionTargets()) {
			for (const visitor of ['anonymous', 'student', 'admin'] as const) {
				let before = await counts()
				for (const { label, method, contentType, body } of NON_FORM_BODIES) {
					const headers = new Headers({ 'x-client-ip': `198.51.100.${requests % 250}` })
					if (contentType) headers.set('Content-Type', contentType)
					if (visitor !== 'anonymous') headers.set('Cookie', await sessionCookieFor(users[visitor]))
					requests++
					let status: number
					try {
						const response = await callRoute(
							route.module.action!,
							new Request(`http://localhost${path}`, { method, body, headers }),
							values,
						)
						status = response.status
						await response.body?.cancel()
					} catch (error) {
						problems.push(`${route.id} ${visitor} ${label}: threw ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`)
						continue
					}
					if (status >= 500) problems.push(`${route.id} ${visitor} ${label}: ${status}`)
					const after = await counts()
					if (!WRITING_REFUSALS.has(route.id)) {
						const changed = Object.keys(before).filter((name) => before[name] !== after[name])
						if (changed.length > 0) problems.push(`${route.id} ${visitor} ${label}: ${status} but wrote ${changed.join(', ')}`)
					}
					before = after
				}
			}
		}
		if (process.env.PRINT_FUZZ) console.log(requests)
		expect(problems).toEqual([])
		expect(requests).toBeGreaterThan(300)
	}, 120_000)
})
