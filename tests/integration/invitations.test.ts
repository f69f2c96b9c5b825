import { describe, expect, test } from 'vitest'
import { action as courseStaffAction, loader as courseStaffLoader } from '#app/routes/admin/course-staff.tsx'
import { action as inviteAction, loader as inviteLoader } from '#app/routes/admin/user-invite.tsx'
import { action as acceptAction, loader as acceptLoader } from '#app/routes/auth/accept-invite.tsx'
import { verifyPassword } from '#app/utils/password.server.ts'
import { getSessionUser } from '#app/utils/session.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertCourseStaff, insertUser } from '#tests/support/fixtures.ts'
import { callRoute, cookiesFrom, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
const INVITE = '/dashboard/admin/users/invite'
const DAY_MS = 24 * 60 * 60 * 1000

async function outboxFor(email: string) {
	return t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', email).orderBy('id', 'asc').execute()
}

function tokenFrom(text: string) {
	return new URL(/https?:\/\/\S+\/accept-invite\?token=\S+/.exec(text)![0]).searchParams.get('token')!
}

async function accountOf(email: string) {
	return t.db
		.selectFrom('users')
		.innerJoin('profiles', 'profiles.id', 'users.id')
		.select(['users.id', 'users.email_confirmed_at', 'profiles.role', 'profiles.name'])
		.where('users.email', '=', email)
		.execute()
}

async function staffOf(userId: string) {
	const rows = await t.db.selectFrom('course_staff').select('course_id').where('user_id', '=', userId).orderBy('course_id').execute()
	return rows.map((row) => row.course_id)
}

function invite(cookie: string, fields: Record<string, string | string[]>) {
	return callRoute(inviteAction, formRequest(INVITE, fields, { cookie }))
}

async function linkState(token: string) {
	return (await (await callRoute(acceptLoader, getRequest(`/accept-invite?token=${token}`))).json()) as { error: string | null }
}

function accept(token: string, password = 'a good password') {
	return callRoute(acceptAction, formRequest('/accept-invite', { token, password, confirmPassword: password }))
}

describe('inviting a new address', () => {
	test('makes an unconfirmed instructor with no usable password, staff of the chosen course, and mails one link', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db, { title: 'Spring Cohort' })
		const response = await invite(admin.cookie, {
			name: 'Ivy Instructor',
			email: 'Ivy@Example.com',
			role: 'instructor',
			courseIds: [String(course.id)],
		})
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard/admin/users')
		expect((await toastOf(response))?.title).toBe('Invitation sent to ivy@example.com')
		const [account] = await accountOf('ivy@example.com')
		expect(account).toMatchObject({ role: 'instructor', name: 'Ivy Instructor', email_confirmed_at: null })
		expect(await staffOf(account!.id)).toEqual([course.id])
		const mails = await outboxFor('ivy@example.com')
		expect(mails).toHaveLength(1)
		expect(mails[0]!.subject).toBe('You are invited: set your password')
		expect(mails[0]!.text_body).toContain('an instructor of Spring Cohort')
		expect(mails[0]!.text_body).toContain('7 days')
		expect(await linkState(tokenFrom(mails[0]!.text_body))).toMatchObject({ error: null })
		const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_id']).where('entity_id', '=', account!.id).execute()
		expect(audit).toEqual([{ action: 'user.invite', actor_id: admin.id }])
		const staffAudit = await t.db
			.selectFrom('audit_log')
			.select('action')
			.where('action', '=', 'course_staff.add')
			.where('actor_id', '=', admin.id)
			.execute()
		expect(staffAudit).toHaveLength(1)
	})

	test("a student's course ticks are ignored", async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db)
		await invite(admin.cookie, { name: 'Sam Student', email: 'sam@example.com', role: 'student', courseIds: [String(course.id)] })
		const [account] = await accountOf('sam@example.com')
		expect(account?.role).toBe('student')
		expect(await staffOf(account!.id)).toEqual([])
		expect((await outboxFor('sam@example.com'))[0]!.text_body).toContain('as a student')
	})

	test('resending replaces the link: the first stops working, the second works', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const fields = { name: 'Rae', email: 'rae@example.com', role: 'student' }
		await invite(admin.cookie, fields)
		const again = await invite(admin.cookie, fields)
		expect((await toastOf(again))?.title).toBe('Invitation sent again to rae@example.com')
		const [first, second] = await outboxFor('rae@example.com')
		expect(await accountOf('rae@example.com')).toHaveLength(1)
		const firstToken = tokenFrom(first!.text_body)
		expect((await linkState(firstToken)).error).toMatch(/invalid or has already been used/)
		expect((await accept(firstToken)).status).toBe(400)
		expect((await linkState(tokenFrom(second!.text_body))).error).toBeNull()
	})

	test('setting the password confirms the account and signs in; the link works once', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		await invite(admin.cookie, { name: 'Una', email: 'una@example.com', role: 'student' })
		const token = tokenFrom((await outboxFor('una@example.com'))[0]!.text_body)
		const response = await accept(token)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard')
		const signedIn = await getSessionUser(getRequest('/dashboard', { cookie: cookiesFrom(response) }), t.db)
		const [account] = await accountOf('una@example.com')
		expect(signedIn?.id).toBe(account!.id)
		expect(account!.email_confirmed_at).not.toBeNull()
		expect((await accept(token, 'another password')).status).toBe(400)
		expect((await linkState(token)).error).toMatch(/already been used/)
	})

	test('the set-password form sent 5 times at once (two passwords) uses the link once: one sign-in, one password kept', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		await invite(admin.cookie, { name: 'Dora Double', email: 'dora@example.com', role: 'student' })
		const token = tokenFrom((await outboxFor('dora@example.com'))[0]!.text_body)
		const passwords = ['first password 1', 'second password 2', 'first password 1', 'second password 2', 'first password 1']
		const responses = await Promise.all(passwords.map((password) => accept(token, password)))
		const statuses = responses.map((response) => response.status).sort()
		expect(statuses).toEqual([302, 400, 400, 400, 400])
		const winner = passwords[responses.findIndex((response) => response.status === 302)]!
		const [account] = await accountOf('dora@example.com')
		const { password_hash } = await t.db.selectFrom('users').select('password_hash').where('id', '=', account!.id).executeTakeFirstOrThrow()
		expect(await verifyPassword(password_hash, winner)).toBe(true)
		expect((await linkState(token)).error).toMatch(/already been used/)
	})

	test('the link expires after 7 days', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		await invite(admin.cookie, { name: 'Eve', email: 'eve@example.com', role: 'student' })
		const token = tokenFrom((await outboxFor('eve@example.com'))[0]!.text_body)
		const row = await t.db
			.selectFrom('auth_tokens')
			.select(['created_at', 'expires_at'])
			.where('purpose', '=', 'invite')
			.executeTakeFirstOrThrow()
		expect(Math.round((row.expires_at.getTime() - row.created_at.getTime()) / DAY_MS)).toBe(7)
		await t.db
			.updateTable('auth_tokens')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where('purpose', '=', 'invite')
			.execute()
		expect((await linkState(token)).error).toMatch(/expired/)
		const refused = await accept(token)
		expect(refused.status).toBe(400)
		expect(JSON.stringify(await refused.json())).toMatch(/expired/)
		expect((await accountOf('eve@example.com'))[0]!.email_confirmed_at).toBeNull()
	})

	test('the same invitation posted 5 times at once makes one account and one valid link', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db)
		const fields = { name: 'Pat', email: 'pat@example.com', role: 'instructor', courseIds: [String(course.id)] }
		const answers = await Promise.all(Array.from({ length: 5 }, () => invite(admin.cookie, fields)))
		expect(answers.map((answer) => answer.status)).toEqual([302, 302, 302, 302, 302])
		const accounts = await accountOf('pat@example.com')
		expect(accounts).toHaveLength(1)
		expect(await staffOf(accounts[0]!.id)).toEqual([course.id])
		const live = await t.db
			.selectFrom('auth_tokens')
			.select('id')
			.where('user_id', '=', accounts[0]!.id)
			.where('purpose', '=', 'invite')
			.execute()
		expect(live).toHaveLength(1)
		const states = await Promise.all((await outboxFor('pat@example.com')).map((mail) => linkState(tokenFrom(mail.text_body))))
		expect(states.filter((state) => state.error === null)).toHaveLength(1)
	})
})

