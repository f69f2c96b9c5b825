/**
 * A place in a waitlist belongs to an e-mail address (docs/decisions/041): a signed-in user joins
 * for their own account's address, whatever the form says; an offer is claimed only by an account
 * that confirmed the place's address; and the join answers a stranger the same for every address,
 * what applies to the address going to the address itself by e-mail.
 */
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { changeEnrollmentStatus } from '#app/models/enrollment/seats.server.ts'
import { action as waitlistAction } from '#app/routes/register/waitlist.tsx'
import { action as placeAction } from '#app/routes/register/waitlist-place.tsx'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertUser } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, sessionCookieFor, settle, signedInUser, toastOf } from '#tests/support/requests.ts'
import { claimOutcome, deliverSeatOffers, latestWaitlistToken } from '#tests/support/waitlist.ts'

const t = useTestDatabase()
let sequence = 0

async function fullCourse() {
	const course = await insertCourse(t.db, { capacity: 1, registration_fee: 250_000 })
	const occupant = await insertUser(t.db, { email: `occupant-${++sequence}@example.com` })
	const enrollment = await insertEnrollment(t.db, { userId: occupant, courseId: course.id })
	return { ...course, occupantEmail: `occupant-${sequence}@example.com`, enrollmentId: enrollment.id }
}

function join(courseId: number, fields: { name?: string; email: string }, cookie?: string) {
	sequence += 1
	return settle(() =>
		waitlistAction({
			request: formRequest(
				'/waitlist',
				{ name: fields.name ?? 'Wanda Waiting', email: fields.email, courseId: String(courseId), returnTo: `/courses/${courseId}` },
				{ cookie, ip: `198.18.${Math.floor(sequence / 200)}.${sequence % 200}` },
			),
			params: {},
			context: new RouterContextProvider(),
		} as never),
	)
}

async function entries(courseId: number) {
	return t.db
		.selectFrom('waitlist_entries')
		.select(['email', 'user_id', 'status'])
		.where('course_id', '=', courseId)
		.orderBy('position')
		.execute()
}

async function mailsTo(email: string) {
	return t.db.selectFrom('email_outbox').select(['subject', 'text_body']).where('to_address', '=', email).orderBy('id').execute()
}

/** Frees the course's one seat: it goes to the first in line as an offer. */
async function freeTheSeat(course: { id: number }) {
	const enrollment = await t.db.selectFrom('enrollments').select('id').where('course_id', '=', course.id).executeTakeFirstOrThrow()
	await t.db.transaction().execute((trx) => changeEnrollmentStatus(trx, enrollment.id, 'inactive'))
}

function claimAs(userId: string, courseId: number) {
	return claimOutcome(t.db, userId, courseId)
}

describe('a signed-in user joins for their own address', () => {
	test("other people's addresses typed into the form give them no place: the place is the account's", async () => {
		const course = await fullCourse()
		const student = await signedInUser(t.db, { email: `signed-in-${++sequence}@example.com` })
		for (const other of ['victim-one@example.com', 'victim-two@example.com']) {
			const response = await join(course.id, { email: other }, student.cookie)
			expect(response.status).toBe(302)
		}
		expect(await entries(course.id)).toEqual([{ email: student.email, user_id: student.id, status: 'waiting' }])
		expect(await mailsTo('victim-one@example.com')).toEqual([])
		expect(await mailsTo('victim-two@example.com')).toEqual([])
		const inbox = await t.db.selectFrom('contact_submissions').select('email').where('program', '=', course.title).execute()
		expect(inbox).toEqual([{ email: student.email }])
	})
})

