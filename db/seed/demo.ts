/**
 * Demo data for a first look at the app: accounts of every role, a free, a paid and a
 * full course, weekly materials of every viewer kind (PDF, image, video, YouTube link,
 * office files) stored through the FileStorage, a weekly live-session schedule (past and upcoming
 * sessions, a week not open yet), messages, assignments, the paid cohort's community and contact
 * submissions. Runs only on a database without users, so it never touches real data.
 */
import { type Kysely, sql, type Transaction } from 'kysely'
import { completeEndedCourse } from '#app/models/enrollment/completion.server.ts'
import { syncCourseSessions } from '#app/models/sessions/session-schedule.server.ts'
import { attachmentKey, materialKey, submissionKey } from '#app/services/storage/keys.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import type { Database, MaterialCategory, MaterialType, NewCourse, Role } from '#db/types.ts'
import { sampleBudgetXlsx, sampleChartPng, sampleClassRecording, sampleDocx, samplePdf } from './sample-files.ts'

export const DEMO_PASSWORD = 'demo-password-123'

export const DEMO_ACCOUNTS = {
	admin: { name: 'Alex Admin', email: 'admin@example.com', role: 'admin' },
	instructor: { name: 'Ivy Instructor', email: 'instructor@example.com', role: 'instructor' },
	sam: { name: 'Sam Student', email: 'sam@example.com', role: 'student' },
	sofia: { name: 'Sofia Student', email: 'sofia@example.com', role: 'student' },
	omar: { name: 'Omar Student', email: 'omar@example.com', role: 'student' },
} as const satisfies Record<string, { name: string; email: string; role: Role }>

type AccountName = keyof typeof DEMO_ACCOUNTS

const PDF = 'application/pdf'
const PNG = 'image/png'
const MP4 = 'video/mp4'
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

type StoredFile = { fileName: string; contentType: string; bytes: Uint8Array }
type ItemSeed = { title: string; category: MaterialCategory; type: MaterialType; file: StoredFile } | { title: string; youtubeUrl: string }
type WeekSeed = { week: number; topic: string; zoomLink: string | null; items: ItemSeed[] }

export async function hasUsers(db: Kysely<Database>) {
	return Boolean(await db.selectFrom('users').select('id').limit(1).executeTakeFirst())
}

/** Whether the demo logins exist, so a start-up banner can offer them. */
export async function hasDemoAccounts(db: Kysely<Database>) {
	const admin = await db.selectFrom('users').select('id').where('email', '=', DEMO_ACCOUNTS.admin.email).executeTakeFirst()
	return Boolean(admin)
}

/**
 * Seeds the demo data when the database has no users; otherwise does nothing.
 * Rows are written in one transaction; if it fails, the files it stored are removed again.
 */
export async function seedDemoData(db: Kysely<Database>, storage: FileStorage, today = new Date()) {
	if (await hasUsers(db)) return { seeded: false }
	const files = await makeSampleFiles()
	const passwordHash = await hashPassword(DEMO_PASSWORD)
	const storedKeys: string[] = []
	const store = async (key: string, file: StoredFile) => {
		storedKeys.push(key)
		const { size } = await storage.put(key, file.bytes, { contentType: file.contentType })
		return size
	}
	try {
		const seeded = await db.transaction().execute(async (trx) => {
			// A second seed started at the same moment waits here, then finds the users and stops.
			await sql`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`.execute(trx)
			if (await hasUsers(trx)) return false
			await insertDemoData(trx, { files, passwordHash, today, store })
			return true
		})
		return { seeded }
	} catch (error) {
		await storage.deleteMany(storedKeys).catch(() => {})
		throw error
	}
}

type SampleFiles = Awaited<ReturnType<typeof makeSampleFiles>>

async function makeSampleFiles() {
	const recording = await sampleClassRecording()
	return {
		dealAnalysisGuide: {
			fileName: 'deal-analysis-guide.pdf',
			contentType: PDF,
			bytes: await samplePdf(dealAnalysisGuide),
		},
		investorRoadmap: {
			fileName: 'first-rental-roadmap.pdf',
			contentType: PDF,
			bytes: await samplePdf(investorRoadmap),
		},
		rentComparables: {
			fileName: 'rent-comparables.png',
			contentType: PNG,
			bytes: sampleChartPng([1350, 1425, 1290, 1510, 1475, 1390]),
		},
		marketRents: {
			fileName: 'median-rent-by-neighborhood.png',
			contentType: PNG,
			bytes: sampleChartPng([1180, 1320, 1540, 1260, 1710], { bar: [37, 99, 235] }),
		},
		rehabBudget: {
			fileName: 'rehab-budget-template.xlsx',
			contentType: XLSX,
			bytes: sampleBudgetXlsx('Rehab Budget', rehabBudgetLines),
		},
		tenantChecklist: {
			fileName: 'tenant-screening-checklist.docx',
			contentType: DOCX,
			bytes: sampleDocx(tenantScreeningChecklist),
		},
		offerChecklist: {
			fileName: 'first-offer-checklist.docx',
			contentType: DOCX,
			bytes: sampleDocx(firstOfferChecklist),
		},
		weekOneRecording: { fileName: 'week-1-class-recording.mp4', contentType: MP4, bytes: recording },
		weekTwoRecording: { fileName: 'week-2-class-recording.mp4', contentType: MP4, bytes: recording },
		sofiaBudget: {
			fileName: 'sofia-rehab-budget.xlsx',
			contentType: XLSX,
			bytes: sampleBudgetXlsx('Oak Street Rehab', sofiaBudgetLines),
		},
	} satisfies Record<string, StoredFile>
}