describe('inviting an existing account', () => {
	test('changes the role, adds the courses and tells them, with no new password link', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db, { title: 'Autumn Cohort' })
		const userId = await insertUser(t.db, { role: 'student', email: 'stu@example.com', name: 'Stu' })
		const response = await invite(admin.cookie, {
			name: 'Ignored',
			email: 'stu@example.com',
			role: 'instructor',
			courseIds: [String(course.id)],
		})
		expect((await toastOf(response))?.title).toBe('stu@example.com updated')
		const [account] = await accountOf('stu@example.com')
		expect(account).toMatchObject({ role: 'instructor', name: 'Stu' })
		expect(await staffOf(userId)).toEqual([course.id])
		const mails = await outboxFor('stu@example.com')
		expect(mails).toHaveLength(1)
		expect(mails[0]!.subject).toBe('Your account has changed')
		expect(mails[0]!.text_body).toContain('an instructor of Autumn Cohort')
		expect(mails[0]!.text_body).not.toContain('accept-invite')
		expect(await t.db.selectFrom('auth_tokens').select('id').where('user_id', '=', userId).execute()).toEqual([])
		const actions = await t.db.selectFrom('audit_log').select('action').where('actor_id', '=', admin.id).execute()
		expect(actions.map((row) => row.action).sort()).toEqual(['course_staff.add', 'user.role'])

		// Back to student: they stop teaching, and are told.
		await invite(admin.cookie, { name: 'Stu', email: 'stu@example.com', role: 'student' })
		expect((await accountOf('stu@example.com'))[0]!.role).toBe('student')
		expect(await staffOf(userId)).toEqual([])
		expect(await outboxFor('stu@example.com')).toHaveLength(2)

		// Nothing to change: nothing written, nobody mailed.
		const same = await invite(admin.cookie, { name: 'Stu', email: 'stu@example.com', role: 'student' })
		expect((await toastOf(same))?.title).toBe('stu@example.com already has this role and these courses')
		expect(await outboxFor('stu@example.com')).toHaveLength(2)
	})

	test('an admin cannot invite their own address, nor another admin', async () => {
		const admin = await signedInUser(t.db, { role: 'admin', email: 'boss@example.com' })
		await signedInUser(t.db, { role: 'admin', email: 'other-admin@example.com' })
		const own = await invite(admin.cookie, { name: 'Boss', email: 'BOSS@example.com', role: 'student' })
		expect(own.status).toBe(400)
		expect(JSON.stringify(await own.json())).toContain('You cannot invite yourself')
		const other = await invite(admin.cookie, { name: 'Other', email: 'other-admin@example.com', role: 'instructor' })
		expect(other.status).toBe(400)
		expect((await accountOf('boss@example.com'))[0]!.role).toBe('admin')
		expect((await accountOf('other-admin@example.com'))[0]!.role).toBe('admin')
		expect(
			await t.db
				.selectFrom('email_outbox')
				.select('id')
				.where('to_address', 'in', ['boss@example.com', 'other-admin@example.com'])
				.execute(),
		).toEqual([])
	})
})

