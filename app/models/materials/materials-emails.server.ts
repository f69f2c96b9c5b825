import type { Kysely } from 'kysely'
import { createElement } from 'react'
import { href } from 'react-router'
import { CourseUpdateEmail } from '#app/emails/course-update.tsx'
import {
	oneClickUnsubscribeUrlWithToken,
	unsubscribeToken,
	unsubscribeUrlWithToken,
} from '#app/models/accounts/email-preferences.server.ts'
import { emailRecipientsOf } from '#app/models/messaging/announcement-emails.server.ts'
import { emailSite, enqueueEmail } from '#app/models/messaging/emails.server.ts'
import type { Database } from '#db/types.ts'
import type { CourseUpdate } from './materials.ts'

type Recipient = { id: string; email: string; name: string | null }

type Notice = {
	courseId: number
	courseTitle: string
	subject: string
	heading: string
	lines: string[]
	action: { label: string; path: string }
	recipients: Recipient[]
}

/** What the update says and to whom; null when what it is about is gone. */
async function noticeOf(db: Kysely<Database>, update: CourseUpdate): Promise<Notice | null> {
	if (update.kind === 'assignment-posted') {
		const row = await db
			.selectFrom('assignments')
			.innerJoin('courses', 'courses.id', 'assignments.course_id')
			.select(['assignments.id', 'assignments.title', 'assignments.due_at', 'courses.id as courseId', 'courses.title as courseTitle'])
			.where('assignments.id', '=', update.assignmentId)
			.executeTakeFirst()
		if (!row) return null
		const due = row.due_at ? ` It is due on ${new Date(row.due_at).toISOString().slice(0, 10)}.` : ''
		return {
			courseId: row.courseId,
			courseTitle: row.courseTitle,
			subject: `${row.courseTitle}: new assignment, ${row.title}`,
			heading: 'A new assignment',
			lines: [`${row.title} has been posted in ${row.courseTitle}.${due}`],
			action: { label: 'See the assignment', path: href('/dashboard/assignments/:assignmentId', { assignmentId: String(row.id) }) },
			recipients: await emailRecipientsOf(db, row.courseId),
		}
	}
	if (update.kind === 'recordings-added') {
		const row = await db
			.selectFrom('course_materials')
			.innerJoin('courses', 'courses.id', 'course_materials.course_id')
			.select([
				'course_materials.week_number as weekNumber',
				'course_materials.topic',
				'courses.id as courseId',
				'courses.title as courseTitle',
			])
			.where('course_materials.id', '=', update.weekId)
			.executeTakeFirst()
		if (!row) return null
		const what = update.titles.length === 1 ? 'A recording' : `${update.titles.length} recordings`
		return {
			courseId: row.courseId,
			courseTitle: row.courseTitle,
			subject: `${row.courseTitle}: week ${row.weekNumber} recording added`,
			heading: `Week ${row.weekNumber}: new ${update.titles.length === 1 ? 'recording' : 'recordings'}`,
			lines: [`${what} of week ${row.weekNumber} (${row.topic}) can now be watched: ${update.titles.join(', ')}.`],
			action: { label: 'Open your dashboard', path: `${href('/dashboard')}?course=${row.courseId}` },
			recipients: await emailRecipientsOf(db, row.courseId),
		}
	}
	const row = await db
		.selectFrom('assignment_submissions as submission')
		.innerJoin('assignments', 'assignments.id', 'submission.assignment_id')
		.innerJoin('courses', 'courses.id', 'assignments.course_id')
		.select([
			'submission.student_id as studentId',
			'submission.grade',
			'assignments.id as assignmentId',
			'assignments.title',
			'courses.id as courseId',
			'courses.title as courseTitle',
		])
		.where('submission.id', '=', update.submissionId)
		.where('submission.status', '=', 'graded')
		.executeTakeFirst()
	if (!row) return null
	return {
		courseId: row.courseId,
		courseTitle: row.courseTitle,
		subject: `${row.courseTitle}: ${row.title} is graded`,
		heading: 'Your work is graded',
		lines: [
			`Your submission for ${row.title} has been graded${row.grade ? `: ${row.grade}` : ''}. The feedback is on the assignment's page.`,
		],
		action: { label: 'Read the feedback', path: href('/dashboard/assignments/:assignmentId', { assignmentId: String(row.assignmentId) }) },
		recipients: (await emailRecipientsOf(db, row.courseId)).filter((recipient) => recipient.id === row.studentId),
	}
}

/**
 * The `email-course-update` job: one mail per recipient, each with their unsubscribe link (the
 * announcements switch, as announcements have), in one transaction. Returns how many were queued.
 */
/**
 * `runKey` names this run of the news (the job's id): run again with the same key — a job retried
 * after its mail committed — it queues nothing new.
 */
export async function emailCourseUpdate(db: Kysely<Database>, update: CourseUpdate, runKey: string) {
	return db.transaction().execute(async (trx) => {
		const notice = await noticeOf(trx, update)
		if (!notice) return 0
		const site = await emailSite(trx)
		let queued = 0
		for (const recipient of notice.recipients) {
			const token = unsubscribeToken(recipient.id)
			const isNew = await enqueueEmail(trx, {
				to: recipient.email,
				subject: notice.subject,
				body: createElement(CourseUpdateEmail, {
					site,
					name: recipient.name,
					courseTitle: notice.courseTitle,
					subject: notice.subject,
					heading: notice.heading,
					lines: notice.lines,
					action: { label: notice.action.label, url: `${site.url}${notice.action.path}` },
					unsubscribeUrl: unsubscribeUrlWithToken(token),
				}),
				// RFC 8058: mail clients show an Unsubscribe button that POSTs to this address.
				headers: {
					'List-Unsubscribe': `<${oneClickUnsubscribeUrlWithToken(token)}>`,
					'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
				},
				dedupeKey: `course-update:${runKey}:${recipient.id}`,
			})
			if (isNew) queued += 1
		}
		return queued
	})
}
