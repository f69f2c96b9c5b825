import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { action as logoutAction } from '#app/routes/auth/logout.ts'
import { loader as myCoursesLoader } from '#app/routes/dashboard/courses.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/index.tsx'
import { loader as viewerLoader } from '#app/routes/dashboard/material-viewer.tsx'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertContactSubmission,
	insertCourse,
	insertEnrollment,
	insertMaterialItem,
	insertMaterialLink,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { callRoute, cookiesFrom, formRequest, getRequest, signedInUser } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
useTestStorage()

type DashboardData = {
	name: string
	isAdmin: boolean
	courses: Array<{ id: number; title: string }>
	selectedCourseId: number | null
	weeks: { weeks: Array<{ id: number }>; totalWeeks: number } | null
}

async function loadDashboard(cookie: string | undefined, query = '') {
	const response = await callRoute(dashboardLoader, getRequest(`/dashboard${query}`, { cookie }))
	return { response, data: (response.status === 200 ? await response.json() : null) as DashboardData }
}

function selectedCourseCookie(response: Response) {
	return response.headers.getSetCookie().find((cookie) => cookie.startsWith('selected-course='))
}

describe('the dashboard course selection', () => {
	let student: Awaited<ReturnType<typeof signedInUser>>
	let older: number
	let newer: number
	let pending: number

	beforeAll(async () => {
		student = await signedInUser(t.db, { name: 'Dana Student' })
		older = (await insertCourse(t.db, { title: 'Older course' })).id
		newer = (await insertCourse(t.db, { title: 'Newer course' })).id
		pending = (await insertCourse(t.db, { title: 'Pending course' })).id
		await insertEnrollment(t.db, { userId: student.id, courseId: older, status: 'active', daysAgo: 30 })
		await insertEnrollment(t.db, { userId: student.id, courseId: newer, status: 'active', daysAgo: 2 })
		await insertEnrollment(t.db, { userId: student.id, courseId: pending, status: 'pending', daysAgo: 0 })
		await insertWeek(t.db, { courseId: newer, weekNumber: 1, topic: 'Start' })
	})

	test('defaults to the most recent active enrollment and lists only active courses', async () => {
		const { response, data } = await loadDashboard(student.cookie)
		expect(data).toMatchObject({ name: 'Dana Student', isAdmin: false, selectedCourseId: newer })
		expect(data.courses.map((course) => course.id)).toEqual([newer, older])
		expect(data.weeks).toMatchObject({ weeks: [{}], totalWeeks: 1 })
		expect(selectedCourseCookie(response)).toBeUndefined()
	})

	test('remembers a chosen course in a signed cookie', async () => {
		const chosen = await loadDashboard(student.cookie, `?course=${older}`)
		expect(chosen.data.selectedCourseId).toBe(older)
		expect(chosen.data.weeks).toEqual({ weeks: [], totalWeeks: 0 })
		const setCookie = selectedCourseCookie(chosen.response)
		expect(setCookie).toMatch(/HttpOnly/i)

		const cookie = `${student.cookie}; ${cookiesFrom(chosen.response)}`
		const later = await loadDashboard(cookie)
		expect(later.data.selectedCourseId).toBe(older)
		expect(selectedCourseCookie(later.response)).toBeUndefined()

		const forged = cookie.replace(/selected-course=[^;]+/, 'selected-course=eyJ1c2VySWQiOiJ4IiwiY291cnNlSWQiOjF9')
		expect((await loadDashboard(forged)).data.selectedCourseId).toBe(newer)
	})

	test('drops an id that is invalid or not accessible', async () => {
		for (const query of [`?course=${pending}`, '?course=abc', '?course=2000000000', '?course=']) {
			const { response, data } = await loadDashboard(student.cookie, query)
			expect(data.selectedCourseId).toBe(newer)
			expect(selectedCourseCookie(response)).toBeUndefined()
		}
	})

	test('forgets a remembered course once its enrollment is no longer active', async () => {
		const other = await signedInUser(t.db, { name: 'Dana Student' })
		const first = (await insertCourse(t.db)).id
		const second = (await insertCourse(t.db)).id
		await insertEnrollment(t.db, { userId: other.id, courseId: first, status: 'active', daysAgo: 5 })
		await insertEnrollment(t.db, { userId: other.id, courseId: second, status: 'active', daysAgo: 1 })
		const chosen = await loadDashboard(other.cookie, `?course=${first}`)
		const cookie = `${other.cookie}; ${cookiesFrom(chosen.response)}`
		await t.db
			.updateTable('enrollments')
			.set({ status: 'inactive' })
			.where('user_id', '=', other.id)
			.where('course_id', '=', first)
			.execute()

		const { response, data } = await loadDashboard(cookie)
		expect(data.selectedCourseId).toBe(second)
		expect(selectedCourseCookie(response)).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
	})

	test("ignores another user's remembered course", async () => {
		const chosen = await loadDashboard(student.cookie, `?course=${older}`)
		const other = await signedInUser(t.db, { name: 'Dana Student' })
		await insertEnrollment(t.db, { userId: other.id, courseId: older, status: 'active', daysAgo: 10 })
		const shared = (await insertCourse(t.db)).id
		await insertEnrollment(t.db, { userId: other.id, courseId: shared, status: 'active', daysAgo: 1 })
		const { data } = await loadDashboard(`${other.cookie}; ${cookiesFrom(chosen.response)}`)
		expect(data.selectedCourseId).toBe(shared)
	})

	test('a student without an active enrollment has no course to choose', async () => {
		const newcomer = await signedInUser(t.db, { name: 'Dana Student' })
		await insertEnrollment(t.db, { userId: newcomer.id, courseId: pending, status: 'pending' })
		const { data } = await loadDashboard(newcomer.cookie)
		expect(data).toMatchObject({ courses: [], selectedCourseId: null, weeks: null })
	})

	test('an admin may pick any course and has none selected by default', async () => {
		const admin = await signedInUser(t.db, { role: 'admin', name: 'Dana Student' })
		const initial = await loadDashboard(admin.cookie)
		expect(initial.data).toMatchObject({ isAdmin: true, selectedCourseId: null, weeks: null })
		expect(initial.data.courses.map((course) => course.id)).toEqual(expect.arrayContaining([older, newer, pending]))
		const picked = await loadDashboard(admin.cookie, `?course=${pending}`)
		expect(picked.data.selectedCourseId).toBe(pending)
	})

	test('a signed-out visitor is sent to log in', async () => {
		const { response } = await loadDashboard(undefined)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(`/login?redirectTo=${encodeURIComponent('/dashboard')}`)
	})

	test('logging out forgets the selected course', async () => {
		const response = await callRoute(logoutAction, formRequest('/logout', {}, { cookie: student.cookie }))
		expect(selectedCourseCookie(response)).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
	})
})

