/**
 * Bad input: every form the app renders, and every action of the route table, gets a generated
 * set of malformed bodies, as a signed-out visitor (with a registration under way), an enrolled
 * student, the course's instructor (the forms their pages show) and an admin. None may answer 5xx (or throw), and every refusal (4xx, or the designed
 * redirect with an error toast, see REDIRECTING_REFUSALS) writes nothing.
 *
 * The forms come from the pages, not from a list of field names: beforeAll renders every page
 * of the route table as each visitor and follows its links (dialogs, filters, redirects), then
 * reads each `<form method="post">` with its intent and every named field and rendered default
 * (tests/support/form-crawl.ts). Each form is sent as the page would send it, with one field at
 * a time replaced by each nasty value, so the other fields pass validation and the nasty one
 * reaches as deep as it can; a new form or field is covered as soon as a page shows it. The
 * whole-body mutations (every field of an action at once, duplicated fields, unknown intents)
 * and the bodies that are not forms still go to every action of the route table.
 *
 * Why the crawl runs here rather than in an end-to-end spec: the pages render in Vitest through
 * React Router's own request handler over the route modules (tests/support/server-build.ts:
 * root loader, middleware and layouts as in production, no build needed), and this file has a
 * database of its own, so the row counts around each body show exactly what it wrote; the e2e
 * server's database is shared with the specs running beside it. The bodies go to the actions
 * directly (callRoute), so a thrown error shows as itself rather than as a 500 page.
 */

import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { issueToken } from '#app/models/accounts/auth-tokens.server.ts'
import { unsubscribeToken } from '#app/models/accounts/email-preferences.server.ts'
import { chooseDraftCourse, saveDraftDetails } from '#app/models/enrollment/registration.server.ts'
import { ORPHAN_GRACE_MS } from '#app/models/materials/orphans.server.ts'
import { draftCookieHeader } from '#app/routes/register/+shared/draft-cookie.server.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { materialKey } from '#app/services/storage/keys.ts'
import { MAX_FORM_BYTES } from '#app/utils/form-data.server.ts'
import { hashToken } from '#app/utils/session.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAssignment,
	insertAttendanceImport,
	insertCertificate,
	insertCommunityThread,
	insertContactSubmission,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertLiveSession,
	insertMaterialItem,
	insertMessage,
	insertPaidPayment,
	insertPlanPurchase,
	insertPromotionCode,
	insertSubmission,
	insertUser,
	insertWaitlistEntry,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { crawlForms, type DiscoveredForm, type FormEntry, plausibleEntries } from '#tests/support/form-crawl.ts'
import { callRoute, sessionCookieFor, toastOf } from '#tests/support/requests.ts'
import { concretePath, loadRouteTable, paramNames, type RouteInfo } from '#tests/support/route-table.ts'
import { appRequestHandler } from '#tests/support/server-build.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()

/** Longer than any field takes (the longest, a message, is 20,000 characters), yet a form of a few such fields stays under MAX_FORM_BYTES. */
const LONG_TEXT = 'x'.repeat(120 * 1024)
const OVER_FORM_LIMIT = 'x'.repeat(MAX_FORM_BYTES)
/** Each set into every field of an action at once. */
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

/** What replaces one field of a plausible form in turn; control characters go behind what the field would hold, so they pass any format check that reads only the start. */
function fieldValues(plausible: string): [label: string, value: string][] {
	const text = plausible || 'Plausible text'
	return [
		['with NUL', `${text}\u0000`],
		['with control characters', `${text}\u0001\u0007\u001b[31m\u007f\u0085`],
		['over-long', LONG_TEXT],
		['unicode', '𝕏 Ünïcödé \u202e\u200b 🙂'],
		['huge number', '99999999999999999999999'],
		['negative number', '-1'],
		['empty', ''],
	]
}

/** Conform's reserved fields with what its own buttons never write: not JSON, a list change on a field that is no list, a broken state. */
const CONFORM_BODIES: { label: string; fields: [string, string][] }[] = [
	{ label: '__intent__ not JSON', fields: [['__intent__', 'not json']] },
	{
		label: '__intent__ inserting into a text field',
		fields: [
			['note', 'text'],
			['__intent__', '{"type":"insert","payload":{"name":"note"}}'],
		],
	},
	{ label: '__state__ not JSON', fields: [['__state__', '{']] },
]

