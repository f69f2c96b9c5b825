import type { LogEvent } from 'kysely'
import { beforeEach, describe, expect, test } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { listContacts } from '#app/models/messaging/message-contacts.server.ts'
import { listConversation } from '#app/models/messaging/messages.server.ts'
import { action as broadcastAction, loader as broadcastLoader } from '#app/routes/admin/messages/broadcast.tsx'
import { action as contactAction, loader as contactLoader } from '#app/routes/admin/messages/contact.tsx'
import { action as directAction, loader as directLoader } from '#app/routes/admin/messages/direct.tsx'
import { action, loader } from '#app/routes/dashboard/messages.tsx'
import { openDatabase } from '#app/utils/db.server.ts'
import { consumeRateLimit, RATE_LIMITS } from '#app/utils/rate-limit.server.ts'
import { getToast } from '#app/utils/toast.server.ts'
import type { Role } from '#db/types.ts'
import { emptyTables, useTestDatabase, withTablesUnavailable } from '#tests/support/db.ts'
import { insertContactSubmission, insertCourse, insertCourseStaff, insertEnrollment, insertMessage } from '#tests/support/fixtures.ts'
import { callRoute, cookiesFrom, formRequest, getRequest, sessionCookieFor } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
useTestStorage()
let sequence = 0

type Person = { id: string; name: string; cookie: string }

async function person(role: Role | null, name?: string): Promise<Person> {
	sequence += 1
	const displayName = name ?? `${role ?? 'norole'} ${sequence}`
	const user = await createUser(t.db, {
		email: `messages-${sequence}@example.com`,
		name: displayName,
		password: 'password-123',
		role: role ?? undefined,
		confirmed: true,
	})
	if (role === null) await t.db.updateTable('profiles').set({ role: null }).where('id', '=', user.id).execute()
	return { id: user.id, name: displayName, cookie: await sessionCookieFor(user.id) }
}

async function message(from: Person, to: Person | null, content: string, read = false) {
	return insertMessage(t.db, { sender_id: from.id, receiver_id: to?.id ?? null, content, is_announcement: to === null, read })
}

/** The composer posts multipart form data. */
function composerRequest(path: string, cookie: string, fields: Record<string, string>, file?: File) {
	const body = new FormData()
	for (const [name, value] of Object.entries(fields)) body.set(name, value)
	if (file) body.set('attachment', file)
	return new Request(`http://localhost${path}`, { method: 'POST', body, headers: { Cookie: cookie, 'x-client-ip': '203.0.113.9' } })
}

/** Sends a message from the messages page, as the sender's browser posts it. */
function sendMessage(sender: { cookie: string }, receiver: { id: string }, content: string) {
	return callRoute(action, composerRequest('/dashboard/messages', sender.cookie, { intent: 'send', receiverId: receiver.id, content }))
}

async function json(response: Response) {
	// biome-ignore lint/suspicious/noExplicitAny: the loaders' JSON, read field by field in each test
	return (await response.json()) as Record<string, any>
}

beforeEach(async () => {
	await emptyTables(t.db, ['messages', 'rate_limits', 'audit_log', 'contact_submissions', 'sessions', 'profiles', 'users'])
})

