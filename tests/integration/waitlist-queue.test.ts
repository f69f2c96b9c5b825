import { runOnce } from 'graphile-worker'
import { describe, expect, test } from 'vitest'
import { TASKS } from '#app/jobs/index.server.ts'
import { updateCourse } from '#app/models/courses/courses-admin.server.ts'
import { removeEnrollment } from '#app/models/enrollment/enrollments-admin.server.ts'
import { SEND_OFFER_EXPIRED_TASK, SEND_SEAT_OFFER_TASK } from '#app/models/enrollment/seat-offers.server.ts'
import { changeEnrollmentStatus } from '#app/models/enrollment/seats.server.ts'
import { declineOffer, joinWaitlist, leaveWaitlist, listPlacesOf, sweepWaitlistOffers } from '#app/models/enrollment/waitlist.server.ts'
import {
	listCourseWaitlist,
	moveWaitlistEntry,
	offerSeatByHand,
	removeWaitlistEntry,
} from '#app/models/enrollment/waitlist-admin.server.ts'
import { fulfil } from '#app/models/payments/payments.server.ts'
import { action as refundAction, loader as refundLoader } from '#app/routes/admin/payment-refund.tsx'
import { action as waitlistAction } from '#app/routes/register/waitlist.tsx'
import { action as placeAction, loader as placeLoader } from '#app/routes/register/waitlist-place.tsx'
import { holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertUser } from '#tests/support/fixtures.ts'
import { mailStartingWith } from '#tests/support/outbox.ts'
import { callRoute, cookiesFrom, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useStripeStandIn } from '#tests/support/stripe-stand-in.ts'
import { claimOutcome, deliverSeatOffers, latestWaitlistToken, outboxLines } from '#tests/support/waitlist.ts'

const t = useTestDatabase()
let sequence = 0

async function fullCourse(capacity: number) {
	const course = await insertCourse(t.db, { capacity })
	const enrollmentIds: number[] = []
	for (let seat = 0; seat < capacity; seat++) {
		const userId = await insertUser(t.db)
		enrollmentIds.push((await insertEnrollment(t.db, { userId, courseId: course.id })).id)
	}
	return { ...course, enrollmentIds }
}

async function join(courseId: number, person: { name: string; email: string }) {
	const course = await t.db.selectFrom('courses').select('title').where('id', '=', courseId).executeTakeFirstOrThrow()
	return joinWaitlist(t.db, { ...person, program: course.title, courseId })
}

/** People join one after another, so that they stand in line in this order. */
async function joinInTurn(courseId: number, ...people: Array<{ name: string; email: string }>) {
	for (const one of people) await join(courseId, one)
}

/** The enrolment of the course's first seat ends, freeing the seat for the line. */
function freeFirstSeat(course: { enrollmentIds: number[] }) {
	return t.db.transaction().execute((trx) => changeEnrollmentStatus(trx, course.enrollmentIds[0]!, 'inactive'))
}

/** The one place of the course's line that holds an offer. */
function offeredEntry(courseId: number) {
	return t.db
		.selectFrom('waitlist_entries')
		.select('id')
		.where('course_id', '=', courseId)
		.where('status', '=', 'offered')
		.executeTakeFirstOrThrow()
}

function person(label: string) {
	sequence += 1
	return { name: `${label} ${sequence}`, email: `${label.toLowerCase()}-${sequence}@example.com` }
}

async function statuses(courseId: number) {
	const rows = await t.db
		.selectFrom('waitlist_entries')
		.select(['email', 'status'])
		.where('course_id', '=', courseId)
		.orderBy('position')
		.execute()
	return rows.map((row) => `${row.email.split('@')[0]}:${row.status}`)
}

function expireOffers(courseId: number) {
	return t.db
		.updateTable('waitlist_entries')
		.set({ offer_expires_at: new Date(Date.now() - 1000) })
		.where('course_id', '=', courseId)
		.where('status', '=', 'offered')
		.execute()
}

function claimAs(userId: string, courseId: number) {
	return claimOutcome(t.db, userId, courseId)
}

