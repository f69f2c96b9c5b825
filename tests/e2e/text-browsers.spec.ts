/**
 * Pages as a text browser reads them (README "Browsers"): each document as the server sends it, read
 * by lynx. Before the main content comes one navigation, each of its links once and in order; no two
 * links share a line with nothing between them, and no link or button runs into the words beside it;
 * every control has words a text browser shows. The markup is the same whether the browser runs
 * scripts or not: one run (the JavaScript-enabled project) proves it.
 */
import { randomUUID } from 'node:crypto'
import type { BrowserContext } from '@playwright/test'
import {
	insertCommunityThread,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertMaterialItem,
	insertPaidPayment,
	insertPlanPurchase,
	insertUser,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { readAsTextBrowser } from '../support/text-browser.ts'

type Link = { text: string; path: string }

const SKIP_AND_LOGO: Link[] = [
	{ text: 'Skip to content', path: '#main' },
	{ text: 'Real Estate Mentorship', path: '/' },
]
const SITE_MENU: Link[] = [
	{ text: 'Home', path: '/' },
	{ text: 'About', path: '/about' },
	{ text: 'Contact', path: '/contact' },
]
const VISITOR_MENU = [...SITE_MENU, { text: 'Log in', path: '/login' }, { text: 'Register', path: '/register' }]
const DASHBOARD_MENU: Link[] = [
	{ text: 'Dashboard', path: '/dashboard' },
	{ text: 'My Courses', path: '/dashboard/courses' },
	{ text: 'Certificates', path: '/dashboard/certificates' },
	{ text: 'Messages', path: '/dashboard/messages' },
	{ text: 'Community', path: '/dashboard/community' },
	{ text: 'Settings', path: '/dashboard/settings' },
]
const ADMIN_MENU: Link[] = [
	{ text: 'Overview', path: '/dashboard/admin/overview' },
	{ text: 'Manage Courses', path: '/dashboard/admin/courses' },
	{ text: 'Upload Materials', path: '/dashboard/admin/uploads' },
	{ text: 'Manage Enrollments', path: '/dashboard/admin/enrollments' },
	{ text: 'Manage Certificates', path: '/dashboard/admin/certificates' },
	{ text: 'Promotion Codes', path: '/dashboard/admin/promotion-codes' },
	{ text: 'Program Agreement', path: '/dashboard/admin/agreement' },
	{ text: 'School Details', path: '/dashboard/admin/school-details' },
	{ text: 'Manage Users', path: '/dashboard/admin/users' },
	{ text: 'Student Communications', path: '/dashboard/admin/messages' },
	{ text: 'Grade Assignments', path: '/dashboard/admin/grades' },
	{ text: 'Orphaned Materials', path: '/dashboard/admin/orphaned-materials' },
	{ text: 'Audit Log', path: '/dashboard/admin/audit-log' },
	{ text: 'Exports', path: '/dashboard/admin/exports' },
]

/** Reads each page as the context's visitor and checks it, naming the page in every failure. */
async function readPages(context: BrowserContext, paths: string[], menu: Link[]) {
	for (const path of paths) {
		const response = await context.request.get(path)
		expect(response.status(), path).toBe(200)
		const page = readAsTextBrowser(await response.text())
		expect(page.linksBeforeMain, `${path}: the links before the main content`).toEqual([...SKIP_AND_LOGO, ...menu])
		expect(page.runTogether, `${path}: lines where links run together`).toEqual([])
		expect(page.unlabelled, `${path}: controls without words`).toEqual([])
	}
}

test.describe('a text browser reads each page once, in order', () => {
	test('a visitor: the site menu once, calls to action on lines of their own', async ({ context, db }) => {
		const course = await insertCourse(db, { capacity: 10, registration_fee: 250000 })
		// A full course's card offers its waitlist beside its details: two links side by side.
		const full = await insertCourse(db, { capacity: 1 })
		await insertEnrollment(db, { userId: await insertUser(db), courseId: full.id })

		await readPages(context, ['/', '/about', '/courses', `/courses/${course.id}`, '/login', '/register'], VISITOR_MENU)
	})

	test('a student: the dashboard menu once, and the toast has a labelled dismiss box', async ({ context, db, createUser }) => {
		const student = await createUser({ name: 'Text Student' })
		const course = await insertCourse(db, { capacity: 10 })
		const enrollment = await insertEnrollment(db, { userId: student.id, courseId: course.id })
		// Paid on a plan: Settings lists its charge and what is left, and the charge has a receipt.
		const { instalmentIds } = await insertPlanPurchase(db, { userId: student.id, courseId: course.id, enrollmentId: enrollment.id })
		const week = await insertWeek(db, { courseId: course.id, weekNumber: 1 })
		await insertMaterialItem(db, { courseId: course.id, weekId: week, title: 'Deal Checklist', fileName: 'checklist.pdf' })
		await db.insertInto('assignments').values({ course_id: course.id, title: 'Deal Worksheet', instructions: 'Analyse a deal.' }).execute()

		// Logging in through the form leaves a toast for the next page; without scripts it has its own dismiss box.
		const login = await context.request.post('/login', { form: { email: student.email, password: student.password }, maxRedirects: 0 })
		expect(login.status()).toBe(302)
		const withToast = readAsTextBrowser(await (await context.request.get('/dashboard')).text())
		expect(withToast.text).toMatch(/\[ \] Dismiss notification\n/)
		expect(withToast.unlabelled).toEqual([])

		const classmate = await insertUser(db, { role: 'student', name: 'Text Classmate' })
		await insertEnrollment(db, { userId: classmate, courseId: course.id })
		const { threadId } = await insertCommunityThread(db, {
			courseId: course.id,
			authorId: student.id,
			title: 'Which lender?',
			body: 'See https://example.com/rates\nthen tell me.',
			replies: [classmate],
			pinned: true,
		})
		await readPages(
			context,
			[
				'/dashboard',
				'/dashboard/settings',
				`/dashboard/settings/receipts/instalment/${instalmentIds[0]}`,
				'/dashboard/community',
				`/dashboard/community/${course.id}?tab=members`,
				`/dashboard/community/${course.id}?tab=events`,
				`/dashboard/community/${course.id}/threads/${threadId}`,
			],
			DASHBOARD_MENU,
		)
		await readPages(context, ['/', '/courses'], [...SITE_MENU, { text: 'Dashboard', path: '/dashboard' }])
	})

	test('an admin: the dashboard and admin menus once, rows of actions as lists', async ({ context, db, createUser, signIn }) => {
		const admin = await createUser({ role: 'admin', name: 'Text Admin' })
		const student = await createUser({ name: 'Text Payer' })
		const course = await insertCourse(db, { capacity: 10, registration_fee: 250000 })
		const enrollment = await insertEnrollment(db, { userId: student.id, courseId: course.id })
		// Paid for this enrolment: its row offers Refund beside Remove.
		await insertPaidPayment(db, {
			checkoutSessionId: `cs_test_text_${randomUUID()}`,
			userId: student.id,
			courseId: course.id,
			courseTitle: course.title,
			customerEmail: student.email,
			enrollmentId: enrollment.id,
		})
		// The student pays on a plan: the admin's plan list shows it with its test-mode charge buttons.
		await insertPlanPurchase(db, { userId: student.id, courseId: course.id, enrollmentId: enrollment.id })
		// A payment taken for a seat that could not be given: the panel above the list offers its refund.
		const unseated = await insertPaidPayment(db, {
			checkoutSessionId: `cs_test_text_${randomUUID()}`,
			userId: student.id,
			courseId: course.id,
			courseTitle: course.title,
			customerEmail: student.email,
		})
		await db.updateTable('registration_payments').set({ status: 'needs_refund' }).where('id', '=', unseated).execute()
		const week = await insertWeek(db, { courseId: course.id, weekNumber: 1 })
		await insertMaterialItem(db, { courseId: course.id, weekId: week, title: 'Rent Roll', fileName: 'rent-roll.pdf' })

		await signIn(admin)
		const pages = [
			'/dashboard/admin/courses',
			`/dashboard/admin/courses/${course.id}/edit`,
			`/dashboard/admin/courses/${course.id}/materials`,
			`/dashboard/admin/courses/${course.id}/progress`,
			`/dashboard/admin/courses/${course.id}/completion`,
			`/dashboard/admin/courses/${course.id}/payment-plan`,
			`/dashboard/admin/courses/${course.id}/plans`,
			'/dashboard/admin/enrollments',
			'/dashboard/admin/school-details',
			'/dashboard/admin/exports',
			'/dashboard/admin/overview',
		]
		await readPages(context, pages, [...DASHBOARD_MENU, ...ADMIN_MENU])
	})

	test('an instructor: the courses they teach first, then their staff page and the member pages', async ({
		context,
		db,
		createUser,
		signIn,
	}) => {
		const instructor = await createUser({ role: 'instructor', name: 'Text Instructor' })
		const course = await insertCourse(db, { capacity: 10, title: `Taught ${randomUUID().slice(0, 6)}` })
		await insertCourseStaff(db, { courseId: course.id, userId: instructor.id })
		await insertEnrollment(db, { userId: await insertUser(db), courseId: course.id })
		const week = await insertWeek(db, { courseId: course.id, weekNumber: 1 })
		await insertMaterialItem(db, { courseId: course.id, weekId: week, title: 'Rehab Budget', fileName: 'rehab-budget.pdf' })

		await signIn(instructor)
		const menu: Link[] = [
			{ text: course.title, path: `/dashboard/admin/courses/${course.id}/materials` },
			{ text: 'Courses You Teach', path: '/dashboard/admin/courses' },
			{ text: 'Overview', path: '/dashboard/admin/overview' },
			{ text: 'Grade Assignments', path: '/dashboard/admin/grades' },
			{ text: 'Student Communications', path: '/dashboard/admin/messages' },
			{ text: 'Enrollments', path: '/dashboard/admin/enrollments' },
			{ text: 'Exports', path: '/dashboard/admin/exports' },
			...DASHBOARD_MENU.filter((link) => link.text !== 'My Courses' && link.text !== 'Certificates'),
		]
		const pages = [
			'/dashboard',
			'/dashboard/admin/courses',
			`/dashboard/admin/courses/${course.id}/materials`,
			`/dashboard/admin/courses/${course.id}/progress`,
			'/dashboard/admin/grades',
			'/dashboard/admin/enrollments',
			'/dashboard/admin/exports',
			'/dashboard/admin/overview',
		]
		await readPages(context, pages, menu)
	})
})
