import { describe, expect, test } from 'vitest'
import {
	canAccessCourse,
	courseAccess,
	getCourseWeeks,
	getMaterialItem,
	listAccessibleCourses,
} from '#app/models/materials/materials.server.ts'
import { fileTypeOf, materialKind, storedFileName, youtubeEmbedUrl, youtubeVideoId } from '#app/models/materials/materials.ts'
import { materialKey } from '#app/services/storage/keys.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertCourse,
	insertEnrollment,
	insertLiveSession,
	insertMaterialItem,
	insertMaterialLink,
	insertUser,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { createCountingDb } from '#tests/support/query-counter.ts'

const t = useTestDatabase()

describe('canAccessCourse', () => {
	test('lets an admin see any existing course and nobody see a missing one', async () => {
		const admin = { id: await insertUser(t.db, { role: 'admin', name: 'Someone' }), isAdmin: true }
		const courseId = (await insertCourse(t.db)).id
		expect(await canAccessCourse(t.db, admin, courseId)).toBe(true)
		expect(await canAccessCourse(t.db, admin, 2_000_000_000)).toBe(false)
	})

	test('lets a student read a course with an active (full) or completed (read-only) enrollment only', async () => {
		const student = { id: await insertUser(t.db, { name: 'Someone' }), isAdmin: false }
		const [active, pending, inactive, completed, other] = await Promise.all(
			Array.from({ length: 5 }, async () => (await insertCourse(t.db)).id),
		)
		await insertEnrollment(t.db, { userId: student.id, courseId: active!, status: 'active' })
		await insertEnrollment(t.db, { userId: student.id, courseId: pending!, status: 'pending' })
		await insertEnrollment(t.db, { userId: student.id, courseId: inactive!, status: 'inactive' })
		await insertEnrollment(t.db, { userId: student.id, courseId: completed!, status: 'completed' })
		expect(await canAccessCourse(t.db, student, active!)).toBe(true)
		expect(await canAccessCourse(t.db, student, completed!)).toBe(true)
		expect(await courseAccess(t.db, student, active!)).toBe('full')
		expect(await courseAccess(t.db, student, completed!)).toBe('read-only')
		for (const courseId of [pending!, inactive!, other!]) {
			expect(await canAccessCourse(t.db, student, courseId)).toBe(false)
			expect(await courseAccess(t.db, student, courseId)).toBeNull()
		}
	})
})

describe('listAccessibleCourses', () => {
	test('gives a student the active courses, the most recent first, then the completed ones read-only', async () => {
		const student = { id: await insertUser(t.db, { name: 'Someone' }), isAdmin: false }
		const older = (await insertCourse(t.db, { title: 'Older course' })).id
		const newer = (await insertCourse(t.db, { title: 'Newer course' })).id
		const paused = (await insertCourse(t.db, { title: 'Paused course' })).id
		await insertEnrollment(t.db, { userId: student.id, courseId: older, status: 'active', daysAgo: 10 })
		await insertEnrollment(t.db, { userId: student.id, courseId: newer, status: 'active', daysAgo: 1 })
		const finished = (await insertCourse(t.db, { title: 'Finished course' })).id
		await insertEnrollment(t.db, { userId: student.id, courseId: paused, status: 'inactive', daysAgo: 0 })
		await insertEnrollment(t.db, { userId: student.id, courseId: finished, status: 'completed', daysAgo: 0 })
		const courses = await listAccessibleCourses(t.db, student)
		expect(courses).toEqual([
			{ id: newer, title: 'Newer course', enrolled: true, readOnly: false },
			{ id: older, title: 'Older course', enrolled: true, readOnly: false },
			{ id: finished, title: 'Finished course', enrolled: true, readOnly: true },
		])
	})

	test('gives an admin every course, their own active enrollment first', async () => {
		const admin = { id: await insertUser(t.db, { role: 'admin', name: 'Someone' }), isAdmin: true }
		const own = (await insertCourse(t.db, { title: 'Zebra course' })).id
		const other = (await insertCourse(t.db, { title: 'Aardvark course' })).id
		await insertEnrollment(t.db, { userId: admin.id, courseId: own, status: 'active' })
		const courses = await listAccessibleCourses(t.db, admin)
		expect(courses[0]).toEqual({ id: own, title: 'Zebra course', enrolled: true, readOnly: false })
		expect(courses).toContainEqual({ id: other, title: 'Aardvark course', enrolled: false, readOnly: false })
		const total = await t.db
			.selectFrom('courses')
			.select((eb) => eb.fn.countAll<number>().as('n'))
			.executeTakeFirstOrThrow()
		expect(courses).toHaveLength(Number(total.n))
	})
})