describe('the waitlist queue', () => {
	test('joining takes the next place, keeps the inbox entry, mails the position; joining again keeps the place', async () => {
		const course = await fullCourse(1)
		const first = person('First')
		const second = person('Second')
		expect(await join(course.id, first)).toMatchObject({ kind: 'queued', position: 1, alreadyQueued: false })
		expect(await join(course.id, second)).toMatchObject({ kind: 'queued', position: 2, alreadyQueued: false })
		expect(await join(course.id, { ...first, email: first.email.toUpperCase() })).toMatchObject({ position: 1, alreadyQueued: true })
		const inbox = await t.db
			.selectFrom('contact_submissions')
			.select(['email', 'kind', 'program'])
			.where('program', '=', course.title)
			.orderBy('id')
			.execute()
		expect(inbox).toMatchObject([
			{ email: first.email.toUpperCase(), kind: 'waitlist', program: course.title },
			{ email: second.email, kind: 'waitlist', program: course.title },
		])
		// Joining again mails the address that it is in line already (docs/decisions/041).
		expect(await outboxLines(t.db, course.title)).toEqual([
			`${first.email}: You are on the waitlist: ${course.title}`,
			`${second.email}: You are on the waitlist: ${course.title}`,
			`${first.email}: You are already on the waitlist: ${course.title}`,
		])
		const mail = await t.db.selectFrom('email_outbox').select('text_body').where('to_address', '=', second.email).executeTakeFirstOrThrow()
		expect(mail.text_body).toContain('You are number 2 in line')
		expect(mail.text_body).toContain('48 hours')
		expect(await listPlacesOf(t.db, second.email)).toMatchObject([{ courseId: course.id, status: 'waiting', position: 2 }])
	})

	test('no place while a seat is free and nobody waits, nor for someone enrolled', async () => {
		const open = await insertCourse(t.db, { capacity: 3 })
		expect(await join(open.id, person('Early'))).toEqual({ kind: 'seat-free' })
		const course = await fullCourse(1)
		const enrolled = await t.db
			.selectFrom('enrollments')
			.innerJoin('users', 'users.id', 'enrollments.user_id')
			.select('users.email')
			.where('course_id', '=', course.id)
			.executeTakeFirstOrThrow()
		expect(await join(course.id, { name: 'Enrolled', email: enrolled.email })).toEqual({ kind: 'enrolled' })
		const entries = await t.db.selectFrom('waitlist_entries').select('id').where('course_id', 'in', [open.id, course.id]).execute()
		expect(entries).toEqual([])
	})

	test('a freed seat is offered to the first in line at once; the offer takes the seat from everyone else', async () => {
		const course = await fullCourse(2)
		const [a, b] = [person('Ann'), person('Ben')]
		await joinInTurn(course.id, a, b)
		await freeFirstSeat(course)
		expect(await statuses(course.id)).toEqual([`${a.email.split('@')[0]}:offered`, `${b.email.split('@')[0]}:waiting`])
		await deliverSeatOffers(t.url)
		expect((await outboxLines(t.db, course.title)).at(-1)).toBe(`${a.email}: A seat is free for you: ${course.title}`)
		const outsider = await insertUser(t.db)
		expect(await claimAs(outsider, course.id)).toBe('course-full')
		expect(await listPlacesOf(t.db, b.email)).toMatchObject([{ position: 1 }])
	})

	test('every way a seat frees offers it: removal, a hold released, a raised capacity', async () => {
		const course = await fullCourse(1)
		const people = [person('P'), person('Q'), person('R')]
		await joinInTurn(course.id, ...people)
		const admin = await insertUser(t.db, { role: 'admin' })
		await removeEnrollment(t.db, admin, course.enrollmentIds[0]!)
		expect((await statuses(course.id)).map((line) => line.split(':')[1])).toEqual(['offered', 'waiting', 'waiting'])
		await updateCourse(t.db, admin, course.id, {
			title: course.title,
			description: '',
			startDate: null,
			endDate: null,
			capacity: 3,
			registrationFee: 0,
			timeZone: 'America/New_York',
			schedule: null,
			weeksOpenDaysBefore: 7,
			reminderFirstMinutes: 1440,
			reminderSecondMinutes: 60,
			announceWeekOpen: false,
			meetingLink: null,
			outcomes: null,
			durationText: null,
			refundTerms: null,
		})
		expect((await statuses(course.id)).map((line) => line.split(':')[1])).toEqual(['offered', 'offered', 'offered'])
	})

	test('an expired offer goes to the next in line on the sweep; a declined one at once; leaving ends a place', async () => {
		const course = await fullCourse(1)
		const [a, b, c] = [person('Ann'), person('Ben'), person('Cai')]
		await joinInTurn(course.id, a, b, c)
		await freeFirstSeat(course)
		await expireOffers(course.id)
		await sweepWaitlistOffers(t.db)
		expect((await statuses(course.id)).map((line) => line.split(':')[1])).toEqual(['expired', 'offered', 'waiting'])
		const offered = await offeredEntry(course.id)
		expect(await declineOffer(t.db, offered.id)).toBe(true)
		expect(await declineOffer(t.db, offered.id)).toBe(false)
		expect((await statuses(course.id)).map((line) => line.split(':')[1])).toEqual(['expired', 'declined', 'offered'])
		const last = await offeredEntry(course.id)
		expect(await leaveWaitlist(t.db, { entryId: last.id, email: 'someone-else@example.com' })).toBe(false)
		expect(await leaveWaitlist(t.db, { entryId: last.id, email: c.email })).toBe(true)
		const outsider = await insertUser(t.db)
		expect(await claimAs(outsider, course.id)).toBe('enrolled')
	})

	test('an offer that ends before its mail job runs mails nothing', async () => {
		const course = await fullCourse(1)
		const [a, b] = [person('Gone'), person('Next')]
		await joinInTurn(course.id, a, b)
		await freeFirstSeat(course)
		const offered = await offeredEntry(course.id)
		expect(await declineOffer(t.db, offered.id)).toBe(true)
		await deliverSeatOffers(t.url)
		expect(await outboxLines(t.db, course.title)).toEqual([
			`${a.email}: You are on the waitlist: ${course.title}`,
			`${b.email}: You are on the waitlist: ${course.title}`,
			`${b.email}: A seat is free for you: ${course.title}`,
		])
	})

	test('admins reorder, remove and offer by hand (one more seat when none is free), each audited', async () => {
		const course = await fullCourse(1)
		const admin = await insertUser(t.db, { role: 'admin' })
		const people = [person('A'), person('B'), person('C')]
		await joinInTurn(course.id, ...people)
		const queue = await listCourseWaitlist(t.db, course.id)
		const [first, second, third] = queue!.live
		expect(await moveWaitlistEntry(t.db, admin, { courseId: course.id, entryId: third!.id, direction: 'up' })).toBe(true)
		expect(await moveWaitlistEntry(t.db, admin, { courseId: course.id, entryId: first!.id, direction: 'up' })).toBe(false)
		expect((await listCourseWaitlist(t.db, course.id))!.live.map((entry) => [entry.name, entry.position])).toEqual([
			[first!.name, 1],
			[third!.name, 2],
			[second!.name, 3],
		])
		expect(await removeWaitlistEntry(t.db, admin, { courseId: course.id, entryId: first!.id })).toBe(true)
		expect(await offerSeatByHand(t.db, admin, { courseId: course.id, entryId: second!.id })).toEqual({
			kind: 'offered',
			capacityRaisedTo: 2,
		})
		const after = await listCourseWaitlist(t.db, course.id)
		expect(after!.course).toMatchObject({ capacity: 2, taken: 2 })
		expect(after!.live.map((entry) => [entry.name, entry.status, entry.position])).toEqual([
			[third!.name, 'waiting', 1],
			[second!.name, 'offered', null],
		])
		const audit = await t.db.selectFrom('audit_log').select('action').where('action', 'like', 'waitlist.%').orderBy('id').execute()
		expect(audit.map((row) => row.action)).toEqual(['waitlist.move', 'waitlist.remove', 'waitlist.offer'])
	})

	test('an offer to a visitor without an account: the link makes the account and enrols in a free course', async () => {
		const course = await fullCourse(1)
		const visitor = person('Visitor')
		await join(course.id, visitor)
		await freeFirstSeat(course)
		await deliverSeatOffers(t.url)
		const token = await latestWaitlistToken(t.db, visitor.email)
		const page = (await (await callRoute(placeLoader, getRequest(`/waitlist/places/${token}`), { token })).json()) as {
			place: { status: string }
			viewer: { hasAccount: boolean }
		}
		expect(page).toMatchObject({ place: { status: 'offered' }, viewer: { hasAccount: false } })
		const tooShort = await callRoute(
			placeAction,
			formRequest(`/waitlist/places/${token}`, { intent: 'claim', agreeToTerms: 'on', password: 'short' }),
			{ token },
		)
		expect(tooShort.status).toBe(400)
		const claimed = await callRoute(
			placeAction,
			formRequest(`/waitlist/places/${token}`, { intent: 'claim', agreeToTerms: 'on', password: 'a long enough password' }),
			{ token },
		)
		expect(claimed.headers.get('Location')).toBe('/dashboard')
		expect(cookiesFrom(claimed)).toContain('=')
		const user = await t.db
			.selectFrom('users')
			.select(['id', 'email_confirmed_at'])
			.where('email', '=', visitor.email)
			.executeTakeFirstOrThrow()
		expect(user.email_confirmed_at).not.toBeNull()
		const enrolment = await t.db.selectFrom('enrollments').select('status').where('user_id', '=', user.id).executeTakeFirstOrThrow()
		expect(enrolment.status).toBe('active')
		expect(await statuses(course.id)).toEqual([`${visitor.email.split('@')[0]}:enrolled`])
	})
})