describe('contacts', () => {
	test("students see admins, their courses' instructors and their partners; instructors their courses' students and partners; admins every student; no role sees nobody (docs/decisions/058)", async () => {
		const [student, otherStudent, partnerStudent, alumna, pendingStudent, instructor, otherInstructor, admin, noRole] = await Promise.all([
			person('student', 'Sam Student'),
			person('student', 'Olive Other'),
			person('student', 'Pat Partner'),
			person('student', 'Alma Alumna'),
			person('student', 'Penny Pending'),
			person('instructor', 'Ivy Instructor'),
			person('instructor', 'Otto Other'),
			person('admin', 'Ada Admin'),
			person(null, 'Nora Norole'),
		])
		const course = await insertCourse(t.db, { title: 'Ivy course' })
		const otherCourse = await insertCourse(t.db, { title: 'Otto course' })
		await insertCourseStaff(t.db, { courseId: course.id, userId: instructor.id })
		await insertCourseStaff(t.db, { courseId: otherCourse.id, userId: otherInstructor.id })
		await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		await insertEnrollment(t.db, { userId: alumna.id, courseId: course.id, status: 'completed' })
		await insertEnrollment(t.db, { userId: pendingStudent.id, courseId: course.id, status: 'pending' })
		await insertEnrollment(t.db, { userId: otherStudent.id, courseId: otherCourse.id })
		await message(partnerStudent, student, 'hello from a fellow student')
		await message(noRole, admin, 'a question')
		await message(otherInstructor, partnerStudent, 'a word before the course')

		const names = async (owner: Person, role: Role | null) =>
			(await listContacts(t.db, { id: owner.id, storedRole: role })).contacts.map((contact) => contact.name).sort()

		expect(await names(student, 'student')).toEqual(['Ada Admin', 'Ivy Instructor', 'Pat Partner'])
		expect(await names(pendingStudent, 'student')).toEqual(['Ada Admin'])
		expect(await names(instructor, 'instructor')).toEqual(['Alma Alumna', 'Sam Student'])
		expect(await names(otherInstructor, 'instructor')).toEqual(['Olive Other', 'Pat Partner'])
		expect(await names(partnerStudent, 'student')).toEqual(['Ada Admin', 'Otto Other', 'Sam Student'])
		expect(await names(admin, 'admin')).toEqual([
			'Alma Alumna',
			'Nora Norole',
			'Olive Other',
			'Pat Partner',
			'Penny Pending',
			'Sam Student',
		])
		expect(await names(noRole, null)).toEqual([])
		expect(await names(otherStudent, 'student')).not.toContain('Sam Student')
	})

	test('unread counts, search, the Unknown User and UN fallbacks', async () => {
		const student = await person('student', 'Sam Student')
		const admin = await person('admin', 'Ada Admin')
		const blank = await person('instructor')
		await t.db.updateTable('profiles').set({ name: ' ' }).where('id', '=', blank.id).execute()
		const course = await insertCourse(t.db, { title: 'Taught by a blank name' })
		await insertCourseStaff(t.db, { courseId: course.id, userId: blank.id })
		await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		await message(admin, student, 'one')
		await message(admin, student, 'two')
		await message(admin, student, 'three', true)
		const { contacts } = await listContacts(t.db, { id: student.id, storedRole: 'student' })
		expect(contacts[0]).toMatchObject({ name: 'Ada Admin', avatar: 'AD', unreadCount: 2, role: 'admin' })
		expect(contacts.find((contact) => contact.id === blank.id)).toMatchObject({ name: 'Unknown User', avatar: 'UN', unreadCount: 0 })
		const searched = await listContacts(t.db, { id: student.id, storedRole: 'student' }, { search: 'ada' })
		expect(searched.contacts.map((contact) => contact.name)).toEqual(['Ada Admin'])
		const literal = await listContacts(t.db, { id: student.id, storedRole: 'student' }, { search: '%' })
		expect(literal.contacts).toEqual([])
	})

	test('the contact list takes one query however many contacts and unread messages there are', async () => {
		const queries: LogEvent[] = []
		const counted = await openDatabase({ databaseUrl: t.url, onQuery: (event) => queries.push(event) })
		try {
			const admin = await person('admin')
			const students = await Promise.all(Array.from({ length: 12 }, () => person('student')))
			for (const student of students) await message(student, admin, 'hi')
			const { contacts } = await listContacts(counted.db, { id: admin.id, storedRole: 'admin' })
			expect(contacts).toHaveLength(12)
			expect(contacts.every((contact) => contact.unreadCount === 1)).toBe(true)
			expect(queries).toHaveLength(1)
		} finally {
			await counted.close()
		}
	})
})

