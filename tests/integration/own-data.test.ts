import { randomUUID } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { unzipSync } from 'fflate'
import { type Kysely, sql } from 'kysely'
import { describe, expect, test, vi } from 'vitest'
import { deleteOwnAccount } from '#app/models/accounts/account-deletion.server.ts'
import { personalDataArchive } from '#app/models/accounts/personal-data.server.ts'
import { listAnnouncements, listFromDeletedAccounts } from '#app/models/messaging/messages.server.ts'
import { attachmentKey, submissionKey } from '#app/services/storage/keys.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { RATE_LIMITS } from '#app/utils/rate-limit.server.ts'
import type { Database } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAssignment,
	insertAttendance,
	insertAttendanceImport,
	insertCertificate,
	insertCommunityThread,
	insertContactSubmission,
	insertCourse,
	insertEnrollment,
	insertLiveSession,
	insertMaterialLink,
	insertMessage,
	insertMessageAttachment,
	insertOutboxMail,
	insertPaidPayment,
	insertPaymentRefund,
	insertPlanPurchase,
	insertSeatHold,
	insertSubmission,
	insertUser,
	insertWaitlistEntry,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { callRoute, cookiesFrom, formRequest, sessionCookieFor, toastOf } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'
import * as deleteAccountRoute from '../../app/routes/dashboard/delete-account.tsx'
import * as myDataRoute from '../../app/routes/resources/my-data.ts'

const t = useTestDatabase()
const files = useTestStorage()

const PASSWORD = 'a-long-password-123'

/**
 * What deleting an account does to each table of the schema (docs/decisions/067). A new table
 * fails the first test until it is added here, with what deletion does to its rows of the person.
 */
const DELETION_BY_TABLE: Record<string, string> = {
	users: 'deleted',
	profiles: 'deleted (cascade)',
	sessions: 'deleted (cascade): signed out everywhere',
	auth_tokens: 'deleted (cascade)',
	enrollments: 'deleted (cascade); deletion is refused while one is active or pending',
	seat_holds: 'deleted (cascade); refused while one is live',
	registration_drafts: 'deleted, by user or e-mail',
	registration_payments: 'kept without user and e-mail (accounting)',
	payment_refunds: 'kept with their payment',
	plan_purchases: 'kept without user (accounting); refused while unfinished',
	plan_instalments: 'kept with their plan',
	test_checkout_sessions: 'kept without e-mail and user id',
	test_checkout_refunds: 'names no one',
	promotion_codes: 'creator forgotten (set null)',
	promotion_code_redemptions: 'kept without user (set null)',
	messages: 'received: deleted (cascade); sent: kept without sender ("Deleted user")',
	message_attachments: 'of messages sent or received: deleted, files removed',
	assignment_submissions: 'deleted (cascade), files removed',
	assignments: 'creator forgotten (set null)',
	attendance: 'deleted (cascade)',
	attendance_imports: 'the person is taken out of the kept preview',
	session_joins: 'deleted (cascade)',
	session_reminders: 'deleted (cascade)',
	material_opens: 'deleted (cascade)',
	certificates: 'deleted (cascade)',
	waitlist_entries: 'places left (seat offered on), then deleted by user or e-mail',
	contact_submissions: 'deleted by e-mail',
	email_outbox: 'mail to the person or naming them deleted',
	audit_log: 'kept; the person\'s id, e-mail and name replaced by "Deleted user"',
	rate_limits: 'counters keyed by the person deleted',
	community_threads: 'kept without author (set null)',
	community_posts: 'kept without author (set null)',
	course_staff: 'deleted (cascade)',
	site_settings: 'editor forgotten (set null)',
	agreement_versions: 'author forgotten (set null)',
	courses: 'names no one',
	course_materials: 'names no one',
	course_payment_plans: 'names no one',
	live_sessions: 'names no one',
	material_items: 'names no one',
	kysely_migration: 'names no one',
	kysely_migration_lock: 'names no one',
}

async function publicTables(db: Kysely<Database>) {
	const rows = await sql<{ table_name: string }>`
		select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name
	`.execute(db)
	return rows.rows.map((row) => row.table_name)
}

