/**
 * Announcements reach people (issue 26, point 6): each is e-mailed to the students it is for
 * by one job that fans out through the outbox, once, with a one-click unsubscribe link
 * (RFC 8058) that works without signing in; one may be addressed to one course's students.
 */
import { type Kysely, sql } from 'kysely'
import { simpleParser } from 'mailparser'
import { beforeEach, describe, expect, test } from 'vitest'
import {
	getEmailPreferences,
	oneClickUnsubscribeUrl,
	unsubscribeToken,
	unsubscribeUrl,
	userOfUnsubscribeToken,
} from '#app/models/accounts/email-preferences.server.ts'
import { emailAnnouncement } from '#app/models/messaging/announcement-emails.server.ts'
import { createMessage, findAttachmentForUser } from '#app/models/messaging/messages.server.ts'
import { action as broadcastAction, loader as broadcastLoader } from '#app/routes/admin/messages/broadcast.tsx'
import { action as unsubscribeAction, loader as unsubscribeLoader } from '#app/routes/auth/unsubscribe.tsx'
import { loader as messagesLoader } from '#app/routes/dashboard/messages.tsx'
import { action as oneClickAction, loader as oneClickLoader } from '#app/routes/resources/unsubscribe-one-click.ts'
import { configureMailDelivery, deliverQueuedMail, enqueueMails } from '#app/services/mail/index.server.ts'
import { deliverPendingMail } from '#app/services/mail/outbox.server.ts'
import { SmtpTransport } from '#app/services/mail/smtp.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import type { Database } from '#db/types.ts'
import { emptyTables, useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertMessageAttachment, insertUser } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, toastOf } from '#tests/support/requests.ts'
import { useSmtpServer } from '#tests/support/smtp-stand-in.ts'

const t = useTestDatabase()
const smtp = useSmtpServer()

beforeEach(async () => {
	// Each test counts its own students: nobody of an earlier test stays.
	await emptyTables(t.db, ['email_outbox', 'messages', 'audit_log', 'enrollments', 'courses', 'sessions', 'profiles', 'users'])
	await sql`DELETE FROM graphile_worker._private_jobs`.execute(t.db)
	smtp.messages.length = 0
})

const pendingJobs = async (task: string) =>
	(await sql<{ count: number }>`SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE task_identifier = ${task}`.execute(t.db))
		.rows[0]!.count

/** A user and their address. */
async function person(db: Kysely<Database>, options: Parameters<typeof insertUser>[1] = {}) {
	const id = await insertUser(db, options)
	const { email } = await db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()
	return { id, email }
}

function composerRequest(cookie: string, fields: Record<string, string>) {
	const body = new FormData()
	for (const [name, value] of Object.entries(fields)) body.set(name, value)
	return new Request('http://localhost/dashboard/admin/messages/broadcast', {
		method: 'POST',
		body,
		headers: { Cookie: cookie, 'x-client-ip': '203.0.113.9' },
	})
}

/** The admin posts the announcement composer (a multipart form), signed in anew. */
async function postComposer(adminId: string, fields: Record<string, string>) {
	return callRoute(broadcastAction, composerRequest(await sessionCookieFor(adminId), fields))
}

async function announce(db: Kysely<Database>, senderId: string, values: { subject: string; content: string; courseId?: number | null }) {
	return db.transaction().execute((trx) => createMessage(trx, { senderId, receiverId: null, ...values }))
}

const outbox = (db: Kysely<Database>) => db.selectFrom('email_outbox').selectAll().orderBy('to_address').execute()

