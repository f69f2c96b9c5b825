/**
 * The access matrix: every route of app/routes.ts × GET (loader) and POST
 * (action) × six visitors, called through the route modules themselves
 * (not through the layout middleware: every module must guard itself).
 * The expected answers live in ACCESS below, one row per route id; a route
 * without a row fails the suite. Answers are written as the status code, or
 * '→/path' for a redirect (the query is left out).
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { attachmentKey, materialKey, submissionKey } from '#app/services/storage/keys.ts'
import { signedPath } from '#app/services/storage/signed-links.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { hashToken } from '#app/utils/session.server.ts'
import type { EnrollmentStatus } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAssignment,
	insertAttendanceImport,
	insertCertificate,
	insertCommunityThread,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertLiveSession,
	insertMaterialItem,
	insertMessage,
	insertMessageAttachment,
	insertOutboxMail,
	insertPaidPayment,
	insertPlanPurchase,
	insertSubmission,
	insertUser,
	insertWaitlistEntry,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { forgedIds } from '#tests/support/forged-ids.ts'
import { callRoute, sessionCookieFor } from '#tests/support/requests.ts'
import { concretePath, loadRouteTable, paramNames, type RouteInfo } from '#tests/support/route-table.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()

/**
 * The student is enrolled in the matrix course, the stranger in none; the course instructor teaches
 * the matrix course, the other instructor only the spare one (docs/decisions/056).
 */
const VISITORS = ['anonymous', 'stranger', 'student', 'courseInstructor', 'otherInstructor', 'admin'] as const
type Visitor = (typeof VISITORS)[number]
/** One answer per visitor, in the order of VISITORS. */
type Row = readonly [anonymous: string, stranger: string, student: string, courseInstructor: string, otherInstructor: string, admin: string]
type Expectation = { GET?: Row; POST?: Row }

const all = (answer: string): Row => [answer, answer, answer, answer, answer, answer]
const LOGIN = '→/login'
const DENIED = '→/dashboard'
/** Pages for members: signed-out visitors are sent to log in. */
const member = (answer = '200'): Row => [LOGIN, answer, answer, answer, answer, answer]
/** Admin pages: signed-out visitors log in, everyone else is sent back to the dashboard. */
const adminOnly = (answer = '200'): Row => [LOGIN, DENIED, DENIED, DENIED, DENIED, answer]
/**
 * A course's staff pages (docs/decisions/056): admins and the course's instructors; another course's
 * instructor is told the course does not exist; students and strangers are sent back to the dashboard.
 */
const courseStaff = (answer = '200'): Row => [LOGIN, DENIED, DENIED, answer, '404', answer]
/**
 * Staff pages whose rows are scoped to the courses the visitor works on (docs/decisions/056): an
 * instructor of another course gets the page with none of the matrix course's rows in it.
 */
const staffScoped = (answer = '200'): Row => [LOGIN, DENIED, DENIED, answer, answer, answer]
/** Pages only a signed-out visitor needs. */
const signedOutOnly = (answer = '200'): Row => [answer, DENIED, DENIED, DENIED, DENIED, DENIED]

/**
 * What each route answers. An empty POST is a malformed form, so allowed
 * visitors get the route's validation answer (400) — never a 5xx — while
 * refused ones get the same gate as for GET.
 */
