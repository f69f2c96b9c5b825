import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { action as waitlistAction, loader as waitlistLoader } from '#app/routes/register/waitlist.tsx'
import { HONEYPOT_REFUSAL } from '#app/utils/honeypot.ts'
import { RATE_LIMITS } from '#app/utils/rate-limit.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse } from '#tests/support/fixtures.ts'
import { formRequest, getRequest, sessionCookieFor, settle, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()

let sequence = 0
function nextAddress() {
	sequence += 1
	return `203.0.113.${sequence}`
}

function join(fields: Record<string, string>, init: { cookie?: string; ip?: string } = {}) {
	return settle(() =>
		waitlistAction({
			request: formRequest('/waitlist', fields, { ip: nextAddress(), ...init }),
			params: {},
			context: new RouterContextProvider(),
		} as never),
	)
}

async function waitlistRows(email: string) {
	return t.db.selectFrom('contact_submissions').selectAll().where('kind', '=', 'waitlist').where('email', 'ilike', email).execute()
}

describe('joining the waitlist', () => {
	test('the spec messages for a short name and a bad e-mail; nothing is stored', async () => {
		const response = await join({ name: 'W', email: 'not-an-email', returnTo: '/courses' })
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error).toEqual({
			name: ['Name must be at least 2 characters.'],
			email: ['Please enter a valid email address.'],
		})
		expect(await t.db.selectFrom('contact_submissions').select('id').execute()).toEqual([])
	})

	test('a request for a course is stored with the course as program, the toast names the course, and the visitor goes back', async () => {
		const course = await insertCourse(t.db, { title: 'Flip Fundamentals' })
		const response = await join({
			name: 'Wendy Waiting',
			email: 'wendy@example.com',
			phone: '555-0100',
			message: 'Please keep me posted.',
			courseId: String(course.id),
			returnTo: `/courses/${course.id}`,
		})
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(`/courses/${course.id}`)
		expect(await toastOf(response)).toMatchObject({
			type: 'success',
			title: 'Waitlist Joined',
			description: "You've been added to the waitlist for Flip Fundamentals. We'll email you when a seat opens.",
		})
		expect(await waitlistRows('wendy@example.com')).toMatchObject([
			{
				kind: 'waitlist',
				name: 'Wendy Waiting',
				phone: '555-0100',
				program: 'Flip Fundamentals',
				message: 'Waitlist request for: Flip Fundamentals\nPlease keep me posted.',
				read: false,
			},
		])
	})

	test('without a course the program is the default one; a second request for the same e-mail and program replaces the first', async () => {
		await t.db.insertInto('courses').values({ title: 'Some Course' }).execute()
		await join({ name: 'Dana Double', email: 'dana@example.com' })
		await t.db.updateTable('contact_submissions').set({ read: true }).execute()
		const again = await join({ name: 'Dana Double', email: 'DANA@example.com', message: 'Second try' })
		expect(again.status).toBe(302)
		// Courses exist: no promise of a launch (issue 39 point 6).
		expect((await toastOf(again))?.description).toBe("You've been added to the waitlist! We'll email you when a new program opens.")
		const rows = await waitlistRows('dana@example.com')
		expect(rows).toHaveLength(1)
		expect(rows[0]).toMatchObject({
			program: 'Real Estate Investment Program',
			message: 'Waitlist request for: Real Estate Investment Program\nSecond try',
			read: false,
		})
	})

	test('with no message of their own the request still ends with the newline of the spec', async () => {
		await join({ name: 'Nia Newline', email: 'nia@example.com', message: '   ' })
		const [row] = await waitlistRows('nia@example.com')
		expect(row!.message).toBe('Waitlist request for: Real Estate Investment Program\n')
	})

	test('a signed-in user lands on the dashboard', async () => {
		const user = await createUser(t.db, { email: 'signed@example.com', name: 'Signed In', passwordHash: 'x', confirmed: true })
		const response = await join(
			{ name: 'Signed In', email: 'signed@example.com', returnTo: '/courses' },
			{ cookie: await sessionCookieFor(user.id) },
		)
		expect(response.headers.get('Location')).toBe('/dashboard')
	})

	test('a return path off the site is ignored', async () => {
		const response = await join({ name: 'Olga Offsite', email: 'olga@example.com', returnTo: '//evil.example/phish' })
		expect(response.headers.get('Location')).toBe('/courses')
	})

	test('a filled honeypot is refused with a visible message, keeps what was typed, and nothing is stored', async () => {
		const response = await join({ name: 'Bot Bot', email: 'bot@example.com', website: 'https://spam.example' })
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }
		expect(body.result.error).toEqual({ '': [HONEYPOT_REFUSAL] })
		expect(body.result.initialValue).toMatchObject({ name: 'Bot Bot', email: 'bot@example.com' })
		expect(await waitlistRows('bot@example.com')).toEqual([])
	})

	test('requests are rate limited per client address with 429', async () => {
		const ip = '192.0.2.200'
		for (let index = 0; index < RATE_LIMITS.waitlist.points; index++) {
			expect((await join({ name: 'Rate Limited', email: `rate-${index}@example.com` }, { ip })).status).toBe(302)
		}
		const refused = await join({ name: 'Rate Limited', email: 'rate-over@example.com' }, { ip })
		expect(refused.status).toBe(429)
		expect(await waitlistRows('rate-over@example.com')).toEqual([])
	})

	test('the page form knows its course and keeps only same-site return paths', async () => {
		const course = await insertCourse(t.db, { title: 'Rental Basics' })
		const page = await settle(() =>
			waitlistLoader({
				request: getRequest(`/waitlist?course=${course.id}&returnTo=https://evil.example`),
				params: {},
				context: new RouterContextProvider(),
			} as never),
		)
		expect(await page.json()).toEqual({ course: { id: course.id, title: 'Rental Basics' }, returnTo: '/courses' })
	})
})