describe('the scripted scenario: a 2-seat course, 3 waiting, a seat refunded in full, an offer expired, the next one claimed and paid', () => {
	const { stripe, payments } = useStripeStandIn({ installed: true })

	/** A student who bought one of the course's seats through Stripe Checkout, fulfilled. */
	async function paidSeat(courseId: number, label: string) {
		const user = await signedInUser(t.db, { name: label, email: `${label.toLowerCase()}-${++sequence}@example.com` })
		const { sessionId } = await holdAndOpenCheckout(t.db, payments, { user, courseId })
		stripe.pay(sessionId)
		expect(await fulfil(t.db, payments, sessionId)).toMatchObject({ status: 'enrolled', userId: user.id })
		return user
	}

	test('full again, the third still waiting, every e-mail in the outbox in order', async () => {
		const course = await insertCourse(t.db, { capacity: 2, registration_fee: 250000 })
		const dee = await paidSeat(course.id, 'Dee')
		const eve = await paidSeat(course.id, 'Eve')
		const admin = await signedInUser(t.db, { role: 'admin' })
		const waiting = []
		for (const label of ['Ann', 'Ben', 'Cai']) {
			const user = await signedInUser(t.db, { name: label, email: `${label.toLowerCase()}-${++sequence}@example.com` })
			const response = await callRoute(
				waitlistAction,
				formRequest(
					'/waitlist',
					{ name: label, email: user.email, courseId: String(course.id), returnTo: `/courses/${course.id}` },
					{
						cookie: user.cookie,
						ip: `198.51.100.${sequence}`,
					},
				),
			)
			expect(response.headers.get('Location')).toBe('/dashboard')
			waiting.push(user)
		}
		const [ann, ben, cai] = waiting as [(typeof waiting)[0], (typeof waiting)[0], (typeof waiting)[0]]

		// The admin refunds Dee in full from the refund dialog: Stripe's Refund API, then her seat frees.
		const payment = await t.db
			.selectFrom('registration_payments')
			.select(['id', 'payment_intent_id'])
			.where('user_id', '=', dee.id)
			.executeTakeFirstOrThrow()
		const refundPath = `/dashboard/admin/enrollments/payments/${payment.id}/refund`
		const dialog = await callRoute(refundLoader, getRequest(refundPath, { cookie: admin.cookie }), { paymentId: String(payment.id) })
		const { requestKey } = (await dialog.json()) as { requestKey: string }
		const refunded = await callRoute(
			refundAction,
			formRequest(
				refundPath,
				{ intent: 'confirm', requestKey, amount: '2500.00', reason: 'requested_by_customer', note: 'Cannot attend', afterRefund: 'keep' },
				{ cookie: admin.cookie },
			),
			{ paymentId: String(payment.id) },
		)
		expect(refunded.status).toBe(302)
		expect(await toastOf(refunded)).toMatchObject({ title: 'Refund issued' })
		const refundCalls = stripe.requests.filter((call) => call.path === '/v1/refunds' && call.method === 'POST')
		const refund = await t.db
			.selectFrom('payment_refunds')
			.select(['id', 'status'])
			.where('payment_id', '=', payment.id)
			.executeTakeFirstOrThrow()
		expect(refund.status).toBe('succeeded')
		expect(refundCalls).toHaveLength(1)
		expect(refundCalls[0]!.body).toMatchObject({ payment_intent: payment.payment_intent_id, amount: '250000' })
		expect(refundCalls[0]!.headers['idempotency-key']).toBe(`payment-${payment.id}-refund-${refund.id}`)
		expect(
			await t.db.selectFrom('enrollments').select('status').where('user_id', '=', dee.id).where('course_id', '=', course.id).execute(),
		).toEqual([{ status: 'inactive' }])
		expect(await listPlacesOf(t.db, ann.email)).toMatchObject([{ status: 'offered' }])
		await deliverSeatOffers(t.url)

		// Ann lets it expire; the sweep gives it to Ben.
		await expireOffers(course.id)
		await sweepWaitlistOffers(t.db)
		await deliverSeatOffers(t.url)
		const token = await latestWaitlistToken(t.db, ben.email)
		const claimed = await callRoute(
			placeAction,
			formRequest(`/waitlist/places/${token}`, { intent: 'claim', agreeToTerms: 'on' }, { cookie: ben.cookie }),
			{ token },
		)
		expect(claimed.status).toBe(303)
		const sessionId = claimed.headers.get('Location')!.split('/').at(-1)!
		expect(stripe.sessions.get(sessionId)?.amount_total).toBe(250000)
		stripe.pay(sessionId)
		expect(await fulfil(t.db, payments, sessionId)).toMatchObject({ status: 'enrolled', userId: ben.id })

		const queue = await listCourseWaitlist(t.db, course.id)
		expect(queue!.course).toMatchObject({ capacity: 2, taken: 2 })
		expect(queue!.live.map((entry) => [entry.email, entry.status, entry.position])).toEqual([[cai.email, 'waiting', 1]])
		expect(queue!.ended.map((entry) => [entry.email, entry.status])).toEqual(
			expect.arrayContaining([
				[ann.email, 'expired'],
				[ben.email, 'enrolled'],
			]),
		)
		expect(await outboxLines(t.db, course.title)).toEqual([
			`${dee.email}: Enrollment confirmed: ${course.title}`,
			`${eve.email}: Enrollment confirmed: ${course.title}`,
			`${ann.email}: You are on the waitlist: ${course.title}`,
			`${ben.email}: You are on the waitlist: ${course.title}`,
			`${cai.email}: You are on the waitlist: ${course.title}`,
			`${dee.email}: Refund issued: ${course.title}`,
			`${ann.email}: A seat is free for you: ${course.title}`,
			`${ben.email}: A seat is free for you: ${course.title}`,
			`${ben.email}: Enrollment confirmed: ${course.title}`,
		])
	})
})