/**
 * Actions whose designed answer to a refused form is a redirect with an
 * error toast (a no-JavaScript confirmation button has no page to re-render).
 */
const REDIRECTING_REFUSALS = new Set([
	'routes/admin/users',
	'routes/admin/course-staff',
	'routes/admin/orphaned-materials',
	'routes/admin/course-delete',
	'routes/admin/course-publish',
	'routes/auth/logout',
])

/** Refusals that may write by design: the delete confirmation and logout act without fields. */
const WRITING_REFUSALS = new Set(['routes/admin/course-delete', 'routes/auth/logout'])

/** Actions no page has a form for: Stripe's webhook, and the one-click unsubscribe that mail clients post (RFC 8058). */
const ACTIONS_WITHOUT_FORMS = ['routes/resources/stripe-webhook', 'routes/resources/unsubscribe-one-click']

/** Actions a page's script sends that page's form to instead (the upload form, by XMLHttpRequest for its progress bar): by path and the action whose form it takes. */
const SCRIPTED_ACTIONS = [{ id: 'routes/resources/material-upload', path: '/uploads/materials', formOf: 'routes/admin/uploads' }]

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

/** The form once per submit button, each time with one field (all its entries) replaced by one nasty value. */
function* fieldMutations(form: DiscoveredForm) {
	for (const submitter of form.submitters.length > 0 ? form.submitters : [undefined]) {
		const entries = plausibleEntries(form, submitter)
		const pressed = submitter ? ` (${submitter.name}=${submitter.value})` : ''
		for (const field of new Set(entries.map(([name]) => name))) {
			const plausible = entries.find(([name]) => name === field)![1]
			for (const [label, value] of fieldValues(typeof plausible === 'string' ? plausible : plausible.name)) {
				const mutated: FormEntry[] = []
				for (const [name, original] of entries) {
					if (name !== field) mutated.push([name, original])
					else if (!mutated.some(([other]) => other === field)) mutated.push([name, value])
				}
				yield { label: `${field} ${label}${pressed}`, entries: mutated }
			}
		}
	}
}

function encode(entries: FormEntry[], multipart: boolean) {
	if (multipart) {
		const body = new FormData()
		for (const [name, value] of entries) body.append(name, value)
		return body
	}
	return new URLSearchParams(entries.map(([name, value]): [string, string] => [name, typeof value === 'string' ? value : value.name]))
}

function* malformedBodies(intents: string[], visitor: string, fields: string[], textFields: string[]) {
	type Body = { label: string; fields: [string, string][] }
	yield { label: 'empty', fields: [] } satisfies Body
	yield { label: 'a body over the form limit', fields: [['intent', OVER_FORM_LIMIT]] } satisfies Body
	// Read before any intent is looked at: once per action.
	yield* CONFORM_BODIES
	// A signed-out visitor is turned away before the body matters: a sample is enough.
	const values = visitor === 'anonymous' ? NASTY_VALUES.slice(0, 2) : NASTY_VALUES
	// As long as fits in one form with all the action's text fields.
	const longText = LONG_TEXT.slice(0, Math.floor((MAX_FORM_BYTES - 4096) / Math.max(1, textFields.length)))
	for (const intent of [...intents, 'no-such-intent']) {
		yield { label: `intent ${intent} only`, fields: [['intent', intent]] } satisfies Body
		for (const value of values) {
			yield {
				label: `intent ${intent}, all fields ${JSON.stringify(value.slice(0, 12))}`,
				fields: [['intent', intent], ...fields.map((name): [string, string] => [name, value])],
			} satisfies Body
		}
		yield {
			label: `intent ${intent}, over-long texts`,
			fields: [['intent', intent], ...textFields.map((name): [string, string] => [name, longText])],
		} satisfies Body
		// Every field twice, with conflicting values.
		yield {
			label: `intent ${intent}, duplicated fields`,
			fields: [
				['intent', intent],
				['intent', 'delete'],
				...fields.flatMap((name): [string, string][] => [
					[name, '1'],
					[name, 'two'],
				]),
			],
		} satisfies Body
	}
}

