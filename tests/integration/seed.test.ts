import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { unzipSync } from 'fflate'
import { type Kysely, sql } from 'kysely'
import { PDFDocument } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { courseEndsAt } from '#app/models/enrollment/completion.server.ts'
import { getOverview } from '#app/models/reports/overview.server.ts'
import { defaultRangeStart, todayIn } from '#app/models/reports/overview.ts'
import { LocalFileStorage } from '#app/services/storage/local.server.ts'
import { verifyPassword } from '#app/utils/password.server.ts'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '#db/seed/demo.ts'
import type { Database } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'

const t = useTestDatabase()
let storageDir: string
let storage: LocalFileStorage

beforeAll(async () => {
	storageDir = await mkdtemp(path.join(tmpdir(), 'seed-test-'))
	storage = new LocalFileStorage(storageDir)
})
afterAll(async () => {
	await rm(storageDir, { recursive: true, force: true })
})

async function countRows(db: Kysely<Database>, table: keyof Database) {
	const result = await sql<{ count: number }>`SELECT count(*)::int AS count FROM ${sql.table(table)}`.execute(db)
	return result.rows[0]!.count
}

async function listKeys() {
	const keys: string[] = []
	for await (const object of storage.list('')) keys.push(object.key)
	return keys
}

async function readAll(key: string) {
	const object = await storage.get(key)
	if (!object) throw new Error(`missing ${key}`)
	const chunks: Buffer[] = []
	for await (const chunk of object.body) chunks.push(chunk as Buffer)
	return new Uint8Array(Buffer.concat(chunks))
}