const ACCESS: Record<string, Expectation> = {
	'routes/public/layout': {},
	'routes/public/home': { GET: all('200'), POST: adminOnly('400') },
	'routes/public/about': {},
	'routes/public/contact': { POST: all('400') },
	'routes/public/faq': {},
	'routes/public/terms': {},
	'routes/public/privacy': {},
	'routes/public/community': { GET: all('200'), POST: all('400') },
	'routes/public/courses': { GET: all('200') },
	'routes/public/course-detail': { GET: all('200') },
	// Public by design: anyone with the address checks the certificate.
	'routes/public/certificate': { GET: all('200') },
	'routes/auth/login': { GET: signedOutOnly(), POST: all('400') },
	'routes/auth/forgot-password': { GET: all('200'), POST: all('400') },
	'routes/auth/reset-password': { GET: all('200'), POST: all('400') },
	'routes/auth/confirm-email': { GET: all('200'), POST: all('400') },
	// Without a token the page says the link is not valid; an empty POST sets no password.
	'routes/auth/accept-invite': { GET: all('200'), POST: all('400') },
	// Without a signed token in the address: the page says the link is not valid, and nothing changes.
	'routes/auth/unsubscribe': { GET: all('400'), POST: all('400') },
	'routes/auth/resend-confirmation': { GET: signedOutOnly(), POST: signedOutOnly('400') },
	'routes/register/details': { GET: signedOutOnly(), POST: all('400') },
	// Steps 2 and 3 need the draft step 1 makes: without one, back to step 1.
	'routes/register/course': { GET: signedOutOnly('→/register'), POST: all('→/register') },
	'routes/register/agreement': { GET: signedOutOnly('→/register'), POST: all('→/register') },
	'routes/register/waitlist': { GET: all('200'), POST: all('400') },
	// A place in line is reached by its e-mailed token, whoever is signed in.
	'routes/register/waitlist-place': { GET: all('200'), POST: all('400') },
	// Enrolled members are shown their enrolment on the course page instead of the purchase form.
	'routes/register/enroll': { GET: [LOGIN, '200', '→/courses/:id', '200', '200', '200'], POST: member('400') },
	'routes/register/test-checkout': { GET: all('404'), POST: all('404') },
	'routes/register/registration-complete': { GET: all('200') },
	'routes/public/not-found': { GET: all('404') },
	'routes/dashboard/layout': { GET: member() },
	'routes/dashboard/index': { GET: member() },
	'routes/dashboard/courses': { GET: member(), POST: member('400') },
	'routes/dashboard/material-viewer': { GET: [LOGIN, '403', '200', '200', '403', '200'] },
	// Only enrolled students submit work: an admin's submission is refused.
	'routes/dashboard/assignment': {
		GET: [LOGIN, '403', '200', '403', '403', '200'],
		POST: [LOGIN, '403', '400', '403', '403', '403'],
	},
	'routes/dashboard/messages': { GET: member(), POST: member('400') },
	// One community leads straight to it; the stranger has none and the admin every course's, to choose from.
	'routes/dashboard/community': {
		GET: [LOGIN, '200', '→/dashboard/community/:id', '→/dashboard/community/:id', '→/dashboard/community/:spare', '200'],
	},
	// Only the course's members (students, staff, admins) read and post; to anyone else it does not exist.
	'routes/dashboard/community-course': {
		GET: [LOGIN, '404', '200', '200', '404', '200'],
		POST: [LOGIN, '404', '400', '400', '404', '400'],
	},
	'routes/dashboard/community-thread': {
		GET: [LOGIN, '404', '200', '200', '404', '200'],
		POST: [LOGIN, '404', '400', '400', '404', '400'],
	},
	'routes/dashboard/settings': { GET: member(), POST: member('400') },
	// One's own account only (docs/decisions/067): an empty form deletes nothing.
	'routes/dashboard/delete-account': { GET: member(), POST: member('400') },
	'routes/dashboard/certificates': { GET: member(), POST: member('400') },
	// The student's own plan only: anyone else, the admin included, finds no such plan.
	// The student's own charge: a plan instalment of theirs (docs/decisions/064).
	'routes/dashboard/payment-receipt': { GET: [LOGIN, '404', '200', '404', '404', '404'] },
	'routes/dashboard/plan-pay': { GET: [LOGIN, '404', '200', '404', '404', '404'], POST: [LOGIN, '404', '400', '404', '404', '404'] },
	'routes/admin/layout': {},
	// An instructor's grid lists the courses they teach; adding a course stays an admin's.
	'routes/admin/courses': { GET: [LOGIN, DENIED, DENIED, '200', '200', '200'], POST: adminOnly('400') },
	'routes/admin/course-edit': { GET: adminOnly(), POST: adminOnly('400') },
	// The confirmation dialog's POST carries no fields: it deletes (a spare course here).
	'routes/admin/course-delete': { GET: adminOnly(), POST: adminOnly('→/dashboard/admin/courses') },
	'routes/admin/course-run-again': { GET: adminOnly(), POST: adminOnly('400') },
	// The confirmation dialog's POST carries no fields: the fixture's course is published already, so nothing changes.
	'routes/admin/course-publish': { GET: adminOnly(), POST: adminOnly('→/dashboard/admin/courses') },
	// Designed answer to a malformed form: back to the queue with an error toast.
	// The course's instructor reads the queue (another course's gets 404); changing it stays the admin's.
	'routes/admin/course-waitlist': {
		GET: courseStaff(),
		POST: adminOnly('→/dashboard/admin/courses/:id/waitlist'),
	},
	'routes/admin/course-progress': { GET: courseStaff() },
	// Designed answer to a form with no intent: back to the course's completion page with an error toast.
	'routes/admin/course-completion': { GET: adminOnly(), POST: adminOnly('→/dashboard/admin/courses/:id/completion') },
	'routes/admin/course-payment-plan': { GET: adminOnly(), POST: adminOnly('400') },
	// An empty post names no instalment: back to the list with a toast.
	'routes/admin/course-plans': { GET: adminOnly(), POST: adminOnly('→/dashboard/admin/courses/:id/plans') },
	// The matrix plan's first payment has no payment row, so nothing is left to refund: an empty post is a 400.
	'routes/admin/course-plan-refund': { GET: adminOnly(), POST: adminOnly('400') },
	// Designed answer to a malformed add/remove: back to the staff list with an error toast.
	'routes/admin/course-staff': { GET: adminOnly(), POST: adminOnly('→/dashboard/admin/courses/:id/staff') },
	'routes/admin/course-materials': { GET: courseStaff(), POST: courseStaff('400') },
	'routes/admin/week-topics': { GET: courseStaff(), POST: courseStaff('400') },
	'routes/admin/week-edit': { GET: courseStaff(), POST: courseStaff('400') },
	'routes/admin/session-edit': { GET: courseStaff(), POST: courseStaff('400') },
	'routes/admin/session-attendance': { GET: courseStaff(), POST: courseStaff('400') },
	// The matrix's import is a kept preview of an empty report; an empty POST is not its confirmation.
	'routes/admin/attendance-import': { GET: courseStaff(), POST: courseStaff('400') },
	// Designed answer to a malformed form: back to the list with an error toast.
	'routes/admin/users': { GET: adminOnly(), POST: adminOnly('→/dashboard/admin/users') },
	'routes/admin/user-invite': { GET: adminOnly(), POST: adminOnly('400') },
	// An instructor reads their courses' enrolments, without payments; every change stays the admin's.
	'routes/admin/enrollments': { GET: staffScoped(), POST: adminOnly('400') },
	'routes/admin/enrollment-new': { GET: adminOnly(), POST: adminOnly('400') },
	'routes/admin/payment-refund': { GET: adminOnly(), POST: adminOnly('400') },
	'routes/admin/promotion-codes': { GET: adminOnly(), POST: adminOnly('400') },
	'routes/admin/agreement': { GET: adminOnly(), POST: adminOnly('400') },
	'routes/admin/school-details': { GET: adminOnly(), POST: adminOnly('400') },
	'routes/admin/messages/layout': {},
	// The channels were tabs of this page once: an old link lands on its channel.
	'routes/admin/messages/index': { GET: staffScoped('→/dashboard/admin/messages/broadcast') },
	// An instructor announces to the courses they teach and messages their contacts (docs/decisions/058).
	'routes/admin/messages/broadcast': { GET: staffScoped(), POST: staffScoped('400') },
	'routes/admin/messages/direct': { GET: staffScoped(), POST: staffScoped('400') },
	// Designed answer to a malformed form: back to the inbox with an error toast.
	'routes/admin/messages/contact': { GET: adminOnly(), POST: adminOnly('→/dashboard/admin/messages/contact') },
	'routes/admin/uploads': { GET: adminOnly(), POST: adminOnly('400') },
	'routes/admin/grades': { GET: staffScoped(), POST: staffScoped('400') },
	'routes/admin/orphaned-materials': { GET: adminOnly(), POST: adminOnly('→/dashboard/admin/orphaned-materials') },
	'routes/admin/audit-log': { GET: adminOnly() },
	// An instructor's overview shows the courses they teach, without the money (docs/decisions/065).
	'routes/admin/overview': { GET: staffScoped() },
	'routes/admin/certificates': { GET: adminOnly(), POST: adminOnly('400') },
	// An instructor's page lists the courses they teach, without the payments export.
	'routes/admin/exports': { GET: staffScoped() },
	'routes/auth/logout': { GET: all('→/'), POST: all('→/') },
	'routes/resources/material-file': { GET: [LOGIN, '403', '200', '200', '403', '200'] },
	// The fixture's material is a PDF: it has no Office preview, and no link signed for it.
	'routes/resources/material-preview': { GET: [LOGIN, '403', '404', '404', '403', '404'] },
	'routes/resources/material-shared': { GET: all('403') },
	'routes/resources/attachment-file': { GET: [LOGIN, '403', '403', '403', '403', '403'] },
	// The course's staff download its hand-ins; another course's instructor is refused as a stranger is.
	'routes/resources/submission-file': { GET: [LOGIN, '403', '403', '200', '403', '200'] },
	// Without a ?key= of a stored course material there is nothing to serve.
	'routes/resources/orphan-file': { GET: adminOnly('404') },
	// Only the upload form posts here: a GET is told the method is not served.
	'routes/resources/material-upload': { GET: all('405'), POST: [LOGIN, DENIED, DENIED, '400', '400', '400'] },
	// A calendar app has no session: the token in the path is the key, and an unknown one finds nothing.
	'routes/resources/calendar-feed': { GET: all('404') },
	// The matrix's session is over: its students (and admins, who pass through) are told so on the dashboard; to anyone else it does not exist.
	'routes/resources/session-join': { GET: [LOGIN, '404', DENIED, '404', '404', DENIED] },
	// The progress roster's CSV, for the course's staff as the roster is.
	'routes/resources/course-progress-csv': { GET: courseStaff() },
	// Without its range of days the payments export says which it needs; it is the admins' alone.
	'routes/resources/payments-export': { GET: adminOnly('400') },
	'routes/resources/attendance-export': { GET: courseStaff() },
	'routes/resources/events': { GET: all('200') },
	// Without Stripe configured (the test provider) the webhook does not exist.
	'routes/resources/stripe-webhook': { GET: all('405'), POST: all('404') },
	'routes/resources/healthz': { GET: all('200') },
	// The credential, the revocation list and the school's public key are public, as the page is.
	'routes/resources/certificate-credential': { GET: all('200') },
	'routes/resources/certificate-status-list': { GET: all('200') },
	'routes/resources/did-document': { GET: all('200') },
	// The matrix's certificate is another student's: its PDF is nobody else's, an admin's neither.
	// The signed-in person's own archive; a POST without the form's field makes none.
	'routes/resources/my-data': { GET: all('405'), POST: member('400') },
	'routes/resources/certificate-pdf': { GET: [LOGIN, '404', '404', '404', '404', '200'] },
	// The development mailbox: open in development and tests, admin-only in production (checked over HTTP).
	// Opened, it shows the page; posted without a signed token, it is refused.
	'routes/resources/unsubscribe-one-click': { GET: all('→/unsubscribe'), POST: all('400') },
	'routes/resources/mailbox': { GET: all('200') },
	'routes/resources/mailbox-html': { GET: all('200') },
}