const STUDENT_EMAIL = 'fuzz-student@example.com'

let table: RouteInfo[]
let tables: string[]
const users = {} as Record<'student' | 'courseInstructor' | 'admin', string>
let params: Record<string, string>
let paidCourseId: number
let crawl: Awaited<ReturnType<typeof crawlForms>>

/** A signed-out visitor's cookie of a registration at its payment step (a paid course chosen). */
async function registrationCookie() {
	const draftId = await saveDraftDetails(t.db, null, {
		name: 'Fuzz Registrant',
		email: `registrant-${randomUUID()}@example.com`,
		passwordHash: 'unused-hash',
	})
	await chooseDraftCourse(t.db, draftId!, paidCourseId)
	return (await draftCookieHeader(draftId!)).split(';')[0]!
}

/** A fresh Cookie header for a visitor of the crawl. */
function cookieOf(visitor: string) {
	if (visitor === 'anonymous') return registrationCookie()
	return sessionCookieFor(users[visitor as keyof typeof users])
}

/** Row counts of every table but the ones a refused request may touch by design. */
async function counts() {
	const selects = tables.map((name) => `(SELECT count(*) FROM "${name}") AS "${name}"`).join(', ')
	const row = await sql.raw<Record<string, string>>(`SELECT ${selects}`).execute(t.db)
	return row.rows[0]!
}

function changedTables(before: Record<string, string>, after: Record<string, string>) {
	return Object.keys(before).filter((name) => before[name] !== after[name])
}

let sent = 0

/** Posts a body to a route's action from an address of its own (rate limits stay out of the way); a throw is returned as its message. */
async function post(route: RouteInfo, url: string, values: Record<string, string>, body: BodyInit, cookie: string) {
	const headers = new Headers({ 'x-client-ip': `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}` })
	sent++
	if (cookie) headers.set('Cookie', cookie)
	try {
		return await callRoute(route.module.action!, new Request(new URL(url, 'http://localhost'), { method: 'POST', body, headers }), values)
	} catch (error) {
		return `threw ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`
	}
}

/** Every route with an action, with the path to post to; the delete confirmation acts without any field, so it gets a course of its own. */
async function* actionTargets() {
	for (const route of table.filter((entry) => entry.hasAction)) {
		const routeParams: Record<string, string> = { ...params }
		if (route.id === 'routes/admin/course-delete') {
			routeParams.courseId = String((await insertCourse(t.db, { title: 'Spare' })).id)
		}
		const values = Object.fromEntries(paramNames(route.path).map((name) => [name, routeParams[name]!]))
		yield { route, values, path: concretePath(route.path, values) }
	}
}