describe('an announcement is e-mailed to the students it is for', () => {
	test('posting one asks for one job, which queues a mail for each student who keeps announcement e-mails on, once', async () => {
		const admin = await person(t.db, { role: 'admin' })
		const reader = await person(t.db, { email: 'a-reader@example.com' })
		const optedOut = await person(t.db)
		await t.db.updateTable('profiles').set({ email_announcements: false }).where('id', '=', optedOut.id).execute()
		await person(t.db, { confirmed: false })
		await person(t.db, { role: 'instructor' })
		const noRole = await person(t.db, { email: 'b-norole@example.com' })
		await t.db.updateTable('profiles').set({ role: null }).where('id', '=', noRole.id).execute()

		const sent = await postComposer(admin.id, {
			intent: 'announce',
			subject: 'Week 2: new time',
			message: 'Class moves to 7 PM.',
		})
		expect(sent.status).toBe(302)
		// The admin's request wrote the announcement and one job, no mail.
		expect(await pendingJobs('email-announcement')).toBe(1)
		expect(await outbox(t.db)).toEqual([])

		const { id } = await t.db.selectFrom('messages').select('id').executeTakeFirstOrThrow()
		expect(await emailAnnouncement(t.db, id)).toBe(2)
		const mails = await outbox(t.db)
		expect(mails.map((mail) => mail.to_address)).toEqual([reader.email, noRole.email])
		for (const [mail, recipient] of [
			[mails[0]!, reader],
			[mails[1]!, noRole],
		] as const) {
			const link = unsubscribeUrl(recipient.id)
			expect(mail.subject).toBe('Week 2: new time')
			expect(mail.headers).toEqual({
				'List-Unsubscribe': `<${oneClickUnsubscribeUrl(recipient.id)}>`,
				'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
			})
			expect(mail.text_body).toContain('Class moves to 7 PM.')
			expect(mail.text_body).toContain(link)
			expect(mail.html_body).toContain(`href="${link.replaceAll('&', '&amp;')}"`)
			// Nobody's mail carries another's link.
			expect(mail.text_body.match(/token=[^\s&]+/g)).toEqual([`token=${encodeURIComponent(unsubscribeToken(recipient.id))}`])
		}
		expect(await pendingJobs('deliver-mail')).toBe(1)

		// The job again (a retry, another process): nothing more.
		expect(await emailAnnouncement(t.db, id)).toBeNull()
		expect(await outbox(t.db)).toHaveLength(2)
	})

	test('jobs for the same announcement running at once queue each mail once', async () => {
		const admin = await person(t.db, { role: 'admin' })
		const students = await Promise.all(Array.from({ length: 30 }, () => person(t.db)))
		const { id } = await announce(t.db, admin.id, { subject: 'Parallel', content: 'Once each' })
		const results = await Promise.all(Array.from({ length: 6 }, () => emailAnnouncement(t.db, id)))
		expect(results.filter((result) => result !== null)).toEqual([30])
		const mails = await outbox(t.db)
		expect(mails.map((mail) => mail.to_address).sort()).toEqual(students.map((student) => student.email).sort())
	})

	test('a deleted announcement is not e-mailed', async () => {
		const admin = await person(t.db, { role: 'admin' })
		await person(t.db)
		const { id } = await announce(t.db, admin.id, { subject: 'Oops', content: 'Sent by mistake' })
		await t.db.deleteFrom('messages').where('id', '=', id).execute()
		expect(await emailAnnouncement(t.db, id)).toBeNull()
		expect(await outbox(t.db)).toEqual([])
	})

	test('it arrives over SMTP as multipart/alternative with both parts and the RFC 8058 headers', async () => {
		const admin = await person(t.db, { role: 'admin' })
		const student = await person(t.db)
		const { id } = await announce(t.db, admin.id, { subject: 'Bring a pen', content: 'See you Tuesday.' })
		await emailAnnouncement(t.db, id)
		expect(await deliverPendingMail(t.db, new SmtpTransport(smtp.url), 'School <no-reply@example.com>')).toEqual({
			sent: 1,
			retried: 0,
			failed: 0,
		})
		const raw = smtp.messages[0]!.raw
		// Long header lines arrive folded; unfolded (RFC 5322 §2.2.3) they are what was queued.
		const unfolded = raw.replace(/\r\n[ \t]+/g, ' ')
		expect(raw).toMatch(/Content-Type: multipart\/alternative/)
		const link = unsubscribeUrl(student.id)
		expect(unfolded).toContain(`List-Unsubscribe: <${oneClickUnsubscribeUrl(student.id)}>`)
		expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m)
		const parsed = await simpleParser(raw)
		expect(parsed.to).toMatchObject({ text: student.email })
		expect(parsed.text).toContain('See you Tuesday.')
		expect(parsed.text).toContain(link)
		expect(parsed.html).toContain('See you Tuesday.')
		expect(parsed.html).toContain('Real Estate Mentorship')
	})

	test('a long queue is delivered batch after batch: a full batch asks for the next delivery at once', async () => {
		configureMailDelivery({ ...getEnv(), SMTP_URL: smtp.url })
		await enqueueMails(
			t.db,
			Array.from({ length: 25 }, (_, index) => ({
				to: `many-${index}@example.com`,
				subject: `Many ${index}`,
				text: 'x',
				html: '<p>x</p>',
			})),
		)
		await sql`DELETE FROM graphile_worker._private_jobs`.execute(t.db)
		expect(await deliverQueuedMail()).toMatchObject({ sent: 20 })
		expect(await pendingJobs('deliver-mail')).toBe(1)
		await sql`DELETE FROM graphile_worker._private_jobs`.execute(t.db)
		expect(await deliverQueuedMail()).toMatchObject({ sent: 5 })
		expect(await pendingJobs('deliver-mail')).toBe(0)
		expect(smtp.messages).toHaveLength(25)
	})
})