describe('the material viewer', () => {
	let student: Awaited<ReturnType<typeof signedInUser>>
	let courseId: number
	let weekId: number

	async function addItem(values: {
		title: string
		type: 'video' | 'document'
		category: 'material' | 'recording'
		fileName?: string
		fileUrl?: string
	}) {
		const { title, type, category, fileName, fileUrl } = values
		if (fileUrl) return (await insertMaterialLink(t.db, { weekId, url: fileUrl, title, type, category })).id
		return insertMaterialItem(t.db, { courseId, weekId, title, type, category, fileName, mimeType: null, sizeBytes: null })
	}

	async function view(itemId: number | string, cookie: string | undefined, query = '') {
		const response = await callRoute(viewerLoader, getRequest(`/dashboard/materials/${itemId}${query}`, { cookie }), {
			itemId: String(itemId),
		})
		return { response, data: response.status === 200 ? await response.json() : null }
	}

	beforeAll(async () => {
		student = await signedInUser(t.db, { name: 'Dana Student' })
		courseId = (await insertCourse(t.db, { title: 'Viewer course' })).id
		await insertEnrollment(t.db, { userId: student.id, courseId })
		weekId = await insertWeek(t.db, { courseId, weekNumber: 2, topic: 'Rehab' })
	})

	test('keeps a document behind the protected overlay until View Document is used', async () => {
		const pdf = await addItem({ title: 'Guide', type: 'document', category: 'material', fileName: 'guide.pdf' })
		const first = await view(pdf, student.cookie)
		expect(first.data).toMatchObject({
			isProtected: true,
			weekLabel: 'Week 2: Rehab',
			backgroundQuery: `course=${courseId}`,
			item: { id: pdf, kind: 'pdf', fileUrl: `/files/materials/${pdf}`, downloadUrl: `/files/materials/${pdf}?download=1` },
			dashboard: { selectedCourseId: courseId },
		})
		expect((await view(pdf, student.cookie, '?view=1')).data).toMatchObject({ isProtected: false })
	})

	test('shows a recording at once, with its week on the recordings tab behind', async () => {
		const video = await addItem({ title: 'Replay', type: 'video', category: 'recording', fileName: 'replay.mp4' })
		const { data } = await view(video, student.cookie)
		expect(data).toMatchObject({ isProtected: false, item: { kind: 'video' } })
		expect(new URLSearchParams(data.backgroundQuery).get(`week${weekId}`)).toBe('recordings')
	})

	test('embeds YouTube from the privacy-enhanced domain and has no file for it', async () => {
		const link = await addItem({
			title: 'YouTube: Tour',
			type: 'video',
			category: 'recording',
			fileUrl: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
		})
		const { data } = await view(link, student.cookie)
		expect(data.item).toMatchObject({ kind: 'youtube', fileUrl: null, downloadUrl: null })
		expect(data.item.embedUrl).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/aqz-KE-bpKQ\?/)
	})

	test('offers no online-viewer link for an office file kept on local disk', async () => {
		const docx = await addItem({ title: 'Lease', type: 'document', category: 'material', fileName: 'lease.docx' })
		const { data } = await view(docx, student.cookie, '?view=1')
		expect(data.item).toMatchObject({ kind: 'word', officeSourceUrl: null, downloadUrl: `/files/materials/${docx}?download=1` })
	})

	test('answers 403 to a student not actively enrolled and 404 for a missing item', async () => {
		const pdf = await addItem({ title: 'Secret', type: 'document', category: 'material', fileName: 'secret.pdf' })
		const outsider = await signedInUser(t.db, { name: 'Dana Student' })
		expect((await view(pdf, outsider.cookie)).response.status).toBe(403)
		await insertEnrollment(t.db, { userId: outsider.id, courseId, status: 'pending' })
		expect((await view(pdf, outsider.cookie)).response.status).toBe(403)
		expect((await view(2_000_000_000, student.cookie)).response.status).toBe(404)
		expect((await view('nope', student.cookie)).response.status).toBe(404)
	})

	test('sends a signed-out visitor to log in', async () => {
		const pdf = await addItem({ title: 'Login first', type: 'document', category: 'material', fileName: 'login.pdf' })
		const { response } = await view(pdf, undefined)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
	})
})