type Fixtures = {
	users: Record<Exclude<Visitor, 'anonymous'>, string>
	params: Record<string, string>
	spareCourseId: string
	other: string
	privateMessageId: number
	courseId: number
}
let fixtures: Fixtures
let table: RouteInfo[]

beforeAll(async () => {
	table = await loadRouteTable()
	const [stranger, student, courseInstructor, otherInstructor, admin, other] = await Promise.all([
		insertUser(t.db, { role: 'student' }),
		insertUser(t.db, { role: 'student' }),
		insertUser(t.db, { role: 'instructor' }),
		insertUser(t.db, { role: 'instructor' }),
		insertUser(t.db, { role: 'admin' }),
		insertUser(t.db, { role: 'student' }),
	])
	const course = await insertCourse(t.db, { title: 'Matrix course', capacity: 30, start_date: '2030-01-01', end_date: '2030-03-01' })
	const spare = await insertCourse(t.db, { title: 'Spare course' })
	const enrollments = []
	for (const userId of [student, other]) enrollments.push(await insertEnrollment(t.db, { userId, courseId: course.id }))
	// The student pays the matrix course on a plan, one of its instalments failed: its update-card page is theirs alone.
	const { planId, instalmentIds } = await insertPlanPurchase(t.db, {
		userId: student,
		courseId: course.id,
		enrollmentId: enrollments[0]!.id,
		status: 'past_due',
	})
	await t.db.updateTable('plan_instalments').set({ status: 'failed', failed_at: new Date() }).where('id', '=', instalmentIds[1]!).execute()
	await insertCourseStaff(t.db, { courseId: course.id, userId: courseInstructor })
	await insertCourseStaff(t.db, { courseId: spare.id, userId: otherInstructor })
	const weekId = await insertWeek(t.db, {
		courseId: course.id,
		weekNumber: 1,
		topic: 'Week one',
		zoomLink: 'https://zoom.example/j/matrix',
	})
	// A session that is over: its week is open, so the files below answer as before.
	const liveSessionId = await insertLiveSession(t.db, { courseId: course.id })
	const pdf = new TextEncoder().encode('%PDF-1.4 matrix %%EOF')
	const itemKey = materialKey(course.id, weekId, 'material', 'notes.pdf')
	await files.storage.put(itemKey, pdf, { contentType: 'application/pdf' })
	const itemId = await insertMaterialItem(t.db, {
		courseId: course.id,
		weekId,
		title: 'Notes',
		storageKey: itemKey,
		mimeType: 'application/pdf',
		sizeBytes: pdf.byteLength,
	})
	// A private message between another student and a fifth party: nobody in the matrix may read its file.
	const message = await insertMessage(t.db, {
		sender_id: other,
		receiver_id: await insertUser(t.db, { role: 'student' }),
		content: 'Private',
	})
	const attachmentStorageKey = attachmentKey(other, 'secret.txt')
	await files.storage.put(attachmentStorageKey, new TextEncoder().encode('secret'), { contentType: 'text/plain' })
	const attachment = await insertMessageAttachment(t.db, {
		message_id: message.id,
		name: 'secret.txt',
		type: 'text/plain',
		size_bytes: 6,
		storage_key: attachmentStorageKey,
	})
	const assignment = await insertAssignment(t.db, { course_id: course.id, week_id: weekId, title: 'Homework', instructions: 'Do it' })
	const submissionStorageKey = submissionKey(assignment.id, other, 'answer.pdf')
	await files.storage.put(submissionStorageKey, pdf, { contentType: 'application/pdf' })
	const submission = await insertSubmission(t.db, {
		assignment_id: assignment.id,
		student_id: other,
		file_name: 'answer.pdf',
		file_type: 'application/pdf',
		file_size: pdf.byteLength,
		storage_key: submissionStorageKey,
	})
	const importId = await insertAttendanceImport(t.db, { sessionId: liveSessionId, adminId: admin })
	const placeToken = 'matrix-waitlist-place-token'
	await insertWaitlistEntry(t.db, {
		course_id: course.id,
		name: 'Matrix Waiting',
		email: 'matrix-waiting@example.com',
		position: 1,
		token_hash: hashToken(placeToken),
	})
	const mail = await insertOutboxMail(t.db, {
		to_address: 'matrix@example.com',
		subject: 'Matrix',
		text_body: 'Matrix',
		html_body: '<p>Matrix</p>',
	})
	// A paid test-checkout payment whose session does not exist: a refund of it is refused, never made.
	const paymentId = await insertPaidPayment(t.db, {
		checkoutSessionId: 'cs_test_matrix_paid',
		userId: other,
		courseId: course.id,
		courseTitle: 'Matrix course',
		customerEmail: 'matrix-payer@example.com',
	})
	const certificate = await insertCertificate(t.db, { userId: other })
	const { threadId } = await insertCommunityThread(t.db, { courseId: course.id, authorId: other, replies: [student] })
	fixtures = {
		users: { stranger, student, courseInstructor, otherInstructor, admin },
		params: {
			certificateId: certificate.certificateId,
			list: '0',
			paymentId: String(paymentId),
			planId: String(planId),
			chargeKind: 'instalment',
			chargeId: String(instalmentIds[0]),
			id: String(course.id),
			courseId: String(course.id),
			weekId: String(weekId),
			itemId: String(itemId),
			attachmentId: String(attachment.id),
			assignmentId: String(assignment.id),
			submissionId: String(submission.id),
			sessionId: 'cs_test_does_not_exist',
			liveSessionId: String(liveSessionId),
			importId,
			feed: 'not-a-real-calendar-token-not-a-real-one.ics',
			mailId: String(mail.id),
			token: placeToken,
			threadId: String(threadId),
		},
		spareCourseId: String(spare.id),
		other,
		privateMessageId: message.id,
		courseId: course.id,
	}
})