describe('the messages page', () => {
	test('auto-selects the first contact, shows the thread, and a GET leaves messages unread', async () => {
		const student = await person('student')
		const admin = await person('admin', 'Ada Admin')
		await message(admin, student, 'Welcome to the course')
		const response = await callRoute(loader, getRequest('/dashboard/messages', { cookie: student.cookie }))
		const body = await json(response)
		expect(body.tab).toBe('conversations')
		expect(body.selected).toMatchObject({ id: admin.id, unreadCount: 1 })
		expect(body.thread.messages.map((row: { content: string }) => row.content)).toEqual(['Welcome to the course'])
		const stored = await t.db.selectFrom('messages').select('read').executeTakeFirstOrThrow()
		expect(stored.read).toBe(false)
	})

	test("a sender whose profile is gone shows as 'Unknown User'", async () => {
		const student = await person('student')
		const admin = await person('admin')
		const ghost = await person('instructor')
		await message(ghost, student, 'from a vanished profile')
		await t.db.deleteFrom('profiles').where('id', '=', ghost.id).execute()
		await message(admin, student, 'latest')
		const body = await json(await callRoute(loader, getRequest(`/dashboard/messages?with=${admin.id}`, { cookie: student.cookie })))
		expect(body.contacts.map((contact: { id: string }) => contact.id)).not.toContain(ghost.id)
		const thread = await listConversation(t.db, { userId: student.id, partnerId: ghost.id })
		expect(thread.messages[0]).toMatchObject({ sender: 'Unknown User', content: 'from a vanished profile' })
	})

	test('requires a signed-in user with the spec message', async () => {
		const response = await callRoute(loader, getRequest('/dashboard/messages'))
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard%2Fmessages')
	})

	test('pages the thread 20 at a time with an older-messages cursor', async () => {
		const student = await person('student')
		const admin = await person('admin')
		for (let index = 1; index <= 25; index += 1) await message(index % 2 ? admin : student, index % 2 ? student : admin, `message ${index}`)
		const first = await json(await callRoute(loader, getRequest(`/dashboard/messages?with=${admin.id}`, { cookie: student.cookie })))
		expect(first.thread.messages).toHaveLength(20)
		expect(first.thread.messages[0].content).toBe('message 6')
		expect(first.thread.messages.at(-1).content).toBe('message 25')
		const older = await json(
			await callRoute(
				loader,
				getRequest(`/dashboard/messages?with=${admin.id}&before=${first.thread.olderBefore}`, { cookie: student.cookie }),
			),
		)
		expect(older.thread.messages.map((row: { content: string }) => row.content)).toEqual([1, 2, 3, 4, 5].map((n) => `message ${n}`))
		expect(older.thread.olderBefore).toBeNull()
	})

	test("a student cannot open another pair's conversation", async () => {
		const [alice, bob, carol] = await Promise.all([person('student'), person('student'), person('student')])
		const admin = await person('admin')
		await message(alice, admin, 'private to the admin')
		await message(admin, alice, 'private reply')
		await message(alice, bob, 'between students')
		const withStudent = await json(await callRoute(loader, getRequest(`/dashboard/messages?with=${alice.id}`, { cookie: carol.cookie })))
		expect(withStudent.selected).toBeNull()
		expect(withStudent.thread).toBeNull()
		expect(withStudent.unknownContact).toBe(true)
		const withAdmin = await json(await callRoute(loader, getRequest(`/dashboard/messages?with=${admin.id}`, { cookie: carol.cookie })))
		expect(withAdmin.thread.messages).toEqual([])
	})

	test('only an announcement has a subject, of 1 to 200 characters (the database refuses others)', async () => {
		const admin = await person('admin')
		const student = await person('student')
		const insert = (values: { receiver_id: string | null; is_announcement: boolean; subject: string }) =>
			t.db
				.insertInto('messages')
				.values({ sender_id: admin.id, content: 'x', ...values })
				.execute()
		await expect(insert({ receiver_id: student.id, is_announcement: false, subject: 'Direct' })).rejects.toThrow(/messages_subject_check/)
		await expect(insert({ receiver_id: null, is_announcement: true, subject: '' })).rejects.toThrow(/messages_subject_check/)
		await expect(insert({ receiver_id: null, is_announcement: true, subject: 'x'.repeat(201) })).rejects.toThrow(/messages_subject_check/)
	})

	test('announcements stored before subjects had a column of their own are split into subject and body, newest first', async () => {
		const student = await person('student')
		const admin = await person('admin', 'Ada Admin')
		await message(admin, null, 'Welcome: Classes start Monday: 6 PM')
		await message(admin, null, 'No colon here')
		const body = await json(await callRoute(loader, getRequest('/dashboard/messages?tab=announcements', { cookie: student.cookie })))
		expect(body.announcements.map((row: { subject: string; body: string }) => [row.subject, row.body])).toEqual([
			['No colon here', ''],
			['Welcome', 'Classes start Monday: 6 PM'],
		])
	})

	test('a part that cannot be read shows empty, with the spec toast, instead of an error page', async () => {
		const student = await person('student')
		const admin = await person('admin')
		const load = async (fn: typeof loader | typeof broadcastLoader | typeof contactLoader, path: string, cookie: string) => {
			const response = await callRoute(fn, getRequest(path, { cookie }))
			expect(response.status).toBe(200)
			return json(response)
		}
		// The messages (and with them contacts' unread counts) cannot be read, as in a fault of that table.
		await withTablesUnavailable(t.db, ['messages', 'contact_submissions'], async () => {
			const conversations = await load(loader, '/dashboard/messages', student.cookie)
			expect(conversations).toMatchObject({ contacts: [], thread: null, pageToast: { type: 'error', title: 'Failed to load contacts' } })
			const announcements = await load(loader, '/dashboard/messages?tab=announcements', student.cookie)
			expect(announcements).toMatchObject({ announcements: [], pageToast: { title: 'Failed to load announcements' } })
			const broadcast = await load(broadcastLoader, '/dashboard/admin/messages/broadcast', admin.cookie)
			expect(broadcast.pageToast.title).toBe('Failed to load announcements: the server could not read them')
			const inbox = await load(contactLoader, '/dashboard/admin/messages/contact', admin.cookie)
			expect(inbox).toMatchObject({ submissions: [], pageToast: { title: 'Failed to load contact submissions' } })
		})
		expect((await load(loader, '/dashboard/messages', student.cookie)).pageToast).toBeNull()
	})

	test('a refresh that cannot read the contacts says so', async () => {
		const student = await person('student')
		const response = await withTablesUnavailable(t.db, ['messages'], () =>
			callRoute(loader, getRequest('/dashboard/messages?tab=conversations&refresh=1', { cookie: student.cookie })),
		)
		expect(response.headers.get('Location')).toBe('/dashboard/messages?tab=conversations')
		const { toast } = await getToast(getRequest('/', { cookie: cookiesFrom(response) }))
		expect(toast).toMatchObject({ type: 'error', title: 'Failed to refresh contacts' })
	})

	test('refresh answers with the Contacts refreshed toast and a clean URL', async () => {
		const student = await person('student')
		const response = await callRoute(loader, getRequest('/dashboard/messages?tab=conversations&refresh=1', { cookie: student.cookie }))
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard/messages?tab=conversations')
		expect(response.headers.get('Set-Cookie')).toMatch(/toast=/)
	})
})