describe('My Courses', () => {
	async function load(cookie: string) {
		const response = await callRoute(myCoursesLoader, getRequest('/dashboard/courses', { cookie }))
		return response.json()
	}

	test('lists every enrollment with its status, falling back to Unknown Course', async () => {
		const student = await signedInUser(t.db, { name: 'Dana Student' })
		const named = (await insertCourse(t.db, { title: 'Named course' })).id
		const blank = (await insertCourse(t.db, { title: '   ' })).id
		await insertEnrollment(t.db, { userId: student.id, courseId: named, status: 'active', daysAgo: 3 })
		await insertEnrollment(t.db, { userId: student.id, courseId: blank, status: 'pending', daysAgo: 1 })
		const data = await load(student.cookie)
		expect(data.enrollments).toMatchObject([
			{ courseId: blank, courseTitle: 'Unknown Course', status: 'pending' },
			{ courseId: named, courseTitle: 'Named course', status: 'active' },
		])
		expect(data.waitlist).toEqual([])
	})

	test("otherwise lists the user's waitlist requests, matched by e-mail in any case", async () => {
		const student = await signedInUser(t.db, { email: `wait-${randomUUID()}@example.com`, name: 'Dana Student' })
		await insertContactSubmission(t.db, {
			kind: 'waitlist',
			name: 'Dana',
			email: student.email.toUpperCase(),
			program: 'Spring Cohort',
			message: 'Waitlist request for: Spring Cohort\nPlease keep me posted.',
		})
		await insertContactSubmission(t.db, { kind: 'contact', name: 'Dana', email: student.email, message: 'Not a waitlist request' })
		await insertContactSubmission(t.db, {
			kind: 'waitlist',
			name: 'Else',
			email: 'someone-else@example.com',
			program: 'Spring Cohort',
			message: 'Waitlist request for: Spring Cohort',
		})
		const data = await load(student.cookie)
		expect(data.enrollments).toEqual([])
		expect(data.waitlist).toMatchObject([{ program: 'Spring Cohort', note: 'Please keep me posted.' }])
	})

	test('is empty for a user with neither', async () => {
		const student = await signedInUser(t.db, { name: 'Dana Student' })
		expect(await load(student.cookie)).toEqual({ enrollments: [], waitlist: [], places: [], leaving: null })
	})
})