/**
 * The path's parameters are the fixtures' unless `overrides` gives another value; `signed` adds a
 * valid link signature (what the online viewer's links carry), so that a route behind one gets as far as its id.
 */
async function answerOf(
	route: RouteInfo,
	method: 'GET' | 'POST',
	visitor: Visitor,
	{ overrides = {}, signed = false }: { overrides?: Record<string, string>; signed?: boolean } = {},
) {
	const params = Object.fromEntries(paramNames(route.path).map((name) => [name, fixtures.params[name]!]))
	if (route.id === 'routes/admin/course-delete') params.courseId = fixtures.spareCourseId
	Object.assign(params, overrides)
	const path = concretePath(route.path, params)
	const target = signed ? signedPath(getEnv().SESSION_SECRET, new URL(path, 'http://localhost').pathname, 60) : path
	const url = `http://localhost${target}${route.index && route.path !== '/' ? '?index' : ''}`
	const headers = new Headers({ 'x-client-ip': `198.51.100.${VISITORS.indexOf(visitor) + 1}` })
	if (visitor !== 'anonymous') headers.set('Cookie', await sessionCookieFor(fixtures.users[visitor]))
	const controller = new AbortController()
	const request = new Request(url, { method, headers, signal: controller.signal, ...(method === 'POST' ? { body: new FormData() } : {}) })
	const fn = method === 'GET' ? route.module.loader : route.module.action
	try {
		const response = await callRoute(fn!, request, params)
		// Abort first, as the server does when a client goes away, then drop the body (an event stream stays open otherwise).
		controller.abort()
		await response.body?.cancel()
		if (response.status >= 300 && response.status < 400) {
			// The matrix course's id stands as ':id' (the spare course's as ':spare'), so a row need not know it.
			const location = new URL(response.headers.get('Location')!, 'http://localhost').pathname
			return `→${location.replace(new RegExp(`/${fixtures.courseId}(?=/|$)`), '/:id').replace(new RegExp(`/${fixtures.spareCourseId}(?=/|$)`), '/:spare')}`
		}
		return String(response.status)
	} catch (error) {
		return `threw ${error instanceof Error ? error.message : String(error)}`
	} finally {
		controller.abort()
	}
}