describe('sending, reading and deleting', () => {
	test('a student sends to an admin; an empty message is refused; a disallowed receiver gets 403', async () => {
		const student = await person('student')
		const otherStudent = await person('student')
		const admin = await person('admin')

		const sent = await sendMessage(student, admin, '  Hello there  ')
		expect(sent.status).toBe(302)
		expect(sent.headers.get('Location')).toBe(`/dashboard/messages?tab=conversations&with=${admin.id}`)
		const rows = await t.db.selectFrom('messages').selectAll().execute()
		expect(rows).toHaveLength(1)
		expect(rows[0]).toMatchObject({ sender_id: student.id, receiver_id: admin.id, content: 'Hello there', is_announcement: false })

		const empty = await sendMessage(student, admin, '   ')
		expect(empty.status).toBe(400)
		expect(await json(empty)).toMatchObject({ error: 'Please enter a message' })

		const forbidden = await sendMessage(student, otherStudent, 'hi')
		expect(forbidden.status).toBe(403)
		expect(await t.db.selectFrom('messages').select('id').execute()).toHaveLength(1)
	})

	test('a profile without a role cannot send to anyone', async () => {
		const noRole = await person(null)
		const admin = await person('admin')
		const response = await sendMessage(noRole, admin, 'hi')
		expect(response.status).toBe(403)
	})

	test('sending is rate limited', async () => {
		const student = await person('student')
		const admin = await person('admin')
		for (let sent = 0; sent < RATE_LIMITS.messageSend.points; sent++) await consumeRateLimit('messageSend', student.id)
		const response = await sendMessage(student, admin, 'hi')
		expect(response.status).toBe(429)
		expect(await t.db.selectFrom('messages').select('id').execute()).toHaveLength(0)
	})

	test('mark-read marks only what the partner sent me, by POST', async () => {
		const student = await person('student')
		const admin = await person('admin')
		await message(admin, student, 'to the student')
		await message(student, admin, 'to the admin')
		const fetcher = await callRoute(
			action,
			formRequest('/dashboard/messages', { intent: 'mark-read', partnerId: admin.id }, { cookie: student.cookie }),
		)
		expect(fetcher.status).toBe(200)
		const rows = await t.db.selectFrom('messages').select(['content', 'read']).orderBy('id').execute()
		expect(rows).toEqual([
			{ content: 'to the student', read: true },
			{ content: 'to the admin', read: false },
		])
		const plain = await callRoute(
			action,
			formRequest(
				'/dashboard/messages',
				{ intent: 'mark-read', partnerId: student.id, redirectTo: `/dashboard/messages?with=${student.id}` },
				{ cookie: admin.cookie },
			),
		)
		expect(plain.status).toBe(302)
		expect(plain.headers.get('Location')).toBe(`/dashboard/messages?with=${student.id}`)
		expect(await t.db.selectFrom('messages').select('read').where('read', '=', false).execute()).toHaveLength(0)
	})

	test('only the sender may delete; the receiver gets 403 and a third party 404', async () => {
		const [student, stranger] = await Promise.all([person('student'), person('student')])
		const admin = await person('admin')
		const { id } = await message(student, admin, 'delete me')
		const asReceiver = await callRoute(
			action,
			formRequest('/dashboard/messages', { intent: 'delete', messageId: String(id) }, { cookie: admin.cookie }),
		)
		expect(asReceiver.status).toBe(403)
		const asStranger = await callRoute(
			action,
			formRequest('/dashboard/messages', { intent: 'delete', messageId: String(id) }, { cookie: stranger.cookie }),
		)
		expect(asStranger.status).toBe(404)
		expect(await t.db.selectFrom('messages').select('id').execute()).toHaveLength(1)
		const asSender = await callRoute(
			action,
			formRequest('/dashboard/messages', { intent: 'delete', messageId: String(id) }, { cookie: student.cookie }),
		)
		expect(asSender.status).toBe(302)
		expect(await t.db.selectFrom('messages').select('id').execute()).toHaveLength(0)
	})
})