/** The fields the crawl found posting to each action, as `intent field` (intent: the hidden input or the button pressed). */
function discoveredFields() {
	const fields = new Map<string, Set<string>>()
	for (const form of crawl.forms) {
		const hidden = form.controls.find((control) => control.name === 'intent' && control.type === 'hidden')?.value
		for (const intent of hidden ? [hidden] : form.submitters.length > 0 ? form.submitters.map((submitter) => submitter.value) : ['']) {
			const names = fields.get(form.routeId) ?? new Set()
			for (const control of form.controls) names.add(`${intent} ${control.name}`.trim())
			fields.set(form.routeId, names)
		}
	}
	return fields
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
	users.student = await insertUser(t.db, { role: 'student', email: STUDENT_EMAIL })
	users.admin = await insertUser(t.db, { role: 'admin' })
	users.courseInstructor = await insertUser(t.db, { role: 'instructor', name: 'Fuzz Teacher' })
	// The world the pages need to show their forms: a course the student follows (an assignment in an
	// open week, a live session ahead, a file, a payment, a waitlist, a file no row points to), a paid
	// course they may buy and wait for, an open checkout, a promotion code, a message and a contact request.
	const course = await insertCourse(t.db, { title: 'Fuzz course', capacity: 5 })
	const enrollment = await insertEnrollment(t.db, { userId: users.student, courseId: course.id })
	await insertCourseStaff(t.db, { courseId: course.id, userId: users.courseInstructor })
	// The student pays on a plan whose second instalment failed: the admin's charge buttons and the update-card form render.
	const plan = await insertPlanPurchase(t.db, {
		userId: users.student,
		courseId: course.id,
		enrollmentId: enrollment.id,
		status: 'past_due',
	})
	await t.db
		.updateTable('plan_instalments')
		.set({ status: 'failed', failed_at: new Date() })
		.where('id', '=', plan.instalmentIds[1]!)
		.execute()
	// Its first payment, which the plan's refund form offers to give back.
	await insertPaidPayment(t.db, {
		checkoutSessionId: plan.checkoutSessionId,
		userId: users.student,
		courseId: course.id,
		courseTitle: 'Fuzz course',
		customerEmail: STUDENT_EMAIL,
		amountCents: 86_668,
	})
	const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: 'Week' })
	await insertLiveSession(t.db, { courseId: course.id })
	await insertWeek(t.db, { courseId: course.id, weekNumber: 2, topic: 'Next week' })
	const nextSession = new Date(Date.now() + 14 * 86_400_000)
	const liveSessionId = await insertLiveSession(t.db, {
		courseId: course.id,
		weekNumber: 2,
		startsAt: nextSession,
		endsAt: new Date(nextSession.getTime() + 3_600_000),
	})
	const itemId = await insertMaterialItem(t.db, { courseId: course.id, weekId, title: 'Handout', fileName: 'handout.pdf' })
	const assignment = await insertAssignment(t.db, { course_id: course.id, week_id: weekId, title: 'Homework' })
	await insertSubmission(t.db, { assignment_id: assignment.id, student_id: users.student, body: 'My answer', submitted_at: new Date() })
	const placeToken = 'fuzz-waitlist-place-token'
	await insertWaitlistEntry(t.db, {
		course_id: course.id,
		name: 'Fuzz Waiting',
		email: 'fuzz-waiting@example.com',
		position: 1,
		token_hash: hashToken(placeToken),
	})
	const paymentId = await insertPaidPayment(t.db, {
		checkoutSessionId: 'cs_test_fuzz_paid',
		userId: users.student,
		courseId: course.id,
		courseTitle: 'Fuzz course',
		customerEmail: 'fuzz@example.com',
	})
	// Older than the grace period, in which a file may still be waiting for its row.
	const lostKey = materialKey(course.id, weekId, 'material', 'lost.pdf')
	await files.storage.put(lostKey, new TextEncoder().encode('%PDF-1.4'), { contentType: 'application/pdf' })
	const longAgo = new Date(Date.now() - 2 * ORPHAN_GRACE_MS)
	fs.utimesSync(path.join(files.dir, lostKey), longAgo, longAgo)
	paidCourseId = (await insertCourse(t.db, { title: 'Fuzz paid course', capacity: 10, registration_fee: 25_000 })).id
	await insertWaitlistEntry(t.db, {
		course_id: paidCourseId,
		user_id: users.student,
		name: 'Fuzz Student',
		email: STUDENT_EMAIL,
		position: 1,
		token_hash: hashToken('fuzz-student-place-token'),
	})
	const checkout = await getPayments().createCheckoutSession({
		amountCents: 25_000,
		currency: 'usd',
		description: 'Fuzz paid course',
		customerEmail: STUDENT_EMAIL,
		metadata: { userId: users.student, courseId: String(paidCourseId) },
		expiresAt: new Date(Date.now() + 3_600_000),
		successUrl: 'http://localhost/registration-complete?session_id={CHECKOUT_SESSION_ID}',
		cancelUrl: 'http://localhost/dashboard',
		idempotencyKey: randomUUID(),
	})
	await insertPromotionCode(t.db, { code: 'FUZZ10', percent_off: 10 })
	await insertMessage(t.db, { sender_id: users.admin, receiver_id: users.student, content: 'Hello from the fuzz' })
	await insertContactSubmission(t.db, { name: 'Fuzz Contact', email: 'fuzz-contact@example.com', message: 'A question' })
	// A certificate of the student's: their certificates page has a form.
	const { certificateId } = await insertCertificate(t.db, { userId: users.student })
	// A discussion with the student's reply: the thread page's reply, edit, delete and moderation forms.
	const { threadId } = await insertCommunityThread(t.db, { courseId: course.id, authorId: users.admin, replies: [users.student] })
	params = {
		certificateId,
		list: '0',
		id: String(paidCourseId),
		courseId: String(course.id),
		weekId: String(weekId),
		itemId: String(itemId),
		assignmentId: String(assignment.id),
		sessionId: checkout.id,
		token: placeToken,
		liveSessionId: String(liveSessionId),
		threadId: String(threadId),
		paymentId: String(paymentId),
		planId: String(plan.planId),
		// The student's own payment: its receipt in Settings.
		chargeKind: 'payment',
		chargeId: String(paymentId),
		importId: await insertAttendanceImport(t.db, { sessionId: liveSessionId, adminId: users.admin }),
	}
	const visitors = await Promise.all(
		(['anonymous', 'student', 'courseInstructor', 'admin'] as const).map(async (name) => ({ name, cookie: await cookieOf(name) })),
	)
	// An instructor the course's Staff page offers to add.
	await insertUser(t.db, { role: 'instructor', name: 'Fuzz Instructor' })
	// Pages only an e-mail links to.
	const reader = await insertUser(t.db, { role: 'student', confirmed: false })
	const entryPoints = [
		`/reset-password?token=${await issueToken(t.db, reader, 'reset_password')}`,
		`/confirm-email?token=${await issueToken(t.db, reader, 'confirm_email')}`,
		`/accept-invite?token=${await issueToken(t.db, reader, 'invite')}`,
		`/unsubscribe?${new URLSearchParams({ token: unsubscribeToken(reader) })}`,
	]
	const crawlStarted = Date.now()
	crawl = await crawlForms({ handle: await appRequestHandler(), table, params, entryPoints, visitors })
	if (process.env.PRINT_FUZZ) console.log('crawl', Date.now() - crawlStarted)
}, 120_000)