/**
 * The matrix and the forged-id sweep call every route in turn (840 answers, then some 500 forgeries):
 * longer than the suite's default 30 s when the whole suite shares the machine's cores.
 */
const MATRIX_TIMEOUT = 120_000

describe('access matrix', () => {
	test('every route of app/routes.ts has a row, and every row is a route', () => {
		const ids = table.map((route) => route.id)
		expect(
			ids.filter((id) => !(id in ACCESS)),
			'routes without an access row',
		).toEqual([])
		expect(
			Object.keys(ACCESS).filter((id) => !ids.includes(id)),
			'rows without a route',
		).toEqual([])
	})

	test('each row declares exactly the methods its module answers', () => {
		const mismatched = table.filter((route) => {
			const row = ACCESS[route.id] ?? {}
			return Boolean(row.GET) !== route.hasLoader || Boolean(row.POST) !== route.hasAction
		})
		expect(mismatched.map((route) => `${route.id} loader=${route.hasLoader} action=${route.hasAction}`)).toEqual([])
	})

	test('every route × method × visitor answers as the table says', { timeout: MATRIX_TIMEOUT }, async () => {
		const actual: Record<string, Expectation> = {}
		for (const route of table) {
			for (const method of ['GET', 'POST'] as const) {
				if (!(method === 'GET' ? route.hasLoader : route.hasAction)) continue
				const row: string[] = []
				for (const visitor of VISITORS) row.push(await answerOf(route, method, visitor))
				actual[route.id] = { ...actual[route.id], [method]: row }
			}
		}
		const expected = Object.fromEntries(
			Object.entries(ACCESS)
				.filter(([, row]) => row.GET || row.POST)
				.map(([id, row]) => [id, row]),
		)
		if (process.env.PRINT_ACCESS) console.log(JSON.stringify(actual, null, 1))
		expect(actual).toEqual(expected)
	})
})