describe('the notices of an offer (issue 39 point 6)', () => {
	test('an offer that runs out tells its person the seat went on; deadlines read in their zone, else the course’s', async () => {
		const course = await fullCourse(1)
		await t.db.updateTable('courses').set({ time_zone: 'America/Chicago' }).where('id', '=', course.id).execute()
		const [ann, ben] = [person('Ann'), person('Ben')]
		const benId = await insertUser(t.db, { email: ben.email, name: ben.name })
		await t.db.updateTable('profiles').set({ time_zone: 'Europe/Berlin' }).where('id', '=', benId).execute()
		await joinInTurn(course.id, ann, ben)
		await freeFirstSeat(course)
		await deliverSeatOffers(t.url)
		const annOffer = await mailStartingWith(t.db, ann.email, 'A seat is free')
		expect(annOffer.text_body).toMatch(/We hold it for you until [A-Z][a-z]{2} \d+ [A-Z][a-z]{2}, \d+:\d\d [ap]m C[SD]T\./)

		await expireOffers(course.id)
		await sweepWaitlistOffers(t.db)
		await runOnce({
			connectionString: t.url,
			concurrency: 1,
			noHandleSignals: true,
			taskList: { [SEND_OFFER_EXPIRED_TASK]: TASKS[SEND_OFFER_EXPIRED_TASK]!, [SEND_SEAT_OFFER_TASK]: TASKS[SEND_SEAT_OFFER_TASK]! },
		})
		expect((await outboxLines(t.db, course.title)).slice(-2)).toEqual([
			`${ann.email}: Your held seat has been released: ${course.title}`,
			`${ben.email}: A seat is free for you: ${course.title}`,
		])
		const released = await mailStartingWith(t.db, ann.email, 'Your held seat')
		expect(released.text_body).toMatch(/We held a seat in .+ for you until .+ C[SD]T\. It was not claimed in time/)
		expect(released.text_body).toContain(`/courses/${course.id}`)
		const benOffer = await mailStartingWith(t.db, ben.email, 'A seat is free')
		expect(benOffer.text_body).toMatch(/We hold it for you until .+ CES?T\./)
	})
})