describe('the forms the pages render', () => {
	test('the crawl reaches a form for every action, with every field', () => {
		const fields = discoveredFields()
		if (process.env.PRINT_FUZZ) {
			const perForm = crawl.forms.map((form) => new Set([...form.controls, ...form.submitters].map((field) => field.name)).size)
			const names = new Set(crawl.forms.flatMap((form) => [...form.controls, ...form.submitters].map((field) => field.name)))
			console.log({ pages: crawl.visits, forms: crawl.forms.length, fields: perForm.reduce((sum, n) => sum + n, 0), names: names.size })
		}
		expect(crawl.problems).toEqual([])
		// Fields that once answered 500 to a NUL (issue 37): if the crawl stops finding them, the fuzz below no longer covers them.
		const found = (routeId: string) => [...(fields.get(routeId) ?? [])]
		expect(found('routes/register/agreement')).toEqual(expect.arrayContaining(['apply-code promotionCode', 'agree promotionCode']))
		expect(found('routes/register/enroll')).toEqual(expect.arrayContaining(['apply-code promotionCode', 'agree promotionCode']))
		expect(found('routes/dashboard/assignment')).toContain('body')
		expect(found('routes/admin/session-edit')).toEqual(expect.arrayContaining(['move note', 'cancel note']))
		// Every action is reached by a form a page renders, but those no page has a form for.
		const scripted = new Set(SCRIPTED_ACTIONS.map((action) => action.id))
		const unreached = table.filter((route) => route.hasAction && !fields.has(route.id) && !scripted.has(route.id)).map((route) => route.id)
		expect(unreached).toEqual(ACTIONS_WITHOUT_FORMS)
	})

	test('each field in turn set to each nasty value, the rest as the page sends it: never a 5xx, and a refusal writes nothing', async () => {
		const problems: string[] = []
		let bodies = 0
		const started = Date.now()
		const targets = crawl.forms.flatMap((form) => [
			{ form, route: table.find((entry) => entry.id === form.routeId)!, url: form.action, params: form.params },
			...SCRIPTED_ACTIONS.filter((action) => action.formOf === form.routeId).map((action) => ({
				form,
				route: table.find((entry) => entry.id === action.id)!,
				url: action.path,
				params: {},
			})),
		])
		for (const { form, route, url, params } of targets) {
			let cookie = await cookieOf(form.visitor)
			let before = await counts()
			for (const { label, entries } of fieldMutations(form)) {
				bodies++
				const response = await post(route, url, params, encode(entries, form.multipart), cookie)
				const where = `${route.id} ${form.visitor} (form on ${form.page}) ${label}`
				if (typeof response === 'string') {
					problems.push(`${where}: ${response}`)
					continue
				}
				if (response.status >= 500) problems.push(`${where}: ${response.status}`)
				// A plausible form may be accepted here: a redirect is a refusal by its error toast, whatever the route.
				const redirect = response.status >= 300 && response.status < 400
				const refused = response.status >= 400 || (redirect && (await toastOf(response))?.type === 'error')
				await response.body?.cancel()
				const after = await counts()
				const changed = changedTables(before, after)
				if (refused && !WRITING_REFUSALS.has(route.id) && changed.length > 0) {
					problems.push(`${where}: ${response.status} but wrote ${changed.join(', ')}`)
				}
				before = after
				// A body that ended the session or the registration (log out, a finished registration) leaves the next one a fresh visitor.
				if (response.headers.getSetCookie().some((setCookie) => /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(setCookie))) {
					cookie = await cookieOf(form.visitor)
					before = await counts()
				}
			}
		}
		if (process.env.PRINT_FUZZ) console.log(targets.length, bodies, Date.now() - started)
		expect(problems).toEqual([])
	}, 300_000)
})