/**
 * A path's id is plain digits (app/utils/row-id.ts): written another way ('1e1', '12.0', ' 12', the
 * fixture's own id as '0x…' or '….0'…) it names no row, and every route answers 404, GET or POST,
 * before it reads a form. Asked as the admin, who gets past every route's gate, with the link
 * signature the viewer's shared-file route checks first.
 */
describe('ids written another way', () => {
	const isNumeric = (name: string) => /^\d+$/.test(fixtures.params[name] ?? '')

	test('every numeric path parameter of every route answers 404 to a forged id, GET and POST', { timeout: MATRIX_TIMEOUT }, async () => {
		// The delete route gets a course of its own, which every forged spelling of its id must leave alone.
		const kept = String((await insertCourse(t.db, { title: 'Kept course' })).id)
		const answers: string[] = []
		let forgeries = 0
		for (const route of table) {
			const signed = route.id === 'routes/resources/material-shared'
			for (const name of paramNames(route.path).filter(isNumeric)) {
				const id = route.id === 'routes/admin/course-delete' ? kept : fixtures.params[name]!
				for (const method of ['GET', 'POST'] as const) {
					if (!(method === 'GET' ? route.hasLoader : route.hasAction)) continue
					for (const forged of forgedIds(id)) {
						const answer = await answerOf(route, method, 'admin', { overrides: { [name]: forged }, signed })
						forgeries += 1
						if (answer !== '404') answers.push(`${method} ${route.path} :${name}=${JSON.stringify(forged)} → ${answer}`)
					}
				}
			}
		}
		expect(answers).toEqual([])
		if (process.env.PRINT_ACCESS) console.log(`${forgeries} forged ids → 404`)
		expect(await t.db.selectFrom('courses').select('id').where('id', '=', Number(kept)).executeTakeFirst()).toBeDefined()
	})
})

