import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { getLimitedTimeOffer } from '#app/models/site/site-settings.server.ts'
import { loader as auditLoader } from '#app/routes/admin/audit-log.tsx'
import { action as courseDeleteAction } from '#app/routes/admin/course-delete.tsx'
import { action as courseEditAction } from '#app/routes/admin/course-edit.tsx'
import { action as coursesAction } from '#app/routes/admin/courses.tsx'
import { action as newEnrollmentAction } from '#app/routes/admin/enrollment-new.tsx'
import { action as enrollmentsAction } from '#app/routes/admin/enrollments.tsx'
import { action as usersAction } from '#app/routes/admin/users.tsx'
import { action as homeAction } from '#app/routes/public/home.tsx'
import { useTestDatabase } from '#tests/support/db.ts'
import { pageData } from '#tests/support/loaders.ts'
import { callRoute, formRequest, getRequest, signedInUser } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
useTestStorage()
const AUDIT = '/dashboard/admin/audit-log'

type AuditData = {
	entity: string
	entities: string[]
	entries: Array<{
		action: string
		entity: string
		entityId: string | null
		actorName: string | null
		details: string
		summary: string
		lines: string[]
	}>
}

async function load(cookie: string, search = '') {
	return pageData<AuditData>(auditLoader, `${AUDIT}${search}`, cookie)
}