describe("an announcement for one course's students", () => {
	test('reaches its actively enrolled students only, on the site and by e-mail; admins see every one', async () => {
		const admin = await person(t.db, { role: 'admin' })
		const course = await insertCourse(t.db, { title: 'Spring Cohort' })
		const other = await insertCourse(t.db)
		const enrolled = await person(t.db)
		const pending = await person(t.db)
		const elsewhere = await person(t.db)
		await insertEnrollment(t.db, { userId: enrolled.id, courseId: course.id })
		await insertEnrollment(t.db, { userId: pending.id, courseId: course.id, status: 'pending' })
		await insertEnrollment(t.db, { userId: elsewhere.id, courseId: other.id })

		const sent = await postComposer(admin.id, {
			intent: 'announce',
			courseId: String(course.id),
			subject: 'Cohort only',
			message: 'Room 4',
		})
		expect(sent.status).toBe(302)
		await announce(t.db, admin.id, { subject: 'Everyone', content: 'Holiday' })
		const cohortOnly = await t.db.selectFrom('messages').select('id').where('subject', '=', 'Cohort only').executeTakeFirstOrThrow()
		expect(await t.db.selectFrom('messages').select('course_id').where('id', '=', cohortOnly.id).executeTakeFirstOrThrow()).toEqual({
			course_id: course.id,
		})

		expect(await emailAnnouncement(t.db, cohortOnly.id)).toBe(1)
		const [mail] = await outbox(t.db)
		expect(mail!.to_address).toBe(enrolled.email)
		expect(mail!.text_body).toContain('Announcement · Spring Cohort')
		expect(mail!.text_body).toMatch(/you are a student of Spring Cohort/)

		const subjectsSeenBy = async (userId: string) => {
			const response = await callRoute(
				messagesLoader,
				getRequest('/dashboard/messages?tab=announcements', { cookie: await sessionCookieFor(userId) }),
			)
			return ((await response.json()).announcements as Array<{ subject: string }>).map((row) => row.subject)
		}
		expect(await subjectsSeenBy(enrolled.id)).toEqual(['Everyone', 'Cohort only'])
		expect(await subjectsSeenBy(pending.id)).toEqual(['Everyone'])
		expect(await subjectsSeenBy(elsewhere.id)).toEqual(['Everyone'])
		expect(await subjectsSeenBy(admin.id)).toEqual(['Everyone', 'Cohort only'])
		const history = await (
			await callRoute(broadcastLoader, getRequest('/dashboard/admin/messages/broadcast', { cookie: await sessionCookieFor(admin.id) }))
		).json()
		expect(history.announcements.map((row: { subject: string; course: unknown }) => [row.subject, row.course])).toEqual([
			['Everyone', null],
			['Cohort only', { id: course.id, title: 'Spring Cohort' }],
		])
		expect(history.courses).toEqual(expect.arrayContaining([{ id: course.id, title: 'Spring Cohort' }]))

		// Its file is for the same readers.
		const attachment = await insertMessageAttachment(t.db, {
			message_id: cohortOnly.id,
			name: 'room.pdf',
			type: 'application/pdf',
			size_bytes: 3,
			storage_key: 'attachments/room.pdf',
		})
		const access = async (userId: string, isAdmin = false) =>
			(await findAttachmentForUser(t.db, { attachmentId: attachment.id, reader: { userId, isAdmin } })).status
		expect(await access(enrolled.id)).toBe('ok')
		expect(await access(admin.id, true)).toBe('ok')
		expect(await access(elsewhere.id)).toBe('forbidden')
		expect(await access(pending.id)).toBe('forbidden')
	})

	test('a course that does not exist is refused with the form kept, nothing stored', async () => {
		const admin = await person(t.db, { role: 'admin' })
		const response = await postComposer(admin.id, { intent: 'announce', courseId: '99999999', subject: 'Lost', message: 'Kept' })
		expect(response.status).toBe(400)
		const body = JSON.stringify(await response.json())
		expect(body).toContain('This course no longer exists')
		expect(body).toContain('Kept')
		const malformed = await postComposer(admin.id, { intent: 'announce', courseId: 'abc', subject: 'Lost', message: 'Kept' })
		expect(malformed.status).toBe(400)
		expect(await t.db.selectFrom('messages').select('id').execute()).toEqual([])
		expect(await pendingJobs('email-announcement')).toBe(0)
	})

	test('the database keeps a course only on announcements, and removes them with their course', async () => {
		const admin = await person(t.db, { role: 'admin' })
		const student = await person(t.db)
		const course = await insertCourse(t.db)
		await expect(
			t.db.insertInto('messages').values({ sender_id: admin.id, receiver_id: student.id, content: 'x', course_id: course.id }).execute(),
		).rejects.toThrow(/messages_course_check/)
		await announce(t.db, admin.id, { subject: 'Gone soon', content: 'x', courseId: course.id })
		await t.db.deleteFrom('courses').where('id', '=', course.id).execute()
		expect(await t.db.selectFrom('messages').select('id').execute()).toEqual([])
	})
})