/**
 * What each enrolment status gives in its course (docs/decisions/035): an alumnus (completed)
 * keeps reading materials and recordings, without the live link or hand-ins; pending and
 * inactive enrolments see nothing. One row per status; a status without a row fails.
 */
type StatusRow = { file: string; viewer: string; assignment: string; submit: string; dashboardLiveLink: boolean | null }
const ACCESS_BY_STATUS: Record<EnrollmentStatus, StatusRow> = {
	active: { file: '200', viewer: '200', assignment: '200', submit: '400', dashboardLiveLink: true },
	completed: { file: '200', viewer: '200', assignment: '200', submit: '403', dashboardLiveLink: false },
	pending: { file: '403', viewer: '403', assignment: '403', submit: '403', dashboardLiveLink: null },
	inactive: { file: '403', viewer: '403', assignment: '403', submit: '403', dashboardLiveLink: null },
}

describe('access by enrolment status', () => {
	const moduleOf = (id: string) => table.find((route) => route.id === id)!.module
	const call = async (id: string, method: 'GET' | 'POST', path: string, userId: string, params: Record<string, string>) => {
		const cookie = await sessionCookieFor(userId)
		const request = new Request(`http://localhost${path}`, {
			method,
			headers: { Cookie: cookie },
			...(method === 'POST' ? { body: new FormData() } : {}),
		})
		const module = moduleOf(id)
		return callRoute((method === 'GET' ? module.loader : module.action)!, request, params)
	}

	test('every enrolment status has a row', () => {
		expect(Object.keys(ACCESS_BY_STATUS).sort()).toEqual(['active', 'completed', 'inactive', 'pending'])
	})

	test.each(Object.entries(ACCESS_BY_STATUS) as [EnrollmentStatus, StatusRow][])('a %s enrolment', async (status, expected) => {
		const userId = await insertUser(t.db, { role: 'student' })
		await insertEnrollment(t.db, { userId, courseId: fixtures.courseId, status })
		const { itemId, assignmentId } = fixtures.params as { itemId: string; assignmentId: string }
		const file = await call('routes/resources/material-file', 'GET', `/files/materials/${itemId}`, userId, { itemId })
		const viewer = await call('routes/dashboard/material-viewer', 'GET', `/dashboard/materials/${itemId}`, userId, { itemId })
		const assignment = await call('routes/dashboard/assignment', 'GET', `/dashboard/assignments/${assignmentId}`, userId, {
			assignmentId,
		})
		const submit = await call('routes/dashboard/assignment', 'POST', `/dashboard/assignments/${assignmentId}`, userId, { assignmentId })
		const fileBody = await file.text()
		if (expected.file !== '200') expect(fileBody).not.toContain('%PDF')
		const dashboard = await call('routes/dashboard/index', 'GET', `/dashboard?course=${fixtures.courseId}`, userId, {})
		const home = (await dashboard.json()) as { weeks: { weeks: { zoomLink: string | null }[] } | null; readOnly: boolean }
		const viewerLink =
			viewer.status === 200 ? ((await viewer.json()) as { dashboard: { weeks: { weeks: { zoomLink: string | null }[] } } }) : null
		expect({
			file: String(file.status),
			viewer: String(viewer.status),
			assignment: String(assignment.status),
			submit: String(submit.status),
			dashboardLiveLink: home.weeks ? home.weeks.weeks[0]!.zoomLink !== null : null,
		}).toEqual(expected)
		if (viewerLink) expect(viewerLink.dashboard.weeks.weeks[0]!.zoomLink !== null).toBe(expected.dashboardLiveLink)
		expect(home.readOnly).toBe(status === 'completed')
	})
})