describe('seedDemoData', () => {
	test('fills an empty database with accounts, courses, materials and activity', async () => {
		expect(await seedDemoData(t.db, storage)).toEqual({ seeded: true })

		const roles = await sql<{ role: string; count: number }>`
			SELECT role, count(*)::int AS count FROM profiles GROUP BY role`.execute(t.db)
		expect(Object.fromEntries(roles.rows.map((row) => [row.role, row.count]))).toEqual({ admin: 1, instructor: 1, student: 3 })
		const users = await t.db.selectFrom('users').select(['email', 'password_hash', 'email_confirmed_at']).execute()
		const demoEmails = Object.values(DEMO_ACCOUNTS).map((account) => account.email)
		expect(users.map((user) => user.email).sort()).toEqual(demoEmails.sort())
		expect(users.every((user) => user.email_confirmed_at !== null)).toBe(true)
		expect(await verifyPassword(users[0]!.password_hash, DEMO_PASSWORD)).toBe(true)
		const staff = await t.db
			.selectFrom('course_staff')
			.innerJoin('users', 'users.id', 'course_staff.user_id')
			.innerJoin('courses', 'courses.id', 'course_staff.course_id')
			.select(['users.email', 'courses.registration_fee'])
			.execute()
		// Ivy teaches the mentorship's cohort now and taught its previous one.
		expect(staff).toEqual([
			{ email: 'instructor@example.com', registration_fee: 250000 },
			{ email: 'instructor@example.com', registration_fee: 250000 },
		])

		const courses = await sql<{ title: string; capacity: number; registration_fee: number; taken: number }>`
			SELECT c.title, c.capacity, c.registration_fee,
				count(e.id) FILTER (WHERE e.status IN ('active', 'pending', 'completed'))::int AS taken
			FROM courses c LEFT JOIN enrollments e ON e.course_id = c.id
			GROUP BY c.id ORDER BY c.id`.execute(t.db)
		expect(courses.rows.map(({ capacity, registration_fee, taken }) => ({ capacity, registration_fee, taken }))).toEqual([
			{ capacity: 30, registration_fee: 0, taken: 1 },
			{ capacity: 10, registration_fee: 250_000, taken: 2 },
			{ capacity: 2, registration_fee: 150_000, taken: 2 },
			{ capacity: 10, registration_fee: 0, taken: 2 },
			{ capacity: 10, registration_fee: 250_000, taken: 2 },
		])
		expect(courses.rows.filter((course) => course.taken >= course.capacity)).toHaveLength(1)

		const samCourses = await t.db
			.selectFrom('enrollments')
			.innerJoin('users', 'users.id', 'enrollments.user_id')
			.innerJoin('courses', 'courses.id', 'enrollments.course_id')
			.where('users.email', '=', DEMO_ACCOUNTS.sam.email)
			.where('enrollments.status', '=', 'active')
			.select('courses.registration_fee')
			.orderBy('courses.registration_fee')
			.execute()
		expect(samCourses.map((course) => course.registration_fee)).toEqual([0, 250_000])
		// A finished course Sam completed, with his certificate.
		// And the mentorship's previous cohort, which Sam and Sofia completed.
		const certificates = await t.db
			.selectFrom('certificates')
			.select(['recipient_name', 'course_title', 'revoked_at'])
			.orderBy('course_title')
			.orderBy('recipient_name')
			.execute()
		expect(certificates).toEqual([
			{ recipient_name: DEMO_ACCOUNTS.sam.name, course_title: 'BRRRR Mentorship: Previous Cohort', revoked_at: null },
			{ recipient_name: DEMO_ACCOUNTS.sofia.name, course_title: 'BRRRR Mentorship: Previous Cohort', revoked_at: null },
			{ recipient_name: DEMO_ACCOUNTS.sam.name, course_title: 'Wholesaling Essentials', revoked_at: null },
		])
		// Its six live sessions are past, with attendance; the rule was applied when it ended: Sam met it, Omar did not.
		const finished = await t.db
			.selectFrom('courses')
			.select(['id', 'completion_evaluated_at', courseEndsAt.as('ends_at')])
			.where('title', '=', 'Wholesaling Essentials')
			.executeTakeFirstOrThrow()
		expect(finished.completion_evaluated_at).not.toBeNull()
		expect(new Date(finished.ends_at!).getTime()).toBeLessThan(Date.now())
		const finishedSessions = await t.db.selectFrom('live_sessions').select('ends_at').where('course_id', '=', finished.id).execute()
		expect(finishedSessions).toHaveLength(6)
		expect(finishedSessions.every((session) => session.ends_at < new Date())).toBe(true)
		const standing = await t.db
			.selectFrom('enrollments')
			.innerJoin('users', 'users.id', 'enrollments.user_id')
			.select(['users.email', 'enrollments.status'])
			.where('enrollments.course_id', '=', finished.id)
			.orderBy('users.email')
			.execute()
		expect(standing).toEqual([
			{ email: DEMO_ACCOUNTS.omar.email, status: 'active' },
			{ email: DEMO_ACCOUNTS.sam.email, status: 'completed' },
		])
		const attended = await t.db
			.selectFrom('attendance')
			.innerJoin('live_sessions', 'live_sessions.id', 'attendance.live_session_id')
			.select((eb) => eb.fn.countAll<number>().as('rows'))
			.where('live_sessions.course_id', '=', finished.id)
			.executeTakeFirstOrThrow()
		expect(Number(attended.rows)).toBe(12)

		const weeks = await sql<{ weeks: number; zoom: number }>`
			SELECT count(*)::int AS weeks, count(zoom_link)::int AS zoom FROM course_materials GROUP BY course_id`.execute(t.db)
		expect(weeks.rows).toHaveLength(2)
		for (const course of weeks.rows) {
			expect(course.weeks).toBeGreaterThanOrEqual(3)
			expect(course.zoom).toBeGreaterThan(0)
			expect(course.zoom).toBeLessThan(course.weeks)
		}

		const items = await t.db.selectFrom('material_items').selectAll().execute()
		const youtube = items.filter((item) => item.file_url !== null)
		expect(youtube.length).toBeGreaterThan(0)
		for (const item of youtube) {
			expect(item).toMatchObject({ type: 'video', category: 'recording', storage_key: null })
			expect(item.title).toMatch(/^YouTube: /)
			expect(item.file_url).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=/)
		}
		const stored = items.filter((item) => item.storage_key !== null)
		const kinds = new Set(stored.map((item) => `${item.category}/${item.type}/${item.mime_type}`))
		expect([...kinds].sort()).toEqual([
			'material/document/application/pdf',
			'material/document/application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
			'material/document/application/vnd.openxmlformats-officedocument.wordprocessingml.document',
			'material/document/image/png',
			'recording/video/video/mp4',
		])
		for (const item of stored) {
			expect(item.storage_key).toMatch(/^courses\/\d+\/weeks\/\d+\/(material|recording)\/[0-9a-f-]{36}-/)
			const stat = await storage.stat(item.storage_key!)
			expect(stat?.size).toBe(item.size_bytes)
			expect(stat?.contentType).toBe(item.mime_type)
		}

		const messages = await t.db.selectFrom('messages').selectAll().execute()
		const announcements = messages.filter((message) => message.is_announcement)
		expect(announcements).toHaveLength(1)
		expect(announcements[0]).toMatchObject({ receiver_id: null, subject: 'Welcome' })
		expect(announcements[0]!.content).toMatch(/^Welcome to the new cohort! /)
		expect(messages.filter((message) => !message.is_announcement && !message.read).length).toBeGreaterThan(0)
		const attachments = await t.db.selectFrom('message_attachments').selectAll().execute()
		for (const attachment of attachments) {
			expect((await storage.stat(attachment.storage_key))?.size).toBe(attachment.size_bytes)
		}

		const submissions = await t.db
			.selectFrom('assignment_submissions')
			.innerJoin('assignments', 'assignments.id', 'assignment_submissions.assignment_id')
			.select(['assignments.title', 'status', 'grade', 'feedback', 'storage_key', 'file_size'])
			.orderBy('assignments.id')
			.execute()
		expect(submissions.map(({ title, status }) => [title, status])).toEqual([
			['Deal Analysis Worksheet', 'graded'],
			['Rehab Budget', 'submitted'],
			['Tenant Screening Plan', 'submitted'],
		])
		expect(submissions[0]).toMatchObject({ grade: 'A' })
		for (const submission of submissions.filter((row) => row.storage_key)) {
			expect((await storage.stat(submission.storage_key!))?.size).toBe(submission.file_size)
		}

		// A course with a weekly schedule: sessions past and upcoming, and a week whose files are not open yet.
		const sessions = await t.db
			.selectFrom('live_sessions as session')
			.innerJoin('courses as course', 'course.id', 'session.course_id')
			.select(['session.starts_at', 'session.ends_at', 'session.week_number', 'course.weeks_open_days_before as daysBefore'])
			.orderBy('session.week_number')
			.execute()
		const now = new Date()
		expect(sessions.length).toBeGreaterThanOrEqual(8)
		expect(sessions.filter((session) => session.ends_at < now).length).toBeGreaterThan(0)
		expect(sessions.filter((session) => session.starts_at > now).length).toBeGreaterThan(0)
		const lockedWeeks = await t.db
			.selectFrom('course_materials as week')
			.innerJoin('live_sessions as session', (join) =>
				join.onRef('session.course_id', '=', 'week.course_id').onRef('session.week_number', '=', 'week.week_number'),
			)
			.innerJoin('courses as course', 'course.id', 'week.course_id')
			.select('week.week_number')
			.where(sql<boolean>`session.starts_at - make_interval(days => course.weeks_open_days_before) > now()`)
			.execute()
		expect(lockedWeeks.map((week) => week.week_number)).toEqual([4])

		// A lively community in the paid cohort: several discussions with replies, one pinned, by students and the instructor.
		const discussions = await t.db
			.selectFrom('community_threads as thread')
			.select((eb) => [
				'thread.pinned',
				eb
					.selectFrom('community_posts as post')
					.select((inner) => inner.fn.countAll<string>().as('n'))
					.whereRef('post.thread_id', '=', 'thread.id')
					.as('posts'),
			])
			.execute()
		expect(discussions.length).toBeGreaterThanOrEqual(3)
		expect(discussions.filter((thread) => thread.pinned)).toHaveLength(1)
		expect(discussions.filter((thread) => Number(thread.posts) > 2).length).toBeGreaterThanOrEqual(2)
		const authors = await t.db.selectFrom('community_posts').select('author_id').distinct().execute()
		expect(authors.length).toBeGreaterThanOrEqual(3)

		const waitlist = await t.db.selectFrom('contact_submissions').selectAll().where('kind', '=', 'waitlist').execute()
		expect(waitlist).toHaveLength(1)
		expect(waitlist[0]!.message.startsWith(`Waitlist request for: ${waitlist[0]!.program}\n`)).toBe(true)

		// The admin's Overview of its default six months shows money in several of them, a refund, a
		// discount, a plan still to collect, a waitlist's offers, attendance and completion.
		const admin = await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ACCOUNTS.admin.email).executeTakeFirstOrThrow()
		const today = todayIn('UTC')
		const overview = await getOverview(
			t.db,
			{ id: admin.id, isAdmin: true },
			{ from: defaultRangeStart(today), to: today, group: 'month', timeZone: 'UTC' },
		)
		expect(overview.periods.filter((period) => (period.money?.paidCents ?? 0) > 0).length).toBeGreaterThanOrEqual(3)
		expect(overview.periods.filter((period) => period.enrolments > 0).length).toBeGreaterThanOrEqual(3)
		expect(overview.periods.some((period) => (period.money?.refundedCents ?? 0) > 0)).toBe(true)
		expect(overview.periods.some((period) => (period.money?.discountCents ?? 0) > 0)).toBe(true)
		expect(overview.planBalance).toEqual({ outstandingCents: 166_666, overdueCents: 0, plans: 1 })
		expect(overview.courses.find((course) => course.waiting > 0)).toMatchObject({ offersMade: 2, offersTaken: 1, offersExpired: 1 })
		expect(overview.sessions.some((session) => session.present > 0)).toBe(true)
		expect(overview.courses.some((course) => course.completed > 0)).toBe(true)
	})

	test('stores files that open as what they claim to be', async () => {
		const items = await t.db
			.selectFrom('material_items')
			.select(['storage_key', 'mime_type'])
			.where('storage_key', 'is not', null)
			.execute()
		const first = (mime: string) => readAll(items.find((item) => item.mime_type === mime)!.storage_key!)

		const pdf = await PDFDocument.load(await first('application/pdf'))
		expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1)

		const png = Buffer.from(await first('image/png'))
		expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
		expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([640, 360])

		for (const [mime, part] of [
			['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'word/document.xml'],
			['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xl/worksheets/sheet1.xml'],
		] as const) {
			const entries = unzipSync(await first(mime))
			expect(Object.keys(entries)[0]).toBe('[Content_Types].xml')
			expect(entries[part]).toBeDefined()
		}

		const video = Buffer.from(await first('video/mp4'))
		expect(video.subarray(4, 8).toString('ascii')).toBe('ftyp')

		const object = await storage.get(items[0]!.storage_key!, { start: 0, end: 3 })
		expect(object?.range).toEqual({ start: 0, end: 3 })
		object?.body.destroy()
	})

	test('seeds nothing the second time', async () => {
		const itemsBefore = await countRows(t.db, 'material_items')
		const filesBefore = await listKeys()
		expect(await seedDemoData(t.db, storage)).toEqual({ seeded: false })
		expect(await countRows(t.db, 'material_items')).toBe(itemsBefore)
		expect(await countRows(t.db, 'users')).toBe(5)
		expect(await listKeys()).toEqual(filesBefore)
	})
})