describe('refusals and bad input', () => {
	test('nothing written: each field says what is wrong and nothing is stored', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const accountsBefore = await t.db.selectFrom('users').select('id').execute()
		const response = await invite(admin.cookie, {})
		expect(response.status).toBe(400)
		const { result } = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(result.error.name).toEqual(['Name must be at least 2 characters'])
		expect(result.error.email).toEqual(['Please enter a valid email address'])
		expect(result.error.role).toEqual(['Choose a role'])
		const kept = await invite(admin.cookie, { name: 'Kim', email: 'not an address', role: 'student' })
		expect(((await kept.json()) as { result: { initialValue: Record<string, string> } }).result.initialValue).toMatchObject({
			name: 'Kim',
			email: 'not an address',
		})
		expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(accountsBefore.length)
	})

	test('an unknown course is refused with nothing written', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const response = await invite(admin.cookie, { name: 'Ned', email: 'ned@example.com', role: 'instructor', courseIds: ['999999'] })
		expect(response.status).toBe(400)
		expect(await accountOf('ned@example.com')).toEqual([])
	})

	test('a student and an instructor are refused, a visitor sent to log in', async () => {
		for (const role of ['student', 'instructor'] as const) {
			const visitor = await signedInUser(t.db, { role })
			const answer = await invite(visitor.cookie, { name: 'Mal', email: 'mal@example.com', role: 'instructor' })
			expect(answer.headers.get('Location')).toBe('/dashboard')
			expect((await callRoute(inviteLoader, getRequest(INVITE, { cookie: visitor.cookie }))).headers.get('Location')).toBe('/dashboard')
		}
		const anonymous = await callRoute(inviteAction, formRequest(INVITE, { name: 'Mal', email: 'mal@example.com', role: 'student' }))
		expect(anonymous.headers.get('Location')).toMatch(/^\/login/)
		expect(await accountOf('mal@example.com')).toEqual([])
	})

	test('course staff must be instructors: the database refuses a student', async () => {
		const course = await insertCourse(t.db)
		const student = await insertUser(t.db, { role: 'student' })
		await expect(insertCourseStaff(t.db, { courseId: course.id, userId: student })).rejects.toThrow(/must be an instructor/)
	})
})

