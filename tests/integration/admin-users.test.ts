import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { action as usersAction, loader as usersLoader } from '#app/routes/admin/users.tsx'
import { attachmentKey, submissionKey } from '#app/services/storage/keys.ts'
import { resetEnvCache } from '#app/utils/env.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	countRows,
	insertAssignment,
	insertCourse,
	insertEnrollment,
	insertMessage,
	insertMessageAttachment,
	insertPayment,
	insertSubmission,
} from '#tests/support/fixtures.ts'
import { pageData } from '#tests/support/loaders.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
const USERS = '/dashboard/admin/users'

function designate(emails: string) {
	process.env.ADMIN_EMAILS = emails
	resetEnvCache()
}

afterEach(() => {
	delete process.env.ADMIN_EMAILS
	resetEnvCache()
})

type UsersData = {
	users: Array<{ id: string; email: string; name: string; role: string; canMakeAdmin: boolean }>
	removing: { id: string } | null
}

async function list(cookie: string, search = '') {
	return pageData<UsersData>(usersLoader, `${USERS}${search}`, cookie)
}

describe('access', () => {
	test('the loader and both actions refuse a student (to /dashboard) and a visitor (to /login)', async () => {
		const student = await signedInUser(t.db, { role: 'student' })
		const target = await signedInUser(t.db, { role: 'student' })
		designate(target.email)
		const calls = [
			() => getRequest(USERS, { cookie: student.cookie }),
			() => formRequest(USERS, { intent: 'remove', userId: target.id }, { cookie: student.cookie }),
			() => formRequest(USERS, { intent: 'make-admin', userId: target.id }, { cookie: student.cookie }),
		]
		for (const [index, make] of calls.entries()) {
			const fn = index === 0 ? usersLoader : usersAction
			const asStudent = await callRoute(fn, make())
			expect(asStudent.status).toBe(302)
			expect(asStudent.headers.get('Location')).toBe('/dashboard')
			const anonymous = make()
			anonymous.headers.delete('Cookie')
			const asVisitor = await callRoute(fn, anonymous)
			expect(asVisitor.status).toBe(302)
			expect(asVisitor.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
		}
		const stored = await t.db.selectFrom('profiles').select('role').where('id', '=', target.id).executeTakeFirstOrThrow()
		expect(stored.role).toBe('student')
	})
})

describe('list and search', () => {
	test('lists only students and searches by name or e-mail, case-insensitively, on the server', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const tag = randomUUID().slice(0, 8)
		const alice = await signedInUser(t.db, { role: 'student', name: `Alice ${tag}`, email: `alice-${tag}@example.com` })
		const bob = await signedInUser(t.db, { role: 'student', name: `Bob ${tag}`, email: `bob-${tag}@Example.com`.toLowerCase() })
		const otherAdmin = await signedInUser(t.db, { role: 'admin', name: `Admin ${tag}` })
		const instructor = await signedInUser(t.db, { role: 'instructor', name: `Teacher ${tag}` })

		const all = await list(admin.cookie)
		const ids = all.users.map((user) => user.id)
		expect(ids).toEqual(expect.arrayContaining([alice.id, bob.id]))
		expect(ids).not.toContain(otherAdmin.id)
		expect(ids).not.toContain(instructor.id)
		expect(ids).not.toContain(admin.id)

		expect((await list(admin.cookie, `?q=ALICE%20${tag}`)).users.map((user) => user.id)).toEqual([alice.id])
		expect((await list(admin.cookie, `?q=bob-${tag}%40EXAMPLE`)).users.map((user) => user.id)).toEqual([bob.id])
		expect((await list(admin.cookie, `?q=${tag}`)).users.map((user) => user.id).sort()).toEqual([alice.id, bob.id].sort())
		expect((await list(admin.cookie, '?q=%25%25nothing%25')).users).toEqual([])
	})

	test('?confirm=remove-{id} opens the confirmation for that student', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		expect((await list(admin.cookie, `?confirm=remove-${student.id}`)).removing).toMatchObject({ id: student.id })
		expect((await list(admin.cookie, '?confirm=remove-nobody')).removing).toBeNull()
	})
})