describe('audit log', () => {
	test('refuses a student (to /dashboard) and a visitor (to /login)', async () => {
		const student = await signedInUser(t.db, { role: 'student' })
		const asStudent = await callRoute(auditLoader, getRequest(AUDIT, { cookie: student.cookie }))
		expect(asStudent.headers.get('Location')).toBe('/dashboard')
		const asVisitor = await callRoute(auditLoader, getRequest(AUDIT))
		expect(asVisitor.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
	})

	test('every admin mutation writes exactly one row: who, what, which row; the page lists them newest first and filters by kind', async () => {
		const admin = await signedInUser(t.db, { role: 'admin', name: 'Audit Admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		const post = (path: string, fields: Record<string, string>, fn: Parameters<typeof callRoute>[0], params: Record<string, string> = {}) =>
			callRoute(fn, formRequest(path, fields, { cookie: admin.cookie }), params)
		const course = { title: `Audited ${randomUUID().slice(0, 8)}`, description: 'Trail', registrationFee: '0', capacity: '5' }

		await post('/dashboard/admin/courses', course, coursesAction)
		const { id: courseId } = await t.db.selectFrom('courses').select('id').where('title', '=', course.title).executeTakeFirstOrThrow()
		await post(`/dashboard/admin/courses/${courseId}/edit`, { ...course, capacity: '6' }, courseEditAction, { courseId: String(courseId) })
		await post(
			'/dashboard/admin/enrollments/new',
			{ intent: 'create', userId: student.id, courseId: String(courseId) },
			newEnrollmentAction,
		)
		const { id: enrollmentId } = await t.db
			.selectFrom('enrollments')
			.select('id')
			.where('user_id', '=', student.id)
			.executeTakeFirstOrThrow()
		await post(
			'/dashboard/admin/enrollments',
			{ intent: 'status', enrollmentId: String(enrollmentId), status: 'pending', confirmed: 'yes' },
			enrollmentsAction,
		)
		await post('/dashboard/admin/enrollments', { intent: 'remove', enrollmentId: String(enrollmentId) }, enrollmentsAction)
		await post(`/dashboard/admin/courses/${courseId}/delete`, {}, courseDeleteAction, { courseId: String(courseId) })
		await post('/dashboard/admin/users', { intent: 'remove', userId: student.id }, usersAction)

		const rows = await t.db.selectFrom('audit_log').selectAll().where('actor_id', '=', admin.id).orderBy('id').execute()
		expect(rows.map((row) => [row.action, row.entity, row.entity_id])).toEqual([
			['course.create', 'course', String(courseId)],
			['course.update', 'course', String(courseId)],
			['enrollment.create', 'enrollment', String(enrollmentId)],
			['enrollment.status', 'enrollment', String(enrollmentId)],
			['enrollment.remove', 'enrollment', String(enrollmentId)],
			['course.delete', 'course', String(courseId)],
			['user.remove', 'user', student.id],
		])

		const all = await load(admin.cookie)
		expect(all.entities).toEqual(expect.arrayContaining(['course', 'enrollment', 'user']))
		const mine = all.entries.filter((entry) => entry.actorName === 'Audit Admin')
		expect(mine.map((entry) => entry.action)).toEqual([
			'user.remove',
			'course.delete',
			'enrollment.remove',
			'enrollment.status',
			'enrollment.create',
			'course.update',
			'course.create',
		])
		expect(JSON.parse(mine.find((entry) => entry.action === 'enrollment.status')!.details)).toMatchObject({ from: 'active', to: 'pending' })
		// Each entry reads in words, one line per change; the recorded data stays at hand (issue 39 point 9).
		expect(mine.find((entry) => entry.action === 'enrollment.status')).toMatchObject({
			summary: 'Enrollment status changed',
			lines: expect.arrayContaining(['Status: active → pending']),
		})
		expect(mine.find((entry) => entry.action === 'course.update')).toMatchObject({
			summary: 'Course edited',
			lines: ['Capacity: 5 → 6'],
		})

		const courses = await load(admin.cookie, '?entity=course')
		expect(courses.entity).toBe('course')
		expect(courses.entries.every((entry) => entry.entity === 'course')).toBe(true)
		expect(courses.entries.filter((entry) => entry.actorName === 'Audit Admin')).toHaveLength(3)

		const unknown = await load(admin.cookie, '?entity=nonsense')
		expect(unknown.entity).toBe('')
		expect(unknown.entries.length).toBeGreaterThanOrEqual(7)
	})
})

describe('limited time offer (home page)', () => {
	const edited = {
		intent: 'save-offer',
		title: 'Limited Time Offer',
		discount: 'Save $700 this month',
		items: 'Eight live sessions\r\n\r\n  Deal templates  \nPrivate community',
		action: 'Reserve My Seat',
		note: 'Ends Friday.',
	}

	test('refuses a student (to /dashboard) and a visitor (to /login), changing nothing', async () => {
		const student = await signedInUser(t.db, { role: 'student' })
		const before = await getLimitedTimeOffer(t.db)
		for (const fields of [edited, { intent: 'remove-offer' }]) {
			const asStudent = await callRoute(homeAction, formRequest('/?index', fields, { cookie: student.cookie }))
			expect(asStudent.headers.get('Location')).toBe('/dashboard')
			const asVisitor = await callRoute(homeAction, formRequest('/?index', fields))
			expect(asVisitor.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
		}
		expect(await getLimitedTimeOffer(t.db)).toEqual(before)
	})

	test('an admin saves (one item per line) and removes the offer, one audit row each', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const saved = await callRoute(homeAction, formRequest('/?index&edit-offer=1', edited, { cookie: admin.cookie }))
		expect(saved.status).toBe(302)
		expect(saved.headers.get('Location')).toBe('/')
		expect(await getLimitedTimeOffer(t.db)).toEqual({
			title: 'Limited Time Offer',
			discount: 'Save $700 this month',
			items: ['Eight live sessions', 'Deal templates', 'Private community'],
			action: 'Reserve My Seat',
			note: 'Ends Friday.',
		})
		await callRoute(homeAction, formRequest('/?index', { intent: 'remove-offer' }, { cookie: admin.cookie }))
		expect(await getLimitedTimeOffer(t.db)).toBeNull()
		const rows = await t.db.selectFrom('audit_log').selectAll().where('actor_id', '=', admin.id).orderBy('id').execute()
		expect(rows.map((row) => [row.action, row.entity, row.entity_id])).toEqual([
			['offer.save', 'site_setting', 'limited_time_offer'],
			['offer.remove', 'site_setting', 'limited_time_offer'],
		])
	})

	test('an offer without items or title is refused with the messages', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const before = await getLimitedTimeOffer(t.db)
		const response = await callRoute(
			homeAction,
			formRequest('/?index&edit-offer=1', { ...edited, title: ' ', items: ' \n ' }, { cookie: admin.cookie }),
		)
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error.title).toEqual(['Title is required'])
		expect(body.result.error.items).toEqual(['Add at least one item'])
		expect(await getLimitedTimeOffer(t.db)).toEqual(before)
	})
})