/** Every row of every table of the app's schemas, as text, that contains one of `needles`. */
async function rowsNaming(db: Kysely<Database>, needles: string[]) {
	const tables = await sql<{ table_schema: string; table_name: string }>`
		select table_schema, table_name from information_schema.tables
		where table_schema in ('public', 'graphile_worker') and table_type = 'BASE TABLE'
	`.execute(db)
	const found: string[] = []
	for (const { table_schema, table_name } of tables.rows) {
		const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(`${table_schema}.${table_name}`)} t`.execute(db)
		for (const { row } of rows.rows) {
			if (needles.some((needle) => row.toLowerCase().includes(needle.toLowerCase()))) found.push(`${table_name}: ${row}`)
		}
	}
	return found
}

async function personWithPassword(db: Kysely<Database>, options: Parameters<typeof insertUser>[1] = {}) {
	const id = await insertUser(db, options)
	await db
		.updateTable('users')
		.set({ password_hash: await hashPassword(PASSWORD) })
		.where('id', '=', id)
		.execute()
	return id
}

async function storeFile(key: string, text: string) {
	await files.storage.put(key, Buffer.from(text), { contentType: 'text/plain' })
	return key
}

/** A former student with a bit of everything the app keeps about a person, and one other student they wrote to. */
async function formerStudent(db: Kysely<Database>) {
	const tag = randomUUID().slice(0, 8)
	const name = `Quinn Erasable-${tag}`
	const email = `quinn-${tag}@example.com`
	const id = await personWithPassword(db, { name, email })
	const otherId = await insertUser(db, { name: `Other Student ${tag}` })
	const adminId = await insertUser(db, { role: 'admin', name: `Admin ${tag}` })

	const { courseId, enrollmentId } = await insertCertificate(db, { userId: id, course: { title: `Finished course ${tag}` } })
	const sessionId = await insertLiveSession(db, { courseId })
	await insertAttendance(db, { sessionId, userId: id, minutes: 55, source: 'report' })
	await db.insertInto('session_joins').values({ live_session_id: sessionId, user_id: id }).execute()
	await db
		.insertInto('sessions')
		.values({ id: randomUUID(), user_id: id, expires_at: new Date(Date.now() + 3_600_000) })
		.execute()
	await db
		.insertInto('auth_tokens')
		.values({ user_id: id, purpose: 'reset_password', token_hash: randomUUID(), expires_at: new Date(Date.now() + 3_600_000) })
		.execute()
	await insertAttendanceImport(db, {
		sessionId,
		adminId,
		plan: {
			rows: 2,
			students: [
				{ userId: id, status: 'present', minutes: 55, matchedBy: 'email' },
				{ userId: otherId, status: 'absent', minutes: 0, matchedBy: null },
			],
			unmatched: [{ line: 3, name, email, minutes: 4 }],
		},
	})

	const assignment = await insertAssignment(db, { course_id: courseId, title: 'Market analysis' })
	const handIn = await storeFile(submissionKey(assignment.id, id, 'analysis.txt'), 'my analysis')
	const submission = await insertSubmission(db, {
		assignment_id: assignment.id,
		student_id: id,
		body: 'See the file',
		file_name: 'analysis.txt',
		file_type: 'text/plain',
		file_size: 11,
		storage_key: handIn,
		status: 'graded',
		grade: 'A',
		feedback: 'Well done',
		graded_by: adminId,
	})

	const sent = await insertMessage(db, { sender_id: id, receiver_id: otherId, content: 'Hello from Quinn' })
	const sentFile = await storeFile(attachmentKey(id, 'notes.txt'), 'my notes')
	const sentAttachment = await insertMessageAttachment(db, { message_id: sent.id, name: 'notes.txt', storage_key: sentFile, size_bytes: 8 })
	const received = await insertMessage(db, { sender_id: otherId, receiver_id: id, content: 'Hello Quinn' })
	const receivedFile = await storeFile(attachmentKey(otherId, 'reply.txt'), 'a reply')
	const receivedAttachment = await insertMessageAttachment(db, {
		message_id: received.id,
		name: 'reply.txt',
		storage_key: receivedFile,
		size_bytes: 7,
	})

	const paymentId = await insertPaidPayment(db, {
		checkoutSessionId: `cs_test_${tag}`,
		userId: id,
		courseId,
		courseTitle: `Finished course ${tag}`,
		customerEmail: email,
		enrollmentId,
	})
	await insertPaymentRefund(db, {
		payment_id: paymentId,
		amount_cents: 10_000,
		request_key: randomUUID(),
		actor_id: adminId,
	})
	await db
		.insertInto('test_checkout_sessions')
		.values({
			id: `cs_test_${tag}`,
			amount_cents: 250_000,
			description: 'Course',
			customer_email: email,
			metadata: JSON.stringify({ userId: id, courseId: String(courseId) }),
			success_url: 'http://localhost/ok',
			cancel_url: 'http://localhost/cancel',
			expires_at: new Date(),
		})
		.execute()
	const plan = await insertPlanPurchase(db, { userId: id, courseId, enrollmentId, status: 'completed' })

	const laterCourse = await insertCourse(db, { title: `Later course ${tag}` })
	await insertWaitlistEntry(db, { course_id: laterCourse.id, user_id: id, name, email })
	await insertContactSubmission(db, { name, email, message: 'Is there a spring cohort?' })
	await db
		.insertInto('registration_drafts')
		.values({ name, email, password_hash: 'x', expires_at: new Date(Date.now() + 3_600_000) })
		.execute()
	await insertSeatHold(db, { userId: id, courseId: laterCourse.id, expiresInMs: -60_000 })
	await insertOutboxMail(db, { to_address: email, subject: 'Your receipt' })
	await insertOutboxMail(db, {
		to_address: `admin-${tag}@example.com`,
		subject: 'New waitlist request',
		text_body: `${name} joined the waitlist`,
	})
	await db
		.insertInto('audit_log')
		.values({ actor_id: adminId, action: 'user.role', entity: 'user', entity_id: id, details: JSON.stringify({ email, name }) })
		.execute()
	await db
		.insertInto('rate_limits')
		.values({ key: `accountMail:${email}`, points: 1, expire: Date.now() + 60_000 })
		.execute()
	await insertCommunityThread(db, { courseId, authorId: id, title: 'Open houses', body: 'Who is going?', replies: [otherId] })
	await db
		.insertInto('material_opens')
		.values({ user_id: id, material_item_id: await openedMaterial(db, courseId) })
		.execute()

	return {
		id,
		name,
		email,
		otherId,
		adminId,
		courseId,
		paymentId,
		planId: plan.planId,
		sentMessageId: sent.id,
		sentAttachmentId: sentAttachment.id,
		receivedAttachmentId: receivedAttachment.id,
		submissionId: submission.id,
		keys: [handIn, sentFile, receivedFile],
	}
}

async function openedMaterial(db: Kysely<Database>, courseId: number) {
	const weekId = await insertWeek(db, { courseId, weekNumber: 1 })
	return (await insertMaterialLink(db, { weekId, url: 'https://www.youtube.com/watch?v=replay' })).id
}

async function unzip(stream: NodeJS.ReadableStream) {
	const chunks: Buffer[] = []
	for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
	const entries = unzipSync(new Uint8Array(Buffer.concat(chunks)))
	const text = (name: string) => new TextDecoder().decode(entries[name])
	return { names: Object.keys(entries).sort(), text, json: (name: string) => JSON.parse(text(name)) }
}

describe("deleting one's own account", () => {
	test('every table of the schema is accounted for', async () => {
		expect(await publicTables(t.db)).toEqual(Object.keys(DELETION_BY_TABLE).sort())
	})

	test('leaves no row naming the person but the anonymised payments, and none of their files', async () => {
		const person = await formerStudent(t.db)
		const paymentsBefore = await t.db.selectFrom('registration_payments').select('id').where('id', '=', person.paymentId).execute()
		expect(paymentsBefore).toHaveLength(1)
		expect(await rowsNaming(t.db, [person.id, person.email, person.name])).not.toEqual([])

		const outcome = await deleteOwnAccount(t.db, { userId: person.id, password: PASSWORD }, files.storage)
		expect(outcome).toEqual({ status: 'deleted', filesRemoved: true })

		expect(await rowsNaming(t.db, [person.id, person.email, person.name])).toEqual([])
		const payment = await t.db.selectFrom('registration_payments').selectAll().where('id', '=', person.paymentId).executeTakeFirstOrThrow()
		expect(payment).toMatchObject({ user_id: null, customer_email: '', status: 'paid', amount_cents: 250_000 })
		expect(await t.db.selectFrom('payment_refunds').select('id').where('payment_id', '=', person.paymentId).execute()).toHaveLength(1)
		const plan = await t.db
			.selectFrom('plan_purchases')
			.select(['user_id', 'total_cents'])
			.where('id', '=', person.planId)
			.executeTakeFirstOrThrow()
		expect(plan).toEqual({ user_id: null, total_cents: 260_000 })
		expect(await t.db.selectFrom('plan_instalments').select('id').where('plan_purchase_id', '=', person.planId).execute()).toHaveLength(3)

		const sent = await t.db
			.selectFrom('messages')
			.select(['sender_id', 'receiver_id', 'content'])
			.where('id', '=', person.sentMessageId)
			.executeTakeFirstOrThrow()
		expect(sent).toEqual({ sender_id: null, receiver_id: person.otherId, content: 'Hello from Quinn' })
		const readerSees = await listFromDeletedAccounts(t.db, person.otherId)
		expect(readerSees.messages).toEqual([
			expect.objectContaining({ sender: 'Deleted user', senderId: null, content: 'Hello from Quinn', attachments: [] }),
		])
		expect(await t.db.selectFrom('community_posts').select('author_id').where('body', '=', 'Who is going?').execute()).toEqual([
			{ author_id: null },
		])
		const audit = await t.db.selectFrom('audit_log').select(['action', 'entity_id', 'details']).orderBy('id').execute()
		expect(audit).toEqual([
			{ action: 'user.role', entity_id: null, details: { email: 'Deleted user', name: 'Deleted user' } },
			{ action: 'account.delete', entity_id: null, details: { role: 'student' } },
		])
		const importPlan = await t.db.selectFrom('attendance_imports').select('plan').executeTakeFirstOrThrow()
		expect(importPlan.plan).toEqual({
			rows: 2,
			students: [{ userId: person.otherId, status: 'absent', minutes: 0, matchedBy: null }],
			unmatched: [],
		})
		expect(await t.db.selectFrom('email_outbox').select('id').execute()).toEqual([])

		for (const key of person.keys) expect(await files.storage.stat(key)).toBeNull()
		const left: string[] = []
		for await (const object of files.storage.list(`messages/${person.id}/`)) left.push(object.key)
		expect(left).toEqual([])
	})

	test('an announcement of an admin who deleted their account reads as from "Deleted user"', async () => {
		await insertUser(t.db, { role: 'admin' })
		const admin = await personWithPassword(t.db, { role: 'admin', name: 'Avery Leaving' })
		await insertMessage(t.db, { sender_id: admin, is_announcement: true, subject: 'Welcome', content: 'Hello everyone' })
		expect(await deleteOwnAccount(t.db, { userId: admin, password: PASSWORD }, files.storage)).toMatchObject({ status: 'deleted' })
		const reader = await insertUser(t.db)
		const page = await listAnnouncements(t.db, { userId: reader, isAdmin: false })
		expect(page.messages.find((message) => message.subject === 'Welcome')).toMatchObject({ sender: 'Deleted user', senderId: null })
	})

	test('two deletions at once: one deletes, the other finds the account gone', async () => {
		const person = await formerStudent(t.db)
		const outcomes = await Promise.all([
			deleteOwnAccount(t.db, { userId: person.id, password: PASSWORD }, files.storage),
			deleteOwnAccount(t.db, { userId: person.id, password: PASSWORD }, files.storage),
		])
		expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['deleted', 'gone'])
		expect(await rowsNaming(t.db, [person.id, person.email, person.name])).toEqual([])
	})

	test('the last two admins deleting at once: one goes, the other is refused', async () => {
		await t.db.updateTable('profiles').set({ role: 'student' }).where('role', '=', 'admin').execute()
		const first = await personWithPassword(t.db, { role: 'admin' })
		const second = await personWithPassword(t.db, { role: 'admin' })
		const outcomes = await Promise.all([
			deleteOwnAccount(t.db, { userId: first, password: PASSWORD }, files.storage),
			deleteOwnAccount(t.db, { userId: second, password: PASSWORD }, files.storage),
		])
		expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['deleted', 'refused'])
		expect(await t.db.selectFrom('profiles').select('id').where('role', '=', 'admin').execute()).toHaveLength(1)
	})

	test('a wrong password, the last admin and a student with an active enrolment are refused, and nothing changes', async () => {
		const student = await personWithPassword(t.db)
		expect(await deleteOwnAccount(t.db, { userId: student, password: 'not-the-password' }, files.storage)).toEqual({
			status: 'refused',
			reason: 'wrong-password',
		})

		const course = await insertCourse(t.db)
		await insertEnrollment(t.db, { userId: student, courseId: course.id })
		expect(await deleteOwnAccount(t.db, { userId: student, password: PASSWORD }, files.storage)).toEqual({
			status: 'refused',
			reason: 'enrolled',
		})
		expect(await t.db.selectFrom('users').select('id').where('id', '=', student).execute()).toHaveLength(1)

		await t.db.updateTable('profiles').set({ role: 'student' }).where('role', '=', 'admin').execute()
		const admin = await personWithPassword(t.db, { role: 'admin' })
		expect(await deleteOwnAccount(t.db, { userId: admin, password: PASSWORD }, files.storage)).toEqual({
			status: 'refused',
			reason: 'last-admin',
		})
		const secondAdmin = await insertUser(t.db, { role: 'admin' })
		expect(await deleteOwnAccount(t.db, { userId: admin, password: PASSWORD }, files.storage)).toMatchObject({ status: 'deleted' })
		expect(await t.db.selectFrom('profiles').select('id').where('role', '=', 'admin').execute()).toEqual([{ id: secondAdmin }])
	})

	test('a waiting place is left, so an offered seat goes to the next in line', async () => {
		const person = await personWithPassword(t.db)
		const { email } = await t.db.selectFrom('users').select('email').where('id', '=', person).executeTakeFirstOrThrow()
		const course = await insertCourse(t.db, { capacity: 1 })
		const offered = await insertWaitlistEntry(t.db, {
			course_id: course.id,
			user_id: person,
			email,
			status: 'offered',
			offer_token_hash: randomUUID(),
			offered_at: new Date(),
			offer_expires_at: new Date(Date.now() + 3_600_000),
		})
		const next = await insertWaitlistEntry(t.db, { course_id: course.id, position: 2 })
		await deleteOwnAccount(t.db, { userId: person, password: PASSWORD }, files.storage)
		expect(await t.db.selectFrom('waitlist_entries').select('id').where('id', '=', offered.id).execute()).toEqual([])
		const after = await t.db.selectFrom('waitlist_entries').select('status').where('id', '=', next.id).executeTakeFirstOrThrow()
		expect(after.status).toBe('offered')
	})
})

describe('the delete route', () => {
	test('ends every session, signs out and answers a second parallel submit the same way', async () => {
		const person = await formerStudent(t.db)
		const cookie = await sessionCookieFor(person.id)
		const submit = () =>
			callRoute(
				deleteAccountRoute.action,
				formRequest('/dashboard/settings/delete-account', { password: PASSWORD, confirm: 'on' }, { cookie }),
			)
		const answers = await Promise.all([submit(), submit()])
		for (const answer of answers) expect(answer.status).toBe(302)
		const deleted = answers.find((answer) => answer.headers.get('Location') === '/')!
		expect(await toastOf(deleted)).toMatchObject({ title: 'Your account has been deleted' })
		expect(cookiesFrom(deleted)).not.toContain('__session')
		expect(await t.db.selectFrom('users').select('id').where('id', '=', person.id).execute()).toEqual([])
		expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', person.id).execute()).toEqual([])
		const audits = await t.db
			.selectFrom('audit_log')
			.select('id')
			.where('action', '=', 'account.delete')
			.where('created_at', '>', new Date(Date.now() - 60_000))
			.execute()
		expect(audits.length).toBeGreaterThanOrEqual(1)
		expect(await rowsNaming(t.db, [person.id, person.email, person.name])).toEqual([])
	})

	test("another user's id in the body deletes only the one signed in, and only with their own password", async () => {
		const victim = await formerStudent(t.db)
		const attacker = await personWithPassword(t.db)
		const cookie = await sessionCookieFor(attacker)
		const forged = { userId: victim.id, id: victim.id, password: PASSWORD, confirm: 'on' }

		const wrongPassword = await callRoute(
			deleteAccountRoute.action,
			formRequest('/dashboard/settings/delete-account', { ...forged, password: 'the-victims-password' }, { cookie }),
		)
		expect(wrongPassword.status).toBe(400)
		expect(await t.db.selectFrom('users').select('id').where('id', 'in', [victim.id, attacker]).execute()).toHaveLength(2)

		const own = await callRoute(deleteAccountRoute.action, formRequest('/dashboard/settings/delete-account', forged, { cookie }))
		expect(own.status).toBe(302)
		expect(await t.db.selectFrom('users').select('id').where('id', '=', attacker).execute()).toEqual([])
		expect(await t.db.selectFrom('users').select('id').where('id', '=', victim.id).execute()).toHaveLength(1)
		expect(await files.storage.stat(victim.keys[0]!)).not.toBeNull()
	})

	test('without the confirmation or the password nothing is deleted', async () => {
		const person = await personWithPassword(t.db)
		const cookie = await sessionCookieFor(person)
		for (const fields of [{ password: PASSWORD }, { confirm: 'on' }, { password: '', confirm: 'on' }] as Record<string, string>[]) {
			const answer = await callRoute(deleteAccountRoute.action, formRequest('/dashboard/settings/delete-account', fields, { cookie }))
			expect(answer.status).toBe(400)
		}
		expect(await t.db.selectFrom('users').select('id').where('id', '=', person).execute()).toHaveLength(1)
	})
})

describe("downloading one's own data", () => {
	test('the archive holds every part as JSON, the original files and a README', async () => {
		const person = await formerStudent(t.db)
		const archive = await personalDataArchive(t.db, files.storage, { userId: person.id, school: 'Test School' })
		const zip = await unzip(archive!)
		expect(zip.names).toEqual(
			[
				'README.txt',
				'attendance.json',
				'certificates.json',
				'community.json',
				'enrolments.json',
				`files/messages/${person.sentAttachmentId}-notes.txt`,
				`files/messages/${person.receivedAttachmentId}-reply.txt`,
				`files/submissions/${person.submissionId}-analysis.txt`,
				'messages.json',
				'payments.json',
				'profile.json',
				'submissions.json',
			].sort(),
		)
		expect(zip.text('README.txt')).toContain('Your data from Test School')
		expect(zip.text(`files/submissions/${person.submissionId}-analysis.txt`)).toBe('my analysis')
		expect(zip.text(`files/messages/${person.sentAttachmentId}-notes.txt`)).toBe('my notes')

		expect(zip.json('profile.json')).toMatchObject({ id: person.id, email: person.email, name: person.name, role: 'student' })
		expect(zip.json('enrolments.json')).toEqual([expect.objectContaining({ status: 'completed' })])
		const payments = zip.json('payments.json')
		expect(payments.payments).toEqual([
			expect.objectContaining({ id: person.paymentId, amountCents: 250_000, refunds: [expect.objectContaining({ amountCents: 10_000 })] }),
		])
		expect(payments.instalmentPlans).toEqual([expect.objectContaining({ id: person.planId, totalCents: 260_000 })])
		expect(payments.instalmentPlans[0].instalments).toHaveLength(3)
		const messages = zip.json('messages.json')
		expect(messages.map((message: { direction: string; content: string }) => [message.direction, message.content])).toEqual([
			['sent', 'Hello from Quinn'],
			['received', 'Hello Quinn'],
		])
		expect(messages[0].attachments).toEqual([
			expect.objectContaining({ name: 'notes.txt', file: `files/messages/${person.sentAttachmentId}-notes.txt` }),
		])
		expect(zip.json('submissions.json')).toEqual([
			expect.objectContaining({ assignment: 'Market analysis', grade: 'A', file: `files/submissions/${person.submissionId}-analysis.txt` }),
		])
		expect(zip.json('attendance.json').sessions).toEqual([expect.objectContaining({ status: 'present', minutes: 55 })])
		expect(zip.json('attendance.json').joinLinkUsed).toHaveLength(1)
		expect(zip.json('certificates.json')).toEqual([expect.objectContaining({ recipientName: person.name })])
		expect(zip.json('community.json').map((post: { body: string }) => post.body)).toEqual(['Who is going?'])
	})

	test('streams: each stored file is opened only when the archive reaches it, one at a time', async () => {
		const person = await formerStudent(t.db)
		const get = files.storage.get.bind(files.storage)
		let open = 0
		let mostOpen = 0
		vi.spyOn(files.storage, 'get').mockImplementation(async (key, range) => {
			const object = await get(key, range)
			open += 1
			mostOpen = Math.max(mostOpen, open)
			object?.body.once('close', () => {
				open -= 1
			})
			return object
		})
		const archive = await personalDataArchive(t.db, files.storage, { userId: person.id, school: 'Test School' })
		const zip = await unzip(archive!)
		expect(zip.names.filter((name) => name.startsWith('files/'))).toHaveLength(3)
		expect(files.storage.get).toHaveBeenCalledTimes(3)
		expect(mostOpen).toBe(1)
	})

	test('a stored file that fails while it is read ends the archive with an error, not a hang', async () => {
		const person = await formerStudent(t.db)
		vi.spyOn(console, 'error').mockImplementation(() => undefined)
		vi.spyOn(files.storage, 'get').mockImplementation(async () => {
			const body = new PassThrough()
			body.write('the first bytes')
			setTimeout(() => body.destroy(new Error('connection reset')), 10)
			return { body, size: 100, contentType: 'text/plain' }
		})
		const archive = await personalDataArchive(t.db, files.storage, { userId: person.id, school: 'Test School' })
		await expect(unzip(archive!)).rejects.toThrow('connection reset')
	})

	test('the route streams a ZIP of the signed-in person only, whatever the body names', async () => {
		const person = await formerStudent(t.db)
		const other = await formerStudent(t.db)
		const cookie = await sessionCookieFor(person.id)
		const answer = await callRoute(
			myDataRoute.action,
			formRequest('/dashboard/settings/my-data', { intent: 'download', userId: other.id }, { cookie }),
		)
		expect(answer.status).toBe(200)
		expect(answer.headers.get('Content-Type')).toBe('application/zip')
		expect(answer.headers.get('Content-Disposition')).toMatch(/attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"/)
		const bytes = new Uint8Array(await answer.arrayBuffer())
		const profile = JSON.parse(new TextDecoder().decode(unzipSync(bytes)['profile.json']))
		expect(profile.id).toBe(person.id)
	})

	test('is limited per person, counted one by one when requests arrive together', async () => {
		const person = await personWithPassword(t.db)
		const cookie = await sessionCookieFor(person)
		const { points } = RATE_LIMITS.personalDataDownload
		const answers = await Promise.all(
			Array.from({ length: points + 2 }, () =>
				callRoute(myDataRoute.action, formRequest('/dashboard/settings/my-data', { intent: 'download' }, { cookie })),
			),
		)
		const statuses = answers.map((answer) => answer.status)
		expect(statuses.filter((status) => status === 200)).toHaveLength(points)
		const refused = answers.filter((answer) => answer.status === 302)
		expect(refused).toHaveLength(2)
		expect(await toastOf(refused[0]!)).toMatchObject({ type: 'error', title: 'Download limit reached' })
		for (const answer of answers) await answer.body?.cancel()
	})
})