describe('the course staff page', () => {
	test('lists the instructors; the admin adds and removes them; audited', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db)
		const teaching = await insertUser(t.db, { role: 'instructor', name: 'Tia' })
		const other = await insertUser(t.db, { role: 'instructor', name: 'Oto' })
		await insertCourseStaff(t.db, { courseId: course.id, userId: teaching })
		const path = `/dashboard/admin/courses/${course.id}/staff`
		const params = { courseId: String(course.id) }
		const page = await (await callRoute(courseStaffLoader, getRequest(path, { cookie: admin.cookie }), params)).json()
		expect(page.staff.map((row: { id: string }) => row.id)).toEqual([teaching])
		const others = page.others.map((row: { id: string }) => row.id)
		expect(others).toContain(other)
		expect(others).not.toContain(teaching)
		const added = await callRoute(courseStaffAction, formRequest(path, { intent: 'add', userId: other }, { cookie: admin.cookie }), params)
		expect((await toastOf(added))?.title).toBe('Instructor added to the course')
		const removed = await callRoute(
			courseStaffAction,
			formRequest(path, { intent: 'remove', userId: teaching }, { cookie: admin.cookie }),
			params,
		)
		expect((await toastOf(removed))?.title).toBe('Instructor removed from the course')
		expect(await staffOf(other)).toEqual([course.id])
		expect(await staffOf(teaching)).toEqual([])
		const actions = await t.db
			.selectFrom('audit_log')
			.select(['action', 'actor_id'])
			.where('actor_id', '=', admin.id)
			.orderBy('id')
			.execute()
		expect(actions).toEqual([
			{ action: 'course_staff.add', actor_id: admin.id },
			{ action: 'course_staff.remove', actor_id: admin.id },
		])
	})

	test('a student cannot be added; a student visitor is refused', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		const course = await insertCourse(t.db)
		const path = `/dashboard/admin/courses/${course.id}/staff`
		const params = { courseId: String(course.id) }
		const refused = await callRoute(
			courseStaffAction,
			formRequest(path, { intent: 'add', userId: student.id }, { cookie: admin.cookie }),
			params,
		)
		expect((await toastOf(refused))?.title).toBe('Only instructors can teach a course')
		const forged = await callRoute(
			courseStaffAction,
			formRequest(path, { intent: 'add', userId: student.id }, { cookie: student.cookie }),
			params,
		)
		expect(forged.headers.get('Location')).toBe('/dashboard')
		expect(await t.db.selectFrom('course_staff').select('user_id').where('course_id', '=', course.id).execute()).toEqual([])
	})
})