describe('the unsubscribe link and the one-click unsubscribe', () => {
	const pagePath = (token: string) => `/unsubscribe?${new URLSearchParams({ token })}`
	const oneClickPath = (token: string) => `/unsubscribe/one-click?${new URLSearchParams({ token })}`
	/** What a mail client sends (RFC 8058 §3.2): a multipart form with one field, no cookie. */
	const oneClick = (token: string, value = 'One-Click') => {
		const body = new FormData()
		body.set('List-Unsubscribe', value)
		return new Request(`http://localhost${oneClickPath(token)}`, { method: 'POST', body })
	}

	test('opening the link changes nothing; its page turns announcement e-mails off and on again without a session', async () => {
		const student = await person(t.db)
		const token = unsubscribeToken(student.id)
		expect(userOfUnsubscribeToken(token)).toBe(student.id)

		const page = await callRoute(unsubscribeLoader, getRequest(pagePath(token)))
		expect(page.status).toBe(200)
		expect(await page.json()).toEqual({ target: { email: student.email, announcements: true, token } })
		expect((await getEmailPreferences(t.db, student.id)).announcements).toBe(true)

		const unsubscribed = await callRoute(unsubscribeAction, formRequest(pagePath(token), { intent: 'unsubscribe' }))
		expect(unsubscribed.status).toBe(303)
		expect(unsubscribed.headers.get('Location')).toBe(pagePath(token))
		expect(await toastOf(unsubscribed)).toMatchObject({ title: 'You are unsubscribed' })
		expect(await getEmailPreferences(t.db, student.id)).toEqual({ announcements: false, reminders: true })

		const again = await callRoute(unsubscribeAction, formRequest(pagePath(token), { intent: 'resubscribe' }))
		expect(await toastOf(again)).toMatchObject({ title: 'You are subscribed again' })
		expect((await getEmailPreferences(t.db, student.id)).announcements).toBe(true)
	})

	test("a mail client's one-click POST turns them off; a GET of its address shows the page", async () => {
		const student = await person(t.db)
		const token = unsubscribeToken(student.id)
		const opened = await callRoute(oneClickLoader, getRequest(oneClickPath(token)))
		expect(opened.status).toBe(302)
		expect(opened.headers.get('Location')).toBe(pagePath(token))
		expect((await getEmailPreferences(t.db, student.id)).announcements).toBe(true)

		// Anything but the RFC's body is refused.
		expect((await callRoute(oneClickAction, oneClick(token, 'yes'))).status).toBe(400)
		expect((await getEmailPreferences(t.db, student.id)).announcements).toBe(true)

		const done = await callRoute(oneClickAction, oneClick(token))
		expect(done.status).toBe(200)
		expect(await getEmailPreferences(t.db, student.id)).toEqual({ announcements: false, reminders: true })
		// Turned off, the student gets no copy of the next announcement.
		const admin = await person(t.db, { role: 'admin' })
		const { id } = await announce(t.db, admin.id, { subject: 'Quiet', content: 'x' })
		expect(await emailAnnouncement(t.db, id)).toBe(0)
	})

	test('a forged or altered token is refused and changes nothing', async () => {
		const student = await person(t.db)
		const victim = await person(t.db)
		const [, signature] = unsubscribeToken(student.id).split('.')
		const forged = [
			`${victim.id}.${signature}`,
			`${victim.id}.`,
			victim.id,
			`${unsubscribeToken(victim.id)}x`,
			`${unsubscribeToken(victim.id)}.extra`,
			'',
			'not-a-token',
		]
		for (const token of forged) {
			expect(userOfUnsubscribeToken(token)).toBeNull()
			expect((await callRoute(unsubscribeLoader, getRequest(pagePath(token)))).status).toBe(400)
			expect((await callRoute(unsubscribeAction, formRequest(pagePath(token), { intent: 'unsubscribe' }))).status).toBe(400)
			expect((await callRoute(oneClickAction, oneClick(token))).status).toBe(400)
		}
		const bare = await callRoute(oneClickAction, formRequest('/unsubscribe/one-click', { 'List-Unsubscribe': 'One-Click' }))
		expect(bare.status).toBe(400)
		expect((await getEmailPreferences(t.db, victim.id)).announcements).toBe(true)
		expect((await getEmailPreferences(t.db, student.id)).announcements).toBe(true)
	})
})

describe('the admin is told who the e-mail copy reaches (issue 39 point 5)', () => {
	test('the sent toast counts the course’s students e-mailed and names those who only see it on the site, with why', async () => {
		const admin = await person(t.db, { role: 'admin' })
		const course = await insertCourse(t.db, { title: 'Reach Course' })
		const reader = await person(t.db, { name: 'Rita Reader' })
		const optedOut = await person(t.db, { name: 'Otto Optout' })
		await t.db.updateTable('profiles').set({ email_announcements: false }).where('id', '=', optedOut.id).execute()
		const unconfirmed = await person(t.db, { name: 'Uma Unconfirmed', confirmed: false })
		for (const student of [reader, optedOut, unconfirmed]) await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		await person(t.db, { name: 'Not Enrolled' })

		const sent = await postComposer(admin.id, {
			intent: 'announce',
			subject: 'Week 3',
			message: 'Bring your numbers.',
			courseId: String(course.id),
		})
		expect(await toastOf(sent)).toMatchObject({
			title: 'Announcement sent successfully!',
			description:
				'E-mailed to 1 of 3 students. Not e-mailed: Otto Optout (announcement e-mails off); Uma Unconfirmed (address not confirmed). They see it on the site.',
		})
	})
})