/** The bytes of a refused answer must not carry the object. */
async function refusedBody(response: Response) {
	expect([403, 404]).toContain(response.status)
	return response.text()
}

describe('objects of other users', () => {
	const get = (path: string, userId: string) =>
		sessionCookieFor(userId).then((cookie) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }))
	const moduleOf = (id: string) => table.find((route) => route.id === id)!.module

	test("another user's attachment and submission are refused without a byte of them", async () => {
		const attachment = moduleOf('routes/resources/attachment-file').loader!
		const submission = moduleOf('routes/resources/submission-file').loader!
		for (const visitor of ['stranger', 'student', 'courseInstructor', 'otherInstructor'] as const) {
			const userId = fixtures.users[visitor]
			const a = await callRoute(attachment, await get(`/files/attachments/${fixtures.params.attachmentId}`, userId), {
				attachmentId: fixtures.params.attachmentId!,
			})
			expect(await refusedBody(a)).not.toContain('secret')
			// The matrix course's own instructor grades its hand-ins, so downloads them (the row above).
			if (visitor === 'courseInstructor') continue
			const s = await callRoute(submission, await get(`/files/submissions/${fixtures.params.submissionId}`, userId), {
				submissionId: fixtures.params.submissionId!,
			})
			expect(await refusedBody(s)).not.toContain('%PDF')
		}
	})

	test("another user's conversation is not shown, and their message cannot be deleted or marked read", async () => {
		const messages = moduleOf('routes/dashboard/messages')
		const student = fixtures.users.student
		const page = await callRoute(messages.loader!, await get(`/dashboard/messages?with=${fixtures.other}`, student))
		expect(await page.text()).not.toContain('Private')
		const cookie = await sessionCookieFor(student)
		const post = (fields: Record<string, string>) => {
			const body = new FormData()
			for (const [name, value] of Object.entries(fields)) body.set(name, value)
			return callRoute(
				messages.action!,
				new Request('http://localhost/dashboard/messages', { method: 'POST', body, headers: { Cookie: cookie } }),
			)
		}
		const deleted = await post({ intent: 'delete', messageId: String(fixtures.privateMessageId) })
		expect([403, 404]).toContain(deleted.status)
		await post({ intent: 'mark-read', partnerId: fixtures.other })
		const row = await t.db.selectFrom('messages').select(['id', 'read']).where('id', '=', fixtures.privateMessageId).executeTakeFirst()
		expect(row).toEqual({ id: fixtures.privateMessageId, read: false })
	})

	test("another user's enrolments are not on a student's course pages", async () => {
		const { email } = await t.db.selectFrom('users').select('email').where('id', '=', fixtures.other).executeTakeFirstOrThrow()
		for (const id of ['routes/dashboard/courses', 'routes/dashboard/index']) {
			const response = await callRoute(moduleOf(id).loader!, await get('/dashboard/courses', fixtures.users.stranger))
			expect(await response.text(), id).not.toContain(email)
		}
	})
})