describe("an offer goes to the owner of the place's address", () => {
	test('an account that did not confirm the address, or another account the place was once tied to, cannot take the seat; the confirmed owner can', async () => {
		const course = await fullCourse()
		const address = `owner-${++sequence}@example.com`
		expect((await join(course.id, { email: address })).status).toBe(302)
		// A place tied to someone else's account, as joins signed in stored them before: it gives that account nothing.
		const intruder = await insertUser(t.db)
		await t.db.updateTable('waitlist_entries').set({ user_id: intruder }).where('course_id', '=', course.id).execute()
		await freeTheSeat(course)
		expect(await entries(course.id)).toMatchObject([{ email: address, status: 'offered' }])
		expect(await claimAs(intruder, course.id)).toBe('course-full')
		const unconfirmed = await insertUser(t.db, { email: address, confirmed: false })
		expect(await claimAs(unconfirmed, course.id)).toBe('course-full')
		await t.db.updateTable('users').set({ email_confirmed_at: new Date() }).where('id', '=', unconfirmed).execute()
		expect(await claimAs(unconfirmed, course.id)).toBe('held')
		expect(await entries(course.id)).toMatchObject([{ email: address, user_id: unconfirmed, status: 'claimed' }])
	})
	test('the offer link proves the address: an account signed in without having confirmed it takes the seat through the link', async () => {
		const course = await fullCourse()
		const address = `linked-${++sequence}@example.com`
		await join(course.id, { email: address })
		const account = await insertUser(t.db, { email: address, confirmed: false })
		await freeTheSeat(course)
		await deliverSeatOffers(t.url)
		const token = await latestWaitlistToken(t.db, address)
		const claimed = await callRoute(
			placeAction,
			formRequest(`/waitlist/places/${token}`, { intent: 'claim', agreeToTerms: 'on' }, { cookie: await sessionCookieFor(account) }),
			{ token },
		)
		expect(claimed.status).toBe(303)
		const user = await t.db.selectFrom('users').select('email_confirmed_at').where('id', '=', account).executeTakeFirstOrThrow()
		expect(user.email_confirmed_at).not.toBeNull()
		expect(await entries(course.id)).toMatchObject([{ email: address, user_id: account, status: 'claimed' }])
	})
})

describe('the join answers a stranger the same for every address', () => {
	test('an enrolled address, the same in capitals, an address in line and a new one: one answer; each address is told what applies by e-mail', async () => {
		const course = await fullCourse()
		const waiting = `waiting-${++sequence}@example.com`
		await join(course.id, { email: waiting })
		const newcomer = `newcomer-${++sequence}@example.com`
		const addresses = [course.occupantEmail, course.occupantEmail.toUpperCase(), waiting, newcomer]
		const answers: { status: number; location: string | null; toast: object }[] = []
		for (const email of addresses) {
			const response = await join(course.id, { email })
			// Every toast has an id of its own; what it says is the answer.
			const { id: _id, ...toast } = (await toastOf(response)) ?? { id: null }
			answers.push({ status: response.status, location: response.headers.get('Location'), toast })
		}
		expect(answers.every((answer) => JSON.stringify(answer) === JSON.stringify(answers[0]))).toBe(true)
		expect(answers[0]).toMatchObject({ status: 302, location: `/courses/${course.id}`, toast: { title: 'Waitlist Joined' } })

		const enrolledMails = await mailsTo(course.occupantEmail)
		expect(enrolledMails).toHaveLength(1)
		expect(enrolledMails[0]!.subject).toBe(`You are already enrolled: ${course.title}`)
		expect(enrolledMails[0]!.text_body).not.toContain('/waitlist/places/')
		const waitingMails = await mailsTo(waiting)
		expect(waitingMails.map((mail) => mail.subject)).toEqual([
			`You are on the waitlist: ${course.title}`,
			`You are already on the waitlist: ${course.title}`,
		])
		expect(waitingMails[1]!.text_body).toContain('number 1 in line')
		expect((await mailsTo(newcomer)).map((mail) => mail.subject)).toEqual([`You are on the waitlist: ${course.title}`])
		expect((await entries(course.id)).map((entry) => entry.email)).toEqual([waiting, newcomer])
	})

	test('the notices to an address already enrolled or in line go once a day per course, however often a stranger asks', async () => {
		const course = await fullCourse()
		for (let attempt = 0; attempt < 4; attempt++) await join(course.id, { email: course.occupantEmail })
		expect(await mailsTo(course.occupantEmail)).toHaveLength(1)
	})
})