describe('getCourseWeeks', () => {
	test('lists weeks newest first with their materials and recordings sorted by title', async () => {
		const courseId = (await insertCourse(t.db)).id
		const first = await insertWeek(t.db, { courseId, weekNumber: 1, zoomLink: 'https://zoom.us/j/123' })
		const second = await insertWeek(t.db, { courseId, weekNumber: 2, zoomLink: 'javascript:alert(1)' })
		const empty = await insertWeek(t.db, { courseId, weekNumber: 3 })
		const guide = await insertMaterialItem(t.db, { courseId, weekId: first, title: 'b Guide', fileName: 'guide.pdf' })
		const chart = await insertMaterialItem(t.db, { courseId, weekId: first, title: 'a Chart', fileName: 'chart.png' })
		const recording = await insertMaterialItem(t.db, {
			courseId,
			weekId: first,
			title: 'Recording',
			fileName: 'class.mp4',
			category: 'recording',
		})
		const youtube = await insertMaterialLink(t.db, { weekId: second, url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' })

		const { weeks, totalWeeks } = await getCourseWeeks(t.db, courseId)
		expect(totalWeeks).toBe(3)
		expect(weeks.map((week) => week.id)).toEqual([empty, second, first])
		expect(weeks[0]).toMatchObject({ weekNumber: 3, topic: 'Topic 3', zoomLink: null, materials: [], recordings: [] })
		// Only http(s) links are ever rendered.
		expect(weeks[1]).toMatchObject({ zoomLink: null, materials: [], recordings: [{ id: youtube.id, kind: 'youtube' }] })
		expect(weeks[2]).toMatchObject({
			zoomLink: 'https://zoom.us/j/123',
			materials: [
				{ id: chart, title: 'a Chart', kind: 'image', sizeBytes: 1234 },
				{ id: guide, title: 'b Guide', kind: 'pdf' },
			],
			recordings: [{ id: recording, title: 'Recording', kind: 'video', type: 'video' }],
		})
	})

	test('is empty for a course without weeks', async () => {
		expect(await getCourseWeeks(t.db, (await insertCourse(t.db)).id)).toEqual({ weeks: [], totalWeeks: 0 })
	})

	test('lists the 8 most recent weeks with the total, or every week when asked', async () => {
		const courseId = (await insertCourse(t.db)).id
		const weekIds: number[] = []
		for (let week = 1; week <= 11; week++) {
			const weekId = await insertWeek(t.db, { courseId, weekNumber: week })
			weekIds.push(weekId)
			await insertMaterialItem(t.db, { courseId, weekId, title: `Notes ${week}`, fileName: `notes-${week}.pdf` })
		}
		const recent = await getCourseWeeks(t.db, courseId)
		expect(recent.totalWeeks).toBe(11)
		expect(recent.weeks.map((week) => week.weekNumber)).toEqual([11, 10, 9, 8, 7, 6, 5, 4])
		expect(recent.weeks.every((week) => week.materials.length === 1)).toBe(true)
		const all = await getCourseWeeks(t.db, courseId, { all: true })
		expect(all.totalWeeks).toBe(11)
		expect(all.weeks.map((week) => week.id)).toEqual(weekIds.toReversed())
	})

	test('lists the open weeks newest first, then the weeks not open yet, the next to open first; the limit keeps that order', async () => {
		const courseId = (await insertCourse(t.db)).id
		const now = new Date('2031-03-01T12:00:00Z')
		const DAY = 86_400_000
		for (let week = 1; week <= 11; week++) {
			const weekId = await insertWeek(t.db, { courseId, weekNumber: week })
			await insertMaterialItem(t.db, { courseId, weekId, title: `Notes ${week}`, fileName: `notes-${week}.pdf` })
			// Weekly sessions; a week opens 7 days before its session (the course's default): weeks 1–3 are open.
			const startsAt = new Date(now.getTime() + (week - 3) * 7 * DAY + DAY)
			await insertLiveSession(t.db, { courseId, weekNumber: week, startsAt, endsAt: new Date(startsAt.getTime() + 3_600_000) })
		}
		const student = { id: await insertUser(t.db), isAdmin: false }
		const recent = await getCourseWeeks(t.db, courseId, { reader: student, now })
		expect(recent.weeks.map((week) => week.weekNumber)).toEqual([3, 2, 1, 4, 5, 6, 7, 8])
		expect(recent.weeks.map((week) => week.filesHidden)).toEqual([false, false, false, true, true, true, true, true])
		const all = await getCourseWeeks(t.db, courseId, { reader: student, now, all: true })
		expect(all.weeks.map((week) => week.weekNumber)).toEqual([3, 2, 1, 4, 5, 6, 7, 8, 9, 10, 11])
	})

	test('issues the same small number of queries for 1 week of 1 file and 50 weeks of 5 files', async () => {
		const small = (await insertCourse(t.db)).id
		const smallWeek = await insertWeek(t.db, { courseId: small, weekNumber: 1 })
		await insertMaterialItem(t.db, { courseId: small, weekId: smallWeek, title: 'Only file', fileName: 'only.pdf' })

		const large = (await insertCourse(t.db)).id
		for (let week = 1; week <= 50; week++) {
			const weekId = await insertWeek(t.db, { courseId: large, weekNumber: week })
			for (let file = 1; file <= 5; file++) {
				await insertMaterialItem(t.db, {
					courseId: large,
					weekId,
					title: `File ${file}`,
					fileName: `file-${file}.pdf`,
					category: file === 5 ? 'recording' : 'material',
				})
			}
		}

		const { db: counted, statements, destroy } = createCountingDb(t.url)
		try {
			const smallWeeks = await getCourseWeeks(counted, small, { all: true })
			const smallCount = statements.length
			statements.length = 0
			const largeWeeks = await getCourseWeeks(counted, large, { all: true })
			expect(smallWeeks.weeks).toHaveLength(1)
			expect(largeWeeks.weeks).toHaveLength(50)
			expect(largeWeeks.weeks.flatMap((week) => [...week.materials, ...week.recordings])).toHaveLength(250)
			expect(statements).toHaveLength(smallCount)
			expect(smallCount).toBeLessThanOrEqual(2)
		} finally {
			await destroy()
		}
	})
})

describe('getMaterialItem', () => {
	test('returns the item with its week and course, or null', async () => {
		const courseId = (await insertCourse(t.db)).id
		const weekId = await insertWeek(t.db, { courseId, weekNumber: 4 })
		const itemId = await insertMaterialItem(t.db, { courseId, weekId, title: 'Budget', fileName: 'budget.xlsx' })
		expect(await getMaterialItem(t.db, itemId)).toMatchObject({
			id: itemId,
			title: 'Budget',
			category: 'material',
			weekId,
			weekNumber: 4,
			topic: 'Topic 4',
			courseId,
		})
		expect(await getMaterialItem(t.db, 2_000_000_000)).toBeNull()
	})
})

describe('file kinds', () => {
	test('come from the stored file name, then from a known stored content type', () => {
		expect(fileTypeOf('notes.PDF', null)).toEqual({ contentType: 'application/pdf', kind: 'pdf' })
		expect(fileTypeOf('clip.mov', 'application/octet-stream')).toEqual({ contentType: 'video/quicktime', kind: 'video' })
		expect(fileTypeOf('deck.pptx', null).kind).toBe('powerpoint')
		expect(fileTypeOf('budget', 'application/vnd.ms-excel').kind).toBe('excel')
		expect(fileTypeOf('page.html', 'text/html')).toEqual({ contentType: 'application/octet-stream', kind: 'other' })
		expect(fileTypeOf('image.svg', 'image/svg+xml').kind).toBe('other')
	})

	test('the offered file name drops the unique prefix of the key', () => {
		const key = materialKey(1, 2, 'material', 'Deal Analysis Guide.pdf')
		expect(storedFileName(key)).toBe('Deal-Analysis-Guide.pdf')
	})

	test('YouTube links become privacy-enhanced embeds with restricted controls; other links do not', () => {
		for (const url of [
			'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
			'https://youtu.be/aqz-KE-bpKQ',
			'https://m.youtube.com/shorts/aqz-KE-bpKQ',
			'https://www.youtube.com/embed/aqz-KE-bpKQ',
		]) {
			expect(youtubeVideoId(url)).toBe('aqz-KE-bpKQ')
		}
		const embed = new URL(youtubeEmbedUrl('https://youtu.be/aqz-KE-bpKQ')!)
		expect(embed.origin).toBe('https://www.youtube-nocookie.com')
		expect(embed.pathname).toBe('/embed/aqz-KE-bpKQ')
		expect(Object.fromEntries(embed.searchParams)).toMatchObject({ rel: '0', modestbranding: '1', disablekb: '1' })
		expect(youtubeEmbedUrl('https://vimeo.com/123')).toBeNull()
		expect(youtubeEmbedUrl('javascript:alert(1)//youtube.com/watch?v=aqz-KE-bpKQ')).toBeNull()
		expect(materialKind({ storageKey: null, mimeType: null, fileUrl: 'https://vimeo.com/123' })).toBe('other')
	})
})