describe('student communications (admin)', () => {
	let admin: Person
	beforeEach(async () => {
		admin = await person('admin', 'Ada Admin')
	})

	test('non-admins are sent to the dashboard with the spec message', async () => {
		const student = await person('student')
		const response = await callRoute(broadcastLoader, getRequest('/dashboard/admin/messages/broadcast', { cookie: student.cookie }))
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard')
	})

	test('a broadcast needs both fields and stores subject and message apart, with an audit entry', async () => {
		const missing = await callRoute(
			broadcastAction,
			composerRequest('/dashboard/admin/messages/broadcast', admin.cookie, { intent: 'announce', subject: 'Hello', message: ' ' }),
		)
		expect(missing.status).toBe(400)
		expect(JSON.stringify(await json(missing))).toContain('Please fill in both subject and message')

		const sent = await callRoute(
			broadcastAction,
			composerRequest('/dashboard/admin/messages/broadcast', admin.cookie, {
				intent: 'announce',
				subject: 'Week 2: new time',
				message: 'Class moves to 7 PM: same link',
			}),
		)
		expect(sent.status).toBe(302)
		expect(sent.headers.get('Location')).toBe('/dashboard/admin/messages/broadcast')
		const rows = await t.db.selectFrom('messages').selectAll().execute()
		expect(rows).toEqual([
			expect.objectContaining({
				subject: 'Week 2: new time',
				content: 'Class moves to 7 PM: same link',
				is_announcement: true,
				receiver_id: null,
			}),
		])
		const audit = await t.db.selectFrom('audit_log').selectAll().execute()
		expect(audit).toEqual([expect.objectContaining({ action: 'announcement.create', actor_id: admin.id, entity_id: String(rows[0]!.id) })])

		const history = await json(
			await callRoute(broadcastLoader, getRequest('/dashboard/admin/messages/broadcast', { cookie: admin.cookie })),
		)
		expect(history.announcements).toEqual([
			expect.objectContaining({ subject: 'Week 2: new time', body: 'Class moves to 7 PM: same link' }),
		])
	})

	test('direct messages list the students without selecting one; a send is audited', async () => {
		const student = await person('student', 'Sam Student')
		const page = await json(await callRoute(directLoader, getRequest('/dashboard/admin/messages/direct', { cookie: admin.cookie })))
		expect(page.contacts.map((contact: { name: string }) => contact.name)).toEqual(['Sam Student'])
		expect(page.selected).toBeNull()
		const sent = await callRoute(
			directAction,
			composerRequest('/dashboard/admin/messages/direct', admin.cookie, { intent: 'send', receiverId: student.id, content: 'Hi Sam' }),
		)
		expect(sent.status).toBe(302)
		expect(sent.headers.get('Location')).toBe(`/dashboard/admin/messages/direct?with=${student.id}`)
		expect(await t.db.selectFrom('audit_log').select('action').execute()).toEqual([{ action: 'message.send' }])
	})

	test('contact submissions newest first; mark as read is audited', async () => {
		const older = await insertContactSubmission(t.db, {
			name: 'First',
			email: 'first@example.com',
			message: 'older',
			created_at: new Date(Date.now() - 60_000),
		})
		await insertContactSubmission(t.db, { name: 'Second', email: 'second@example.com', phone: '555', message: 'newer' })
		const page = await json(await callRoute(contactLoader, getRequest('/dashboard/admin/messages/contact', { cookie: admin.cookie })))
		expect(page.submissions.map((row: { name: string }) => row.name)).toEqual(['Second', 'First'])
		const marked = await callRoute(
			contactAction,
			formRequest(
				'/dashboard/admin/messages/contact',
				{ intent: 'contact-read', submissionId: String(older.id) },
				{ cookie: admin.cookie },
			),
		)
		expect(marked.status).toBe(302)
		const rows = await t.db.selectFrom('contact_submissions').select(['name', 'read']).orderBy('name').execute()
		expect(rows).toEqual([
			{ name: 'First', read: true },
			{ name: 'Second', read: false },
		])
		expect(await t.db.selectFrom('audit_log').select('action').execute()).toEqual([{ action: 'contact_submission.read' }])
	})
})