describe('remove', () => {
	test('deletes the account with its sessions, enrollments, messages and files; keeps payments; one audit row', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		const course = await insertCourse(t.db, { title: 'Removal course' })
		await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		const message = (sender: string, receiver: string) => insertMessage(t.db, { sender_id: sender, receiver_id: receiver, content: 'hi' })
		const sent = await message(student.id, admin.id)
		const received = await message(admin.id, student.id)
		const sentKey = attachmentKey(student.id, 'photo.png')
		const receivedKey = attachmentKey(admin.id, 'notes.pdf')
		for (const [messageId, key] of [
			[sent.id, sentKey],
			[received.id, receivedKey],
		] as const) {
			await files.storage.put(key, new TextEncoder().encode('x'), { contentType: 'application/octet-stream' })
			await insertMessageAttachment(t.db, { message_id: messageId, storage_key: key })
		}
		const assignment = await insertAssignment(t.db, { course_id: course.id })
		const answerKey = submissionKey(assignment.id, student.id, 'answer.pdf')
		await files.storage.put(answerKey, new TextEncoder().encode('x'), { contentType: 'application/pdf' })
		await insertSubmission(t.db, { assignment_id: assignment.id, student_id: student.id, storage_key: answerKey })
		const payment = await insertPayment(t.db, {
			user_id: student.id,
			course_id: course.id,
			course_title: 'Removal course',
			customer_email: student.email,
			amount_cents: 100,
		})
		const before = await countRows(t.db, 'audit_log')

		const response = await callRoute(
			usersAction,
			formRequest(`${USERS}?q=abc`, { intent: 'remove', userId: student.id }, { cookie: admin.cookie }),
		)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(`${USERS}?q=abc`)
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'User removed successfully' })

		expect(await t.db.selectFrom('users').select('id').where('id', '=', student.id).execute()).toEqual([])
		expect(await t.db.selectFrom('profiles').select('id').where('id', '=', student.id).execute()).toEqual([])
		expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', student.id).execute()).toEqual([])
		expect(await t.db.selectFrom('enrollments').select('id').where('user_id', '=', student.id).execute()).toEqual([])
		expect(await t.db.selectFrom('messages').select('id').where('id', 'in', [sent.id, received.id]).execute()).toEqual([])
		expect(await t.db.selectFrom('message_attachments').select('id').where('storage_key', 'in', [sentKey, receivedKey]).execute()).toEqual(
			[],
		)
		for (const key of [sentKey, receivedKey, answerKey]) expect(await files.storage.stat(key), key).toBeNull()
		expect(
			await t.db.selectFrom('registration_payments').select(['user_id']).where('id', '=', payment.id).executeTakeFirstOrThrow(),
		).toEqual({ user_id: null })

		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)
		const audit = await t.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
		expect(audit).toMatchObject({ actor_id: admin.id, action: 'user.remove', entity: 'user', entity_id: student.id })
		expect(audit.details).toMatchObject({ email: student.email, enrollments: 1, messages: 2, attachments: 2, submissions: 1 })
	})

	test.each([
		['themself', 'You cannot remove your own account'],
		['another admin', 'Only student accounts can be removed here'],
		['an unknown account', 'User not found'],
	])('refuses to remove %s with the reason', async (who, reason) => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const target = who === 'themself' ? admin.id : who === 'another admin' ? (await signedInUser(t.db, { role: 'admin' })).id : randomUUID()
		const before = await countRows(t.db, 'audit_log')
		const response = await callRoute(usersAction, formRequest(USERS, { intent: 'remove', userId: target }, { cookie: admin.cookie }))
		expect(await toastOf(response)).toMatchObject({ type: 'error', title: `Failed to remove user: ${reason}` })
		expect(await countRows(t.db, 'audit_log')).toBe(before)
		if (who !== 'an unknown account') expect(await t.db.selectFrom('users').select('id').where('id', '=', target).execute()).toHaveLength(1)
	})

	test('a storage failure while removing files is logged and answered with a warning', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		vi.spyOn(files.storage, 'list').mockImplementation(() => {
			throw new Error('bucket unreachable')
		})
		const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
		const response = await callRoute(usersAction, formRequest(USERS, { intent: 'remove', userId: student.id }, { cookie: admin.cookie }))
		expect(await toastOf(response)).toMatchObject({ type: 'warning', title: 'User removed successfully' })
		expect(logged).toHaveBeenCalled()
		expect(await t.db.selectFrom('users').select('id').where('id', '=', student.id).execute()).toEqual([])
	})
})

describe('make admin', () => {
	test('is offered only for accounts in ADMIN_EMAILS and promotes them, with one audit row', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const designated = await signedInUser(t.db, { role: 'student', email: `designated-${randomUUID()}@example.com` })
		const ordinary = await signedInUser(t.db, { role: 'student' })
		designate(`someone@example.com, ${designated.email.toUpperCase()}`)

		const data = await list(admin.cookie)
		expect(data.users.find((user) => user.id === designated.id)?.canMakeAdmin).toBe(true)
		expect(data.users.find((user) => user.id === ordinary.id)?.canMakeAdmin).toBe(false)

		const before = await countRows(t.db, 'audit_log')
		const response = await callRoute(
			usersAction,
			formRequest(USERS, { intent: 'make-admin', userId: designated.id }, { cookie: admin.cookie }),
		)
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'User promoted to admin successfully!' })
		expect((await t.db.selectFrom('profiles').select('role').where('id', '=', designated.id).executeTakeFirstOrThrow()).role).toBe('admin')
		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)
		expect(await t.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()).toMatchObject({
			actor_id: admin.id,
			action: 'user.promote',
			entity_id: designated.id,
		})
	})

	test('refuses an account that is not designated, with the reason', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const ordinary = await signedInUser(t.db, { role: 'student' })
		designate('someone-else@example.com')
		const before = await countRows(t.db, 'audit_log')
		const response = await callRoute(
			usersAction,
			formRequest(USERS, { intent: 'make-admin', userId: ordinary.id }, { cookie: admin.cookie }),
		)
		expect(await toastOf(response)).toMatchObject({
			type: 'error',
			title: 'Failed to make user admin: This account is not designated as an administrator',
		})
		expect((await t.db.selectFrom('profiles').select('role').where('id', '=', ordinary.id).executeTakeFirstOrThrow()).role).toBe('student')
		expect(await countRows(t.db, 'audit_log')).toBe(before)
	})
})