describe('malformed bodies to every action', () => {
	test('never a 5xx, and a refusal writes nothing', async () => {
		const problems: string[] = []
		const refusals = new Map<string, Set<number>>()
		const started = Date.now()
		const allFields = crawl.forms.flatMap((form) => form.controls)
		let bodies = 0
		for await (const { route, values, path } of actionTargets()) {
			// The fields the pages send this action, or every field the crawl found for an action no page posts to.
			const own = crawl.forms.filter((form) => form.routeId === route.id).flatMap((form) => form.controls)
			const controls = own.length > 0 ? own : allFields
			const fields = [...new Set(controls.map((control) => control.name))]
			const textFields = [
				...new Set(controls.filter((control) => ['text', 'textarea', 'search'].includes(control.type)).map((control) => control.name)),
			]
			for (const visitor of ['anonymous', 'student', 'courseInstructor', 'admin'] as const) {
				let cookie = visitor === 'anonymous' ? '' : await sessionCookieFor(users[visitor])
				let before = await counts()
				for (const body of malformedBodies(intentsOf(route), visitor, fields, textFields)) {
					bodies++
					// Logging out ends the session: the next body needs a new one.
					if (visitor !== 'anonymous' && route.id === 'routes/auth/logout') cookie = await sessionCookieFor(users[visitor])
					const response = await post(route, path, values, new URLSearchParams(body.fields), cookie)
					if (typeof response === 'string') {
						problems.push(`${route.id} ${visitor} ${body.label}: ${response}`)
						continue
					}
					const status = response.status
					await response.body?.cancel()
					if (status >= 500) problems.push(`${route.id} ${visitor} ${body.label}: ${status}`)
					const refused = status >= 400 || (status >= 300 && status < 400 && REDIRECTING_REFUSALS.has(route.id))
					const after = await counts()
					if (refused && !WRITING_REFUSALS.has(route.id)) {
						const changed = changedTables(before, after)
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
			console.log(bodies, Date.now() - started, Object.fromEntries([...refusals].map(([id, set]) => [id, [...set]])))
		expect(problems).toEqual([])
		expect(bodies).toBeGreaterThan(1000)
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
			for (const visitor of ['anonymous', 'student', 'courseInstructor', 'admin'] as const) {
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