type SeedContext = {
	files: SampleFiles
	passwordHash: string
	today: Date
	store: (key: string, file: StoredFile) => Promise<number>
}

async function insertDemoData(trx: Transaction<Database>, context: SeedContext) {
	const { files, today } = context
	const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000)
	const date = (offset: number) => day(offset).toISOString().slice(0, 10)

	const users = await insertAccounts(trx, context.passwordHash, day(-60))

	const freeCourse = await insertCourse(trx, {
		title: 'Real Estate Investing Foundations',
		description:
			'A free four-week introduction for first-time investors: why rentals build wealth, how to read a local market, ' +
			'the numbers behind a good deal and how to make your first offer with confidence. One live online session a week.',
		start_date: date(-14),
		end_date: date(13),
		capacity: 30,
		registration_fee: 0,
		outcomes: [
			'Why rentals build wealth: cash flow, equity and appreciation',
			'Reading a local market: rents, vacancies and jobs',
			'The numbers behind a good deal: the 1% rule and cash-on-cash return',
			'Making your first offer with confidence',
		].join('\n'),
		duration_text: '4 weeks',
	})
	const paidCourse = await insertCourse(trx, {
		title: 'BRRRR Mentorship: 8-Week Small-Group Program',
		description:
			'An 8-week small-group mentorship on the buy, rehab, rent, refinance, repeat method. Analyse real deals, plan and ' +
			'budget a rehab, screen tenants and prepare a cash-out refinance, with weekly one-hour online sessions and ' +
			'feedback on your own property.',
		start_date: date(-14),
		end_date: date(41),
		capacity: 10,
		registration_fee: 250_000,
		outcomes: [
			'Buying right: find and analyse distressed properties',
			'Rehab planning: scope, budget and manage contractors',
			'Renting: screen tenants and set market rents',
			'Refinancing: prepare a cash-out refinance with your lender',
			'Repeating: build the next deal from the first one',
		].join('\n'),
		refund_terms:
			'A full refund is given on a written request before the second live session; after that, half the fee is refunded until the fourth session, and nothing after it.',
	})
	// The paid course meets weekly at 7 pm New York time from its start date: two sessions are past,
	// one is this week, and week 4 (three days' opening notice) is still locked.
	await trx
		.updateTable('courses')
		.set({
			time_zone: 'America/New_York',
			schedule_weekday: isoWeekday(date(-14)),
			schedule_start_time: '19:00',
			schedule_minutes: 60,
			weeks_open_days_before: 3,
		})
		.where('id', '=', paidCourse.id)
		.execute()
	await syncCourseSessions(trx, paidCourse.id, today)
	const fullCourse = await insertCourse(trx, {
		title: 'Rental Property Cash Flow Intensive',
		description:
			'A hands-on intensive for investors who already own a rental: raise rents to market, cut operating costs, plan ' +
			'capital expenses and build a management system that keeps your units full. Limited to two participants.',
		start_date: date(21),
		end_date: date(48),
		capacity: 2,
		registration_fee: 150_000,
		outcomes: [
			'Raise rents to market',
			'Cut operating costs',
			'Plan capital expenses',
			'Build a management system that keeps units full',
		].join('\n'),
		duration_text: '4 weeks',
	})

	const enroll = async (account: AccountName, courseId: number, daysAgo: number) => {
		const when = day(-daysAgo)
		const row = await trx
			.insertInto('enrollments')
			.values({
				user_id: users[account],
				course_id: courseId,
				status: 'active',
				enrollment_date: when,
				created_at: when,
				updated_at: when,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		return row.id
	}
	/** A finished test checkout; `paid` is what it charged when not the course's fee (a code's discount, a plan's first payment). */
	const recordPayment = async (
		account: AccountName,
		course: CourseRow,
		enrollmentId: number,
		daysAgo: number,
		paid: { amountCents: number; discountCents?: number; promotionCode?: string } = { amountCents: course.registration_fee },
	) => {
		const when = day(-daysAgo)
		return trx
			.insertInto('registration_payments')
			.values({
				checkout_session_id: `cs_test_demo_${account}_${course.id}`,
				provider: 'test',
				user_id: users[account],
				course_id: course.id,
				course_title: course.title,
				customer_email: DEMO_ACCOUNTS[account].email,
				amount_cents: paid.amountCents,
				discount_cents: paid.discountCents ?? 0,
				promotion_code: paid.promotionCode ?? null,
				status: 'paid',
				enrollment_id: enrollmentId,
				created_at: when,
				updated_at: when,
				fulfilled_at: when,
			})
			.returning(['id', 'checkout_session_id'])
			.executeTakeFirstOrThrow()
	}
	await enroll('sam', freeCourse.id, 20)
	// A course that has ended, with its weekly live sessions and who attended them. The end-of-course
	// job applied its rule (75 % attendance, docs/decisions/052): Sam met it, so he is completed with
	// his certificate on his dashboard and its public page; Omar came to two of six and stays active
	// for the admin to decide.
	const finishedCourse = await insertCourse(trx, {
		title: 'Wholesaling Essentials',
		description: 'A six-week course on finding motivated sellers, assigning contracts and building a buyers list.',
		start_date: date(-69),
		end_date: date(-28),
		capacity: 10,
		registration_fee: 0,
		duration_text: '6 weeks',
	})
	await trx
		.updateTable('courses')
		.set({
			time_zone: 'America/New_York',
			schedule_weekday: isoWeekday(date(-69)),
			schedule_start_time: '18:00',
			schedule_minutes: 90,
		})
		.where('id', '=', finishedCourse.id)
		.execute()
	await syncCourseSessions(trx, finishedCourse.id, day(-80))
	const samFinished = await enroll('sam', finishedCourse.id, 80)
	await enroll('omar', finishedCourse.id, 75)
	await insertFinishedAttendance(trx, finishedCourse.id, { sam: users.sam, omar: users.omar }, users.admin)
	const completion = await completeEndedCourse(trx, finishedCourse.id, day(-26))
	if (!completion?.completed.includes(samFinished)) throw new Error('The demo course should have completed Sam')
	await recordPayment('sam', paidCourse, await enroll('sam', paidCourse.id, 25), 25)
	// Sofia pays the mentorship in three monthly instalments (docs/decisions/059): the first at the checkout.
	const sofiaEnrolment = await enroll('sofia', paidCourse.id, 22)
	const sofiaPayment = await recordPayment('sofia', paidCourse, sofiaEnrolment, 22, { amountCents: 83_334 })
	await insertDemoPlan(trx, {
		// Written with its checkout session just above.
		checkoutSessionId: sofiaPayment.checkout_session_id!,
		userId: users.sofia,
		courseId: paidCourse.id,
		enrollmentId: sofiaEnrolment,
		payments: [
			{ dueOn: date(-22), amountCents: 83_334, paidAt: day(-22) },
			{ dueOn: date(8), amountCents: 83_333, paidAt: null },
			{ dueOn: date(38), amountCents: 83_333, paidAt: null },
		],
	})
	await recordPayment('sofia', fullCourse, await enroll('sofia', fullCourse.id, 10), 10)
	await recordPayment('omar', fullCourse, await enroll('omar', fullCourse.id, 8), 8)

	const zoom = (meetingId: string) => `https://zoom.us/j/${meetingId}`
	const paidWeeks = await insertWeeks(trx, context, paidCourse.id, [
		{
			week: 1,
			topic: 'Analysing Deals: ARV, the 70% Rule and Cash Flow',
			zoomLink: null,
			items: [
				{ title: 'Deal Analysis Guide', category: 'material', type: 'document', file: files.dealAnalysisGuide },
				{ title: 'Rent Comparables Chart', category: 'material', type: 'document', file: files.rentComparables },
				{ title: 'Week 1 Class Recording', category: 'recording', type: 'video', file: files.weekOneRecording },
			],
		},
		{
			week: 2,
			topic: 'Planning the Rehab: Scope of Work and Budget',
			zoomLink: null,
			items: [
				{ title: 'Rehab Budget Template', category: 'material', type: 'document', file: files.rehabBudget },
				{ title: 'YouTube: Walking a Rehab Property', youtubeUrl: 'https://www.youtube.com/watch?v=YE7VzlLtp-4' },
			],
		},
		{
			week: 3,
			topic: 'Renting It Out: Tenant Screening and Leases',
			zoomLink: zoom('84512096733'),
			items: [{ title: 'Tenant Screening Checklist', category: 'material', type: 'document', file: files.tenantChecklist }],
		},
		{
			week: 4,
			topic: 'The Cash-Out Refinance: Appraisals and Seasoning',
			zoomLink: zoom('84512096734'),
			items: [{ title: 'Refinance Roadmap', category: 'material', type: 'document', file: files.investorRoadmap }],
		},
	])
	await insertWeeks(trx, context, freeCourse.id, [
		{
			week: 1,
			topic: 'Why Rentals Build Wealth',
			zoomLink: null,
			items: [
				{ title: 'Your First Rental: A Roadmap', category: 'material', type: 'document', file: files.investorRoadmap },
				{ title: 'YouTube: Foundations Kick-off Replay', youtubeUrl: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' },
			],
		},
		{
			week: 2,
			topic: 'Reading a Local Market: Rents, Jobs and Neighbourhoods',
			zoomLink: null,
			items: [
				{ title: 'Median Rent by Neighbourhood', category: 'material', type: 'document', file: files.marketRents },
				{ title: 'Week 2 Class Recording', category: 'recording', type: 'video', file: files.weekTwoRecording },
			],
		},
		{
			week: 3,
			topic: 'Making Your First Offer',
			zoomLink: zoom('81937465021'),
			items: [{ title: 'First Offer Checklist', category: 'material', type: 'document', file: files.offerChecklist }],
		},
	])

	await insertMessages(trx, context, users, day)
	await insertAssignments(trx, context, users, paidCourse.id, paidWeeks, day)
	await insertFirstOpens(trx, users, paidWeeks, day)
	// Ivy teaches the paid cohort (docs/decisions/055): its Staff page lists her.
	await trx.insertInto('course_staff').values({ course_id: paidCourse.id, user_id: users.instructor, added_by: users.admin }).execute()
	await insertCommunity(trx, users, paidCourse.id, day)
	await insertContactSubmissions(trx, fullCourse.title, day)
	await insertFullCourseWaitlist(trx, fullCourse.id, users.omar, day)

	// The mentorship's previous cohort, months back, so the admin's Overview has several months of
	// enrolments and money: a payment in full, one with a promotion code, and one refunded in full.
	const pastCohort = await insertCourse(trx, {
		title: 'BRRRR Mentorship: Previous Cohort',
		description:
			'The previous run of the 8-week small-group mentorship on the buy, rehab, rent, refinance, repeat method, with weekly online sessions.',
		start_date: date(-95),
		end_date: date(-45),
		capacity: 10,
		registration_fee: 250_000,
		duration_text: '8 weeks',
	})
	await trx.updateTable('courses').set({ completion_min_attendance_percent: 0 }).where('id', '=', pastCohort.id).execute()
	await recordPayment('sam', pastCohort, await enroll('sam', pastCohort.id, 150), 150)
	await recordPayment('sofia', pastCohort, await enroll('sofia', pastCohort.id, 125), 125, {
		amountCents: 225_000,
		discountCents: 25_000,
		promotionCode: 'COHORT10',
	})
	const omarPast = await enroll('omar', pastCohort.id, 100)
	const omarPayment = await recordPayment('omar', pastCohort, omarPast, 100)
	await trx
		.updateTable('enrollments')
		.set({ status: 'inactive', updated_at: day(-85) })
		.where('id', '=', omarPast)
		.execute()
	await trx
		.updateTable('registration_payments')
		.set({ status: 'refunded', refunded_cents: 250_000, updated_at: day(-85) })
		.where('id', '=', omarPayment.id)
		.execute()
	await trx
		.insertInto('payment_refunds')
		.values({
			payment_id: omarPayment.id,
			amount_cents: 250_000,
			reason: 'requested_by_customer',
			note: 'Moved away before the second session.',
			status: 'succeeded',
			source: 'admin',
			request_key: 'demo-refund-omar',
			provider_refund_id: 're_test_demo_omar',
			actor_id: users.admin,
			created_at: day(-85),
			updated_at: day(-85),
		})
		.execute()
	await trx.insertInto('course_staff').values({ course_id: pastCohort.id, user_id: users.instructor, added_by: users.admin }).execute()
	await completeEndedCourse(trx, pastCohort.id, day(-44))
}

/** A plan bought at a checkout, as its fulfilment leaves it: active, the payments given paid. */
async function insertDemoPlan(
	trx: Transaction<Database>,
	plan: {
		checkoutSessionId: string
		userId: string
		courseId: number
		enrollmentId: number
		payments: Array<{ dueOn: string; amountCents: number; paidAt: Date | null }>
	},
) {
	const purchase = await trx
		.insertInto('plan_purchases')
		.values({
			checkout_session_id: plan.checkoutSessionId,
			provider: 'test',
			user_id: plan.userId,
			course_id: plan.courseId,
			enrollment_id: plan.enrollmentId,
			kind: 'equal',
			total_cents: plan.payments.reduce((total, payment) => total + payment.amountCents, 0),
			status: 'active',
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	await trx
		.insertInto('plan_instalments')
		.values(
			plan.payments.map((payment, index) => ({
				plan_purchase_id: purchase.id,
				sequence: index + 1,
				label: `Payment ${index + 1} of ${plan.payments.length}`,
				due_on: payment.dueOn,
				amount_cents: payment.amountCents,
				status: payment.paidAt ? ('paid' as const) : ('scheduled' as const),
				paid_at: payment.paidAt,
			})),
		)
		.execute()
}

/**
 * The full course's waitlist: Omar took the seat he was offered, an offer to Lena lapsed, and
 * Priya (whose request is in the inbox) waits.
 */
async function insertFullCourseWaitlist(trx: Transaction<Database>, courseId: number, omarId: string, day: (offset: number) => Date) {
	await trx
		.insertInto('waitlist_entries')
		.values([
			{
				course_id: courseId,
				user_id: omarId,
				name: DEMO_ACCOUNTS.omar.name,
				email: DEMO_ACCOUNTS.omar.email,
				position: 1,
				status: 'enrolled',
				token_hash: 'demo-waitlist-omar',
				offer_token_hash: 'demo-offer-omar',
				offered_at: day(-9),
				offer_expires_at: day(-8),
				joined_at: day(-15),
			},
			{
				course_id: courseId,
				name: 'Lena Ortiz',
				email: 'lena.ortiz@example.com',
				position: 2,
				status: 'expired',
				token_hash: 'demo-waitlist-lena',
				offer_token_hash: 'demo-offer-lena',
				offered_at: day(-12),
				offer_expires_at: day(-10),
				joined_at: day(-14),
			},
			{
				course_id: courseId,
				name: 'Priya Patel',
				email: 'priya.patel@example.com',
				position: 3,
				token_hash: 'demo-waitlist-priya',
				joined_at: day(-4),
			},
		])
		.execute()
}

/**
 * The paid cohort's community (docs/decisions/060), lively: Ivy's pinned welcome, Sam's and
 * Sofia's questions with replies back and forth, a link and line breaks, a locked notice.
 */
async function insertCommunity(
	trx: Transaction<Database>,
	users: Record<AccountName, string>,
	courseId: number,
	day: (offset: number) => Date,
) {
	const threads: Array<{
		author: AccountName
		title: string
		body: string
		daysAgo: number
		pinned?: boolean
		locked?: boolean
		notifyReplies?: boolean
		replies: Array<[AccountName, string]>
	}> = [
		{
			author: 'instructor',
			title: 'Welcome to the cohort: introduce yourself',
			body: 'Tell us where you invest, what you own today and the deal you want to close by the end of the course.\nI will read every one.',
			daysAgo: 24,
			pinned: true,
			replies: [
				['sam', 'Sam here, Dallas. One duplex so far; I want a small multifamily next.'],
				['sofia', 'Sofia from Atlanta. Two single-family rentals, looking at my first BRRRR.'],
				['instructor', 'Great start, both of you. Keep your numbers handy for week 2.'],
			],
		},
		{
			author: 'sam',
			title: 'Hard money or a HELOC for a first flip?',
			body: 'I have equity in my duplex. Is a HELOC cheaper than hard money once you count points?\nRates I found: https://www.freddiemac.com/pmms',
			daysAgo: 6,
			notifyReplies: true,
			replies: [
				['sofia', 'I used a HELOC on my second rental: no points, and I only paid interest on what I drew.'],
				['instructor', 'Both work. Run the deal at hard-money cost; if it still pencils, the HELOC is upside.'],
				['sam', 'Makes sense, thank you. Running the numbers tonight.'],
			],
		},
		{
			author: 'sofia',
			title: 'Rehab budget template: what contingency do you use?',
			body: 'My contractor quoted $38k. I added 10% contingency; is 15% safer for a 1960s house?',
			daysAgo: 3,
			replies: [
				['sam', 'I used 15% on mine and spent 12% of it on plumbing alone.'],
				['instructor', '15% for anything older than 1980, and get the sewer line scoped before closing.'],
			],
		},
		{
			author: 'instructor',
			title: 'Week 3 live session moved: see the schedule',
			body: 'The replay will be in the week 3 recordings. Questions about the move go to Messages.',
			daysAgo: 1,
			locked: true,
			replies: [],
		},
	]
	for (const thread of threads) {
		const startedAt = day(-thread.daysAgo)
		const lastAt = thread.replies.length ? new Date(startedAt.getTime() + thread.replies.length * 3 * 3_600_000) : startedAt
		const row = await trx
			.insertInto('community_threads')
			.values({
				course_id: courseId,
				author_id: users[thread.author],
				title: thread.title,
				pinned: thread.pinned ?? false,
				locked: thread.locked ?? false,
				notify_replies: thread.notifyReplies ?? false,
				submission_key: sql<string>`gen_random_uuid()`,
				last_activity_at: lastAt,
				created_at: startedAt,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		const posts = [[thread.author, thread.body] as const, ...thread.replies]
		await trx
			.insertInto('community_posts')
			.values(
				posts.map(([author, body], index) => ({
					thread_id: row.id,
					author_id: users[author],
					body,
					opening: index === 0,
					submission_key: sql<string>`gen_random_uuid()`,
					created_at: new Date(startedAt.getTime() + index * 3 * 3_600_000),
				})),
			)
			.execute()
		// Replies already seen: the demo does not mail about them when it starts.
		const [last] = await trx
			.selectFrom('community_posts')
			.select((eb) => eb.fn.max('id').as('id'))
			.where('thread_id', '=', row.id)
			.execute()
		await trx
			.updateTable('community_threads')
			.set({ replies_mailed_through: Number(last?.id ?? 0), replies_mailed_at: thread.notifyReplies ? lastAt : null })
			.where('id', '=', row.id)
			.execute()
	}
}

/**
 * Who opened what of the paid course (docs/decisions/051), so its progress roster shows a real
 * picture: Sam opened week 1 and one file of week 2 this week; Sofia opened one file of week 1
 * ten days ago and nothing since, so she is flagged.
 */
async function insertFirstOpens(
	trx: Transaction<Database>,
	users: Record<AccountName, string>,
	weeks: Map<number, number>,
	day: (offset: number) => Date,
) {
	const items = await trx
		.selectFrom('material_items')
		.select(['id', 'material_id as weekId'])
		.where('material_id', 'in', [weeks.get(1)!, weeks.get(2)!])
		.orderBy('id')
		.execute()
	const weekOne = items.filter((item) => item.weekId === weeks.get(1))
	const weekTwo = items.filter((item) => item.weekId === weeks.get(2))
	const opens = [
		...weekOne.map((item, index) => ({ user_id: users.sam, material_item_id: item.id, first_opened_at: day(-6 + index) })),
		...weekTwo.slice(0, 1).map((item) => ({ user_id: users.sam, material_item_id: item.id, first_opened_at: day(-2) })),
		...weekOne.slice(0, 1).map((item) => ({ user_id: users.sofia, material_item_id: item.id, first_opened_at: day(-10) })),
	]
	if (opens.length) await trx.insertInto('material_opens').values(opens).execute()
}

/**
 * Who came to the finished course's sessions: Sam to every one (late once, with a report's minutes),
 * Omar to the first two only; the rest of Omar's marked absent by hand.
 */
async function insertFinishedAttendance(
	trx: Transaction<Database>,
	courseId: number,
	students: { sam: string; omar: string },
	adminId: string,
) {
	const sessions = await trx.selectFrom('live_sessions').select('id').where('course_id', '=', courseId).orderBy('starts_at').execute()
	const rows = sessions.flatMap((session, index) => [
		index === 2
			? {
					live_session_id: session.id,
					user_id: students.sam,
					status: 'late' as const,
					minutes: 55,
					source: 'report' as const,
					set_by: adminId,
				}
			: {
					live_session_id: session.id,
					user_id: students.sam,
					status: 'present' as const,
					minutes: null,
					source: 'join_link' as const,
					set_by: null,
				},
		index < 2
			? {
					live_session_id: session.id,
					user_id: students.omar,
					status: 'present' as const,
					minutes: null,
					source: 'join_link' as const,
					set_by: null,
				}
			: {
					live_session_id: session.id,
					user_id: students.omar,
					status: 'absent' as const,
					minutes: null,
					source: 'hand' as const,
					set_by: adminId,
				},
	])
	if (rows.length > 0) await trx.insertInto('attendance').values(rows).execute()
}

async function insertAccounts(trx: Transaction<Database>, passwordHash: string, createdAt: Date) {
	const ids = {} as Record<AccountName, string>
	let order = 0
	for (const [key, account] of Object.entries(DEMO_ACCOUNTS) as Array<[AccountName, (typeof DEMO_ACCOUNTS)[AccountName]]>) {
		// A minute apart, so "newest first" lists have a stable order.
		const when = new Date(createdAt.getTime() + order++ * 60_000)
		const user = await trx
			.insertInto('users')
			.values({
				email: account.email,
				password_hash: passwordHash,
				email_confirmed_at: when,
				created_at: when,
				updated_at: when,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('profiles')
			.values({ id: user.id, name: account.name, role: account.role, created_at: when, updated_at: when })
			.execute()
		ids[key] = user.id
	}
	return ids
}

type CourseRow = { id: number; title: string; registration_fee: number }

/** ISO weekday (1 Monday … 7 Sunday) of a 'YYYY-MM-DD' date. */
function isoWeekday(date: string) {
	return ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1
}

async function insertCourse(
	trx: Transaction<Database>,
	course: Pick<
		NewCourse,
		'title' | 'description' | 'start_date' | 'end_date' | 'capacity' | 'registration_fee' | 'outcomes' | 'duration_text' | 'refund_terms'
	>,
): Promise<CourseRow> {
	return trx.insertInto('courses').values(course).returning(['id', 'title', 'registration_fee']).executeTakeFirstOrThrow()
}

/** Inserts the weeks and their items, storing each file under its week's key; returns week ids by number. */
async function insertWeeks(trx: Transaction<Database>, context: SeedContext, courseId: number, weeks: WeekSeed[]) {
	const ids = new Map<number, number>()
	for (const week of weeks) {
		const { id: weekId } = await trx
			.insertInto('course_materials')
			.values({ course_id: courseId, week_number: week.week, topic: week.topic, zoom_link: week.zoomLink })
			.returning('id')
			.executeTakeFirstOrThrow()
		ids.set(week.week, weekId)
		for (const item of week.items) {
			if ('youtubeUrl' in item) {
				await trx
					.insertInto('material_items')
					.values({
						material_id: weekId,
						title: item.title,
						type: 'video',
						category: 'recording',
						file_url: item.youtubeUrl,
					})
					.execute()
				continue
			}
			const key = materialKey(courseId, weekId, item.category, item.file.fileName)
			const size = await context.store(key, item.file)
			await trx
				.insertInto('material_items')
				.values({
					material_id: weekId,
					title: item.title,
					type: item.type,
					category: item.category,
					storage_key: key,
					mime_type: item.file.contentType,
					size_bytes: size,
				})
				.execute()
		}
	}
	return ids
}

async function insertMessages(
	trx: Transaction<Database>,
	context: SeedContext,
	users: Record<AccountName, string>,
	day: (offset: number) => Date,
) {
	const at = (daysAgo: number, hour: number) => {
		const when = day(-daysAgo)
		when.setUTCHours(hour, 0, 0, 0)
		return when
	}
	const direct = [
		{
			from: 'sam',
			to: 'instructor',
			at: at(6, 14),
			read: true,
			content:
				'Hi Ivy, I ran the duplex on Maple Street through the deal analysis guide. ARV comes out around $310k. ' +
				'Does a $45k rehab budget sound realistic for a new kitchen and two bathrooms?',
		},
		{
			from: 'instructor',
			to: 'sam',
			at: at(6, 17),
			read: true,
			content:
				'Good work, Sam. $45k is reasonable if the roof and HVAC are sound. Get a contractor walkthrough before ' +
				'you make the offer and bring the bids to Thursday’s session. The rent comps chart from class is attached.',
			attachment: context.files.rentComparables,
		},
		{ from: 'sam', to: 'instructor', at: at(5, 9), read: true, content: 'Will do, thanks! I should have two bids by Thursday.' },
		{
			from: 'instructor',
			to: 'sam',
			at: at(1, 16),
			read: false,
			content: 'Reminder: please upload your tenant screening plan before Friday so we can review it together in week 3.',
		},
		{
			from: 'admin',
			to: 'sam',
			at: at(24, 10),
			read: true,
			content: 'Hi Sam, your registration for the BRRRR Mentorship is confirmed. Your receipt is in your inbox.',
		},
		{
			from: 'sam',
			to: 'admin',
			at: at(24, 12),
			read: false,
			content: 'Thanks Alex! Could you send an invoice made out to Maple Street Holdings LLC?',
		},
		{
			from: 'admin',
			to: 'sam',
			at: at(2, 11),
			read: false,
			content: 'Done: the invoice for Maple Street Holdings LLC is on its way to your e-mail.',
		},
		{
			from: 'sofia',
			to: 'instructor',
			at: at(3, 19),
			read: false,
			content: 'Hi Ivy, I submitted my rehab budget. Should I include a contingency line, or is that already in the 10% buffer?',
		},
	] as const satisfies Array<{
		from: AccountName
		to: AccountName
		at: Date
		read: boolean
		content: string
		attachment?: StoredFile
	}>
	for (const message of direct) {
		const row = await trx
			.insertInto('messages')
			.values({
				sender_id: users[message.from],
				receiver_id: users[message.to],
				content: message.content,
				read: message.read,
				created_at: message.at,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		if ('attachment' in message) {
			const key = attachmentKey(users[message.from], message.attachment.fileName)
			const size = await context.store(key, message.attachment)
			await trx
				.insertInto('message_attachments')
				.values({
					message_id: row.id,
					name: message.attachment.fileName,
					type: message.attachment.contentType,
					size_bytes: size,
					storage_key: key,
				})
				.execute()
		}
	}
	await trx
		.insertInto('messages')
		.values({
			sender_id: users.admin,
			receiver_id: null,
			is_announcement: true,
			created_at: at(14, 8),
			subject: 'Welcome',
			content:
				'Welcome to the new cohort! Week 1 materials are in your dashboard and our first live session ' +
				'is on Thursday at 7 PM Eastern. Bring one property you are curious about and we will analyse it together.',
		})
		.execute()
}

async function insertAssignments(
	trx: Transaction<Database>,
	context: SeedContext,
	users: Record<AccountName, string>,
	courseId: number,
	weeks: Map<number, number>,
	day: (offset: number) => Date,
) {
	const assignment = async (week: number, title: string, instructions: string, dueInDays: number) => {
		const row = await trx
			.insertInto('assignments')
			.values({
				course_id: courseId,
				week_id: weeks.get(week) ?? null,
				title,
				instructions,
				due_at: day(dueInDays),
				created_by: users.instructor,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		return row.id
	}
	const dealAnalysis = await assignment(
		1,
		'Deal Analysis Worksheet',
		'Pick a property listed in your market and complete the deal analysis: purchase price, ARV from three comparables, ' +
			'rehab estimate, maximum allowable offer under the 70% rule and the monthly cash flow after the refinance.',
		-7,
	)
	const rehabBudget = await assignment(
		2,
		'Rehab Budget',
		'Using the rehab budget template, build a line-item budget for your property with a contingency of at least 10%.',
		-1,
	)
	const tenantScreening = await assignment(
		3,
		'Tenant Screening Plan',
		'Write your tenant screening criteria (income, credit, rental history, references) and the steps from inquiry to signed lease.',
		4,
	)

	await trx
		.insertInto('assignment_submissions')
		.values({
			assignment_id: dealAnalysis,
			student_id: users.sam,
			body:
				'Maple Street duplex: purchase $182,000, ARV $310,000 (three comps within half a mile), rehab $45,000. ' +
				'Maximum allowable offer at 70%: $172,000, so I will offer $170,000. Rent $1,450 per unit; cash flow after the refinance about $410 a month.',
			status: 'graded',
			grade: 'A',
			feedback: 'Thorough comps and a disciplined offer. Add vacancy and capital expenses (5% each) to the cash-flow line next time.',
			submitted_at: day(-8),
			graded_at: day(-5),
			graded_by: users.instructor,
		})
		.execute()
	const budgetKey = submissionKey(rehabBudget, users.sofia, context.files.sofiaBudget.fileName)
	const budgetSize = await context.store(budgetKey, context.files.sofiaBudget)
	await trx
		.insertInto('assignment_submissions')
		.values({
			assignment_id: rehabBudget,
			student_id: users.sofia,
			body: 'My budget for the Oak Street single-family is attached; the contingency is 10% of hard costs.',
			file_name: context.files.sofiaBudget.fileName,
			file_type: context.files.sofiaBudget.contentType,
			file_size: budgetSize,
			storage_key: budgetKey,
			submitted_at: day(-3),
		})
		.execute()
	await trx
		.insertInto('assignment_submissions')
		.values({
			assignment_id: tenantScreening,
			student_id: users.sam,
			body:
				'Criteria: income at least three times the rent, credit score 620 or higher, no evictions in five years, two landlord references. ' +
				'Steps: pre-screening call, showing, online application with fee, background and credit check, reference calls, lease signing.',
			submitted_at: day(-1),
		})
		.execute()
}

async function insertContactSubmissions(trx: Transaction<Database>, waitlistProgram: string, day: (offset: number) => Date) {
	await trx
		.insertInto('contact_submissions')
		.values([
			{
				kind: 'contact',
				name: 'Dana Whitfield',
				email: 'dana.whitfield@example.com',
				phone: '(404) 555-0142',
				message: 'Do you accept students who invest out of state? I live in Atlanta but want to buy in Ohio.',
				read: true,
				created_at: day(-9),
			},
			{
				kind: 'contact',
				name: 'Marcus Lee',
				email: 'marcus.lee@example.com',
				phone: null,
				message: 'Is there a payment plan for the mentorship, or does the fee have to be paid in full before the start?',
				created_at: day(-2),
			},
			{
				kind: 'waitlist',
				name: 'Priya Patel',
				email: 'priya.patel@example.com',
				phone: '(678) 555-0199',
				program: waitlistProgram,
				message: `Waitlist request for: ${waitlistProgram}\nI own two rentals and would love a spot in the next cohort.`,
				created_at: day(-4),
			},
		])
		.execute()
}

const dealAnalysisGuide = {
	title: 'Deal Analysis Guide',
	subtitle: 'BRRRR Mentorship - Week 1',
	sections: [
		{
			heading: '1. Start from the after-repair value',
			paragraphs: [
				'The after-repair value (ARV) is what the property will be worth once the rehab is finished. Find three sold comparables within half a mile, sold in the last six months, with the same bedroom and bathroom count and a similar size. Adjust for differences such as a garage or a finished basement, and use the middle of the range rather than the best sale.',
				'Write down why each comparable was chosen. When the lender orders an appraisal for the refinance, the appraiser will look for the same evidence.',
			],
		},
		{
			heading: '2. The 70% rule',
			paragraphs: [
				'The maximum allowable offer is 70% of the ARV minus the rehab estimate. For a house worth $310,000 after a $45,000 rehab: 0.70 x 310,000 - 45,000 = $172,000. The remaining 30% covers holding costs, closing costs on both ends and your margin of safety.',
				'The rule is a screen, not a promise. In markets with low rehab costs or high appreciation some investors use 75%; in slow markets 65% is safer.',
			],
		},
		{
			heading: '3. Estimate the rehab',
			paragraphs: [
				'Walk the property with a contractor before you make an offer. Price the big items first (roof, HVAC, plumbing, electrical, foundation), then kitchens and bathrooms, then cosmetics. Add a contingency of at least 10% of hard costs.',
			],
		},
		{
			heading: '4. Cash flow after the refinance',
			paragraphs: [
				'Monthly cash flow is rent minus the new mortgage payment, taxes, insurance, vacancy (5%), repairs (5%), capital expenses (5%) and management (8-10%). A BRRRR deal works when the refinance returns most of your cash and the property still cash flows afterwards.',
				'Run the numbers at today’s interest rates and again one percentage point higher. If the deal only works at the lower rate, walk away.',
			],
		},
		{
			heading: '5. Before next week',
			paragraphs: [
				'Complete the Deal Analysis Worksheet assignment for one property in your market and bring your comparables to the live session.',
			],
		},
	],
}

const investorRoadmap = {
	title: 'Your First Rental: A Roadmap',
	subtitle: 'Real Estate Investing Foundations - Week 1',
	sections: [
		{
			heading: 'Why rentals build wealth',
			paragraphs: [
				'A rental pays you four ways: monthly cash flow, the loan paid down by your tenant, appreciation over time and tax benefits such as depreciation. None of them needs to be large on its own; together, held for years, they compound.',
			],
		},
		{
			heading: 'The path to your first property',
			paragraphs: [
				'1. Set your goal: how much monthly cash flow, by when. 2. Check your finances: credit, savings for a down payment and six months of reserves. 3. Choose one market you can learn deeply. 4. Talk to two lenders and get pre-approved. 5. Analyse twenty deals before you offer on one. 6. Build your team: agent, lender, inspector, contractor and insurance agent.',
			],
		},
		{
			heading: 'Common first-time mistakes',
			paragraphs: [
				'Underestimating repairs and vacancy, buying in a market you have never visited, skipping the inspection and treating the property as a hobby rather than a business. Each of them is avoidable with a checklist and a second opinion.',
			],
		},
	],
}

const rehabBudgetLines = [
	{ item: 'Roof repair and gutters', estimated: 6500, actual: 6200 },
	{ item: 'Kitchen: cabinets, counters, appliances', estimated: 14000, actual: 15350 },
	{ item: 'Two bathrooms', estimated: 11000, actual: 10400 },
	{ item: 'Flooring (LVP, 1,100 sq ft)', estimated: 5500, actual: 5650 },
	{ item: 'Interior paint', estimated: 3200, actual: 3000 },
	{ item: 'Electrical updates', estimated: 2400, actual: 2900 },
	{ item: 'Contingency (10%)', estimated: 4260, actual: 0 },
]

const sofiaBudgetLines = [
	{ item: 'HVAC replacement', estimated: 7800, actual: 0 },
	{ item: 'Kitchen refresh', estimated: 9500, actual: 0 },
	{ item: 'Bathroom', estimated: 6200, actual: 0 },
	{ item: 'Flooring and paint', estimated: 6800, actual: 0 },
	{ item: 'Contingency (10%)', estimated: 3030, actual: 0 },
]

const tenantScreeningChecklist = {
	title: 'Tenant Screening Checklist',
	paragraphs: [
		'Apply the same written criteria to every applicant, in the order they applied, and keep a record of each decision. Fair-housing rules forbid decisions based on protected characteristics.',
		'Minimum criteria: gross monthly income of at least three times the rent, credit score of 620 or higher, no evictions in the past five years and positive references from the two most recent landlords.',
	],
	checklist: [
		'Pre-screening phone call: move-in date, household size, pets, income',
		'Showing in person or by video',
		'Written application with consent to a background and credit check',
		'Verify income: two recent pay stubs or an offer letter',
		'Call the two most recent landlords',
		'Decision in writing within three business days',
		'Sign the lease and collect the deposit and first month’s rent',
	],
}

const firstOfferChecklist = {
	title: 'First Offer Checklist',
	paragraphs: [
		'Use this list before every offer. An offer you cannot back with numbers is a guess; an offer with inspection and financing contingencies protects your earnest money while you confirm them.',
	],
	checklist: [
		'Three sold comparables within half a mile and six months',
		'Rehab estimate from a contractor walkthrough',
		'Maximum allowable offer calculated and written down',
		'Pre-approval letter from your lender',
		'Inspection contingency of at least 10 days',
		'Financing and appraisal contingencies',
		'Earnest money amount agreed with your agent',
	],
}
